#include "src/io/calibration_yaml.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <opencv2/core.hpp>

#include "src/core/error.h"

namespace sv {
namespace {

bool is_number(const cv::FileNode& node) { return node.isInt() || node.isReal(); }

// Appends the numbers of a list or a list of rows; false when it holds anything else.
bool append_numbers(const cv::FileNode& node, std::vector<double>& values) {
  if (is_number(node)) {
    values.push_back(node.real());
    return true;
  }
  if (!node.isSeq()) return false;
  for (const cv::FileNode& child : node) {
    if (child.isSeq() ? !append_numbers(child, values) : !is_number(child)) return false;
    if (!child.isSeq()) values.push_back(child.real());
  }
  return true;
}

std::string counts_text(std::initializer_list<size_t> counts) {
  std::string text;
  size_t i = 0;
  for (size_t count : counts) {
    text += (i == 0 ? "" : i + 1 == counts.size() ? " or " : ", ") + std::to_string(count);
    ++i;
  }
  return text;
}

size_t indent_of(const std::string& line) {
  const size_t first = line.find_first_not_of(' ');
  return first == std::string::npos ? line.size() : first;
}

// PyYAML (Kalibr) writes a key's block sequence at the key's own indentation ("T_cn_cnm1:" then
// "- [...]" below it), which YAML allows and OpenCV's reader refuses ("Incorrect indentation"):
// such items are indented two more spaces, with any lines that continue them.
std::string indent_block_sequences(const std::string& text) {
  std::istringstream lines(text);
  std::string out, line;
  bool after_empty_key = false, shifting = false;
  size_t key_indent = 0;
  while (std::getline(lines, line)) {
    const size_t indent = indent_of(line);
    const bool blank = indent == line.size() || line[indent] == '#';
    if (!blank) {
      const bool item = line.compare(indent, 2, "- ") == 0 || line.compare(indent, 2, "-") == 0;
      if (after_empty_key && item && indent == key_indent) {
        shifting = true;
      } else if (shifting && (indent < key_indent || (indent == key_indent && !item))) {
        shifting = false;
      }
      const size_t end = line.find_last_not_of(" \t\r");
      after_empty_key = !item && line[end] == ':';
      if (after_empty_key) key_indent = indent;
    }
    out += (shifting && !blank ? "  " : "") + line + "\n";
  }
  return out;
}

}  // namespace

CalibrationYaml::CalibrationYaml(std::string path, const std::string& text)
    : path_(std::move(path)) {
  // OpenCV's YAML reader wants its directive; the formats' own writers (PyYAML, yaml-cpp) omit it.
  const bool has_directive = text.rfind("%YAML", 0) == 0;
  try {
    fs_.open((has_directive ? "" : "%YAML:1.0\n") + indent_block_sequences(text),
             cv::FileStorage::READ | cv::FileStorage::MEMORY);
  } catch (const cv::Exception& e) {
    throw InputError("cannot read calibration '" + path_ + "': not YAML that OpenCV can parse (" +
                     e.what() + ")");
  }
  if (!fs_.isOpened()) {
    throw InputError("cannot read calibration '" + path_ + "': not YAML that OpenCV can parse");
  }
}

std::string CalibrationYaml::entry(const std::string& where, const char* key) const {
  return "calibration '" + path_ + "' (" + format_ + "): " + (where.empty() ? "" : where + ".") +
         key;
}

cv::FileNode CalibrationYaml::require(const cv::FileNode& parent, const std::string& where,
                                      const char* key) const {
  const cv::FileNode node = parent.isMap() ? parent[key] : cv::FileNode();
  if (node.empty()) {
    throw InputError("calibration '" + path_ + "' (" + format_ + "): no " +
                     (where.empty() ? "" : where + ".") + key);
  }
  return node;
}

std::vector<double> CalibrationYaml::numbers(const cv::FileNode& parent, const std::string& where,
                                             const char* key, size_t count) const {
  return numbers(parent, where, key, {count});
}

std::vector<double> CalibrationYaml::numbers(const cv::FileNode& parent, const std::string& where,
                                             const char* key,
                                             std::initializer_list<size_t> counts) const {
  const cv::FileNode node = require(parent, where, key);
  // A matrix map (ROS, ASL): its data, in rows x cols.
  const cv::FileNode data = node.isMap() ? node["data"] : node;
  std::vector<double> values;
  if (data.empty() || !append_numbers(data, values)) {
    throw InputError(entry(where, key) + " is not a list of numbers");
  }
  if (node.isMap() && is_number(node["rows"]) && is_number(node["cols"]) &&
      node["rows"].real() * node["cols"].real() != static_cast<double>(values.size())) {
    throw InputError(entry(where, key) + " says rows " + std::to_string(int(node["rows"])) +
                     " and cols " + std::to_string(int(node["cols"])) + " but holds " +
                     std::to_string(values.size()) + " numbers");
  }
  if (std::find(counts.begin(), counts.end(), values.size()) == counts.end()) {
    throw InputError(entry(where, key) + " must hold " + counts_text(counts) + " numbers, got " +
                     std::to_string(values.size()));
  }
  for (double v : values) {
    if (!std::isfinite(v)) {
      throw InputError(entry(where, key) + " holds " + (std::isnan(v) ? "NaN" : "an infinity") +
                       ": a calibration's values must be finite numbers");
    }
  }
  return values;
}

std::string CalibrationYaml::text(const cv::FileNode& parent, const std::string& where,
                                  const char* key) const {
  const cv::FileNode node = require(parent, where, key);
  if (!node.isString()) throw InputError(entry(where, key) + " is not a name");
  return node.string();
}

}  // namespace sv
