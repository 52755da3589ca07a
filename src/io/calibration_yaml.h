#pragma once

#include <opencv2/core/persistence.hpp>
#include <string>
#include <vector>

namespace sv {

// One YAML calibration file of a format other than OpenCV's own (ROS camera_info, Kalibr,
// ASL sensor.yaml), parsed with OpenCV's YAML reader, with lookups that name the file, the
// format and the missing or malformed key in their InputError.
class CalibrationYaml {
 public:
  // `text` as read_calibration_text returns it. Plain YAML needs no "%YAML:1.0" line.
  // InputError when it is not YAML OpenCV can parse.
  CalibrationYaml(std::string path, const std::string& text);

  const std::string& path() const { return path_; }
  cv::FileNode root() const { return fs_.root(); }
  // Whether the top level holds `key`.
  bool has(const char* key) const { return !fs_[key].empty(); }

  // The format's name for messages ("Kalibr camchain"); set once the format is known.
  void set_format(std::string format) { format_ = std::move(format); }

  // `parent[key]`; `where` names the parent in messages ("cam1", or "" for the top level).
  // InputError "calibration 'P' (FORMAT): no cam1.intrinsics" when absent.
  cv::FileNode require(const cv::FileNode& parent, const std::string& where, const char* key) const;
  // The numbers of a list ([1, 2]), a list of rows ([[1, 2], [3, 4]] or "- [1, 2]" lines) or a
  // matrix map (rows, cols, data), flattened row by row; exactly `count` finite numbers.
  std::vector<double> numbers(const cv::FileNode& parent, const std::string& where, const char* key,
                              size_t count) const;
  // The same with any count in `counts`.
  std::vector<double> numbers(const cv::FileNode& parent, const std::string& where, const char* key,
                              std::initializer_list<size_t> counts) const;
  std::string text(const cv::FileNode& parent, const std::string& where, const char* key) const;
  // "calibration 'P' (FORMAT): where.key", for messages about one entry.
  std::string entry(const std::string& where, const char* key) const;

 private:
  std::string path_;
  std::string format_;
  cv::FileStorage fs_;
};

}  // namespace sv
