#include "src/io/camera_pair_formats.h"

#include <memory>

#include "src/core/error.h"
#include "src/io/asl_sensor_reader.h"
#include "src/io/calibration_files.h"
#include "src/io/calibration_yaml.h"
#include "src/io/kalibr_camchain_reader.h"
#include "src/io/ros_camera_info_reader.h"
#include "src/io/zed_conf_reader.h"

namespace sv {
namespace {

enum class Format { kOpenCv, kZed, kKalibr, kAsl, kRos };

const char* format_name(Format format) {
  switch (format) {
    case Format::kZed: return "a ZED .conf";
    case Format::kKalibr: return "a Kalibr camchain";
    case Format::kAsl: return "an ASL sensor.yaml";
    case Format::kRos: return "a ROS camera_info file";
    case Format::kOpenCv: break;
  }
  return "an OpenCV calibration";
}

struct ReadFile {
  std::string path;
  std::string text;
  Format format = Format::kOpenCv;
  std::unique_ptr<CalibrationYaml> yaml;  // for the YAML formats
};

// Only the other formats are told apart here: what is not YAML (XML, JSON, broken files) goes
// to the OpenCV reader, which reports its own errors.
ReadFile read_file(const std::string& path) {
  ReadFile file;
  file.path = path;
  file.text = read_calibration_text(path);
  if (is_zed_conf(file.text)) {
    file.format = Format::kZed;
    return file;
  }
  const size_t start = file.text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (start == std::string::npos || file.text[start] == '<' || file.text[start] == '{') return file;
  try {
    file.yaml = std::make_unique<CalibrationYaml>(path, file.text);
  } catch (const InputError&) {
    return file;
  }
  if (is_kalibr_camchain(*file.yaml)) {
    file.format = Format::kKalibr;
  } else if (is_asl_sensor(*file.yaml)) {
    file.format = Format::kAsl;
  } else if (is_ros_camera_info(*file.yaml)) {
    file.format = Format::kRos;
  }
  return file;
}

std::string listed(const std::vector<ReadFile>& files) {
  std::string text;
  for (const ReadFile& file : files) text += (text.empty() ? "" : ", ") + file.path;
  return text;
}

}  // namespace

std::optional<StereoCalibration> read_camera_pair_format(const std::vector<std::string>& paths) {
  std::vector<ReadFile> files;
  for (const std::string& path : paths) files.push_back(read_file(path));
  const Format format = files.front().format;
  for (const ReadFile& file : files) {
    if (file.format != format) {
      throw InputError("calibration '" + listed(files) + "': '" + files.front().path + "' is " +
                       format_name(format) + " but '" + file.path + "' is " +
                       format_name(file.format) + ": name files of one format");
    }
  }
  if (format == Format::kOpenCv) return std::nullopt;
  const bool pair = format == Format::kAsl || format == Format::kRos;
  if (files.size() != (pair ? 2u : 1u)) {
    throw InputError(std::string("calibration '") + listed(files) + "': " + format_name(format) +
                     (pair ? " describes one camera: name the left and the right camera's, "
                             "--calib LEFT,RIGHT (or a folder holding them)"
                           : " holds the whole rig: name it alone"));
  }
  switch (format) {
    case Format::kZed: return read_zed_conf(files[0].path, files[0].text);
    case Format::kKalibr: return read_kalibr_camchain(*files[0].yaml);
    case Format::kAsl: return read_asl_sensor_pair(*files[0].yaml, *files[1].yaml);
    case Format::kRos: return read_ros_camera_info_pair(*files[0].yaml, *files[1].yaml);
    case Format::kOpenCv: break;
  }
  return std::nullopt;
}

}  // namespace sv
