#include "src/io/calibration_files.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "src/core/error.h"
#include "src/core/input_file.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

const char* const kExtensions[] = {".yml", ".yaml", ".xml", ".json", ".conf"};

bool has_calibration_extension(const fs::path& path) {
  const std::string ext = path.extension().string();
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

// dir/stem.yml (or another extension) when there is exactly one such file.
std::string find_by_stem(const fs::path& dir, const std::string& stem) {
  std::string found;
  for (const char* ext : kExtensions) {
    std::error_code ec;
    const fs::path candidate = dir / (stem + ext);
    if (!fs::exists(candidate, ec)) continue;
    if (!found.empty()) {
      throw InputError("calibration folder '" + dir.string() + "' holds both " + found +
                       " and " + candidate.string() + ": name the files with --calib A,B");
    }
    found = candidate.string();
  }
  return found;
}

std::vector<std::string> files_of_folder(const fs::path& dir) {
  const std::string intrinsics = find_by_stem(dir, "intrinsics");
  const std::string extrinsics = find_by_stem(dir, "extrinsics");
  if (!intrinsics.empty() && !extrinsics.empty()) return {intrinsics, extrinsics};
  // A ROS camera_info pair and EuRoC's mav0 folder name their cameras' files this way.
  const std::string left = find_by_stem(dir, "left"), right = find_by_stem(dir, "right");
  if (!left.empty() && !right.empty()) return {left, right};
  std::error_code exists_error;
  if (fs::exists(dir / "cam0" / "sensor.yaml", exists_error) &&
      fs::exists(dir / "cam1" / "sensor.yaml", exists_error)) {
    return {(dir / "cam0" / "sensor.yaml").string(), (dir / "cam1" / "sensor.yaml").string()};
  }
  std::vector<std::string> candidates;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (has_calibration_extension(entry.path())) candidates.push_back(entry.path().filename().string());
  }
  std::sort(candidates.begin(), candidates.end());
  if (candidates.size() == 1) return {(dir / candidates.front()).string()};
  std::string listed;
  for (const std::string& name : candidates) listed += (listed.empty() ? "" : ", ") + name;
  throw InputError("calibration folder '" + dir.string() +
                   "' holds no intrinsics.yml and extrinsics.yml (" +
                   (listed.empty() ? "no .yml, .yaml, .xml, .json or .conf file at all"
                                   : "but " + listed) +
                   "), nor left.yaml and right.yaml, nor cam0/sensor.yaml and cam1/sensor.yaml: name the file(s) with --calib FILE or --calib A,B");
}

// An upper bound on how deep brackets (YAML, JSON) or elements (XML) nest. Brackets count
// wherever they stand, in strings and comments too: a file that hides deep nesting from this
// scan must not reach the parser.
int nesting_depth(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  const bool xml = start != std::string::npos && text[start] == '<';
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (xml) {
      if (c != '<' || i + 1 == text.size()) continue;
      const char next = text[i + 1];
      if (next == '/') {
        depth = std::max(depth - 1, 0);
      } else if (std::isalpha(static_cast<unsigned char>(next)) || next == '_') {
        const size_t end = text.find('>', i);
        if (end == std::string::npos) break;
        if (text[end - 1] != '/') ++depth;  // <a/> opens nothing
        i = end;
      }
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      depth = std::max(depth - 1, 0);
    }
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

// Whether an XML text ends inside a tag: a '<' with no '>' after it. OpenCV 4.6's XML parser
// reads past the end of the text on "<a b=" and a blank end (a segmentation fault).
bool ends_inside_xml_tag(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (start == std::string::npos || text[start] != '<') return false;
  return text.find('>', text.rfind('<')) == std::string::npos;
}

}  // namespace

std::vector<std::string> calibration_file_paths(const std::string& spec) {
  if (spec.empty()) throw InputError("--calib needs a file, files separated by commas or a folder");
  std::error_code ec;
  if (fs::is_directory(spec, ec)) return files_of_folder(spec);
  if (fs::exists(spec, ec) || spec.find(',') == std::string::npos) return {spec};
  std::vector<std::string> paths;
  size_t begin = 0;
  while (true) {
    const size_t comma = spec.find(',', begin);
    const std::string part = spec.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    if (part.empty()) throw InputError("--calib '" + spec + "': an empty file name in the list");
    if (fs::is_directory(part, ec)) {
      throw InputError("--calib '" + spec + "': '" + part + "' is a folder; list files only");
    }
    paths.push_back(part);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return paths;
}

std::string read_calibration_text(const std::string& path) {
  const std::string text = read_small_file(path, "calibration", kMaxCalibrationFileBytes);
  // OpenCV's parsers and the ZED reader stop at a NUL: what follows it would be ignored unread.
  const size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    throw InputError("calibration '" + path + "' holds a NUL byte (at byte " + std::to_string(nul) +
                     "): not a text file");
  }
  const int depth = nesting_depth(text);
  if (depth > kMaxCalibrationNesting) {
    throw InputError("calibration '" + path + "' nests " + std::to_string(depth) +
                     " levels deep (a calibration needs 3): not a calibration file");
  }
  if (ends_inside_xml_tag(text)) {
    throw InputError("calibration '" + path + "' ends inside an XML tag (a '<' with no '>' after "
                     "it): not a whole XML file");
  }
  return text;
}

}  // namespace sv
