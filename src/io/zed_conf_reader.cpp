#include "src/io/zed_conf_reader.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <opencv2/calib3d.hpp>
#include <sstream>

#include "src/core/error.h"
#include "src/io/camera_pair.h"

namespace sv {
namespace {

struct ZedResolution {
  const char* name;
  int width, height;
};

const ZedResolution kResolutions[] = {{"2K", 2208, 1242},  {"FHD", 1920, 1080},
                                      {"FHD1200", 1920, 1200}, {"HD", 1280, 720},
                                      {"SVGA", 960, 600},  {"VGA", 672, 376}};

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

using Section = std::map<std::string, std::string>;  // key (lower case) -> value

// Sections by name; keys compared without case (ZED writes Baseline but fx).
std::map<std::string, Section> parse_ini(const std::string& text) {
  std::map<std::string, Section> sections;
  std::istringstream lines(text);
  std::string line, current;
  while (std::getline(lines, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      current = trim(line.substr(1, line.size() - 2));
      sections[current];
      continue;
    }
    const size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    sections[current][lower(trim(line.substr(0, equals)))] = trim(line.substr(equals + 1));
  }
  return sections;
}

class ZedConf {
 public:
  ZedConf(std::string path, const std::string& text) : path_(std::move(path)), sections_(parse_ini(text)) {}

  bool has_section(const std::string& name) const { return sections_.count(name) > 0; }

  // [section] key, a finite number; `fallback` when absent if given, else InputError.
  double number(const std::string& section, const std::string& key,
                const double* fallback = nullptr) const {
    const auto s = sections_.find(section);
    const auto value = s == sections_.end() ? Section::const_iterator() : s->second.find(lower(key));
    if (s == sections_.end() || value == s->second.end()) {
      if (fallback) return *fallback;
      throw InputError("calibration '" + path_ + "' (ZED .conf): no " + key + " in [" + section +
                       "]");
    }
    char* end = nullptr;
    const double v = std::strtod(value->second.c_str(), &end);
    if (value->second.empty() || *end != '\0' || !std::isfinite(v)) {
      throw InputError("calibration '" + path_ + "' (ZED .conf): [" + section + "] " + key +
                       " is '" + value->second + "', not a finite number");
    }
    return v;
  }

  bool has_key(const std::string& section, const std::string& key) const {
    const auto s = sections_.find(section);
    return s != sections_.end() && s->second.count(lower(key)) > 0;
  }

  CameraIntrinsics camera(const std::string& section, const ZedResolution& resolution) const {
    CameraIntrinsics camera;
    camera.K = camera_matrix(number(section, "fx"), number(section, "fy"), number(section, "cx"),
                             number(section, "cy"));
    camera.D = {number(section, "k1"), number(section, "k2"), number(section, "p1"),
                number(section, "p2"), number(section, "k3")};
    if (has_key(section, "k4") || has_key(section, "k5") || has_key(section, "k6")) {
      for (const char* key : {"k4", "k5", "k6"}) camera.D.push_back(number(section, key));
    }
    camera.width = resolution.width;
    camera.height = resolution.height;
    return camera;
  }

  StereoCalibration calibration(const ZedResolution& resolution) const {
    const std::string left = std::string("LEFT_CAM_") + resolution.name;
    const std::string right = std::string("RIGHT_CAM_") + resolution.name;
    if (!has_section(right)) {
      throw InputError("calibration '" + path_ + "' (ZED .conf): [" + left + "] has no [" + right +
                       "]");
    }
    const std::string suffix = std::string("_") + resolution.name;
    const double zero = 0.0;
    const cv::Vec3d rotation(number("STEREO", "RX" + suffix), number("STEREO", "CV" + suffix),
                             number("STEREO", "RZ" + suffix));
    cv::Matx33d R;
    cv::Rodrigues(rotation, R);
    const std::array<double, 3> T{-number("STEREO", "Baseline") / 1000.0,
                                  number("STEREO", "TY", &zero) / 1000.0,
                                  number("STEREO", "TZ", &zero) / 1000.0};
    Matrix3 r{};
    std::copy(R.val, R.val + 9, r.begin());
    return calibration_from_cameras(
        path_ + " [" + left + "] [" + right + "] for " + std::to_string(resolution.width) + "x" +
            std::to_string(resolution.height),
        camera(left, resolution), camera(right, resolution), rigid_transform(r, T),
        "[STEREO] Baseline, TY, TZ, RX" + suffix + ", CV" + suffix + ", RZ" + suffix);
  }

 private:
  std::string path_;
  std::map<std::string, Section> sections_;
};

}  // namespace

bool is_zed_conf(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  return start != std::string::npos && text[start] == '[' &&
         (text.find("[STEREO]") != std::string::npos || text.find("[LEFT_CAM_") != std::string::npos);
}

StereoCalibration read_zed_conf(const std::string& path, const std::string& text) {
  const ZedConf conf(path, text);
  if (!conf.has_section("STEREO")) {
    throw InputError("calibration '" + path + "' (ZED .conf): no [STEREO] section");
  }
  StereoCalibration all;
  for (const ZedResolution& resolution : kResolutions) {
    if (conf.has_section(std::string("LEFT_CAM_") + resolution.name)) {
      all.per_size.push_back(conf.calibration(resolution));
    }
  }
  if (all.per_size.empty()) {
    throw InputError("calibration '" + path + "' (ZED .conf): no [LEFT_CAM_<resolution>] section "
                     "(2K, FHD, FHD1200, HD, SVGA or VGA)");
  }
  // The first resolution stands for the file where one calibration is shown; the rectifier takes
  // the one for the source's size.
  StereoCalibration first = all.per_size.front();
  first.path = path;
  first.per_size = std::move(all.per_size);
  return first;
}

}  // namespace sv
