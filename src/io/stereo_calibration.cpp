#include "src/io/stereo_calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <opencv2/core.hpp>

#include "src/core/byte_count.h"
#include "src/core/error.h"
#include "src/io/calibration_checks.h"
#include "src/io/calibration_files.h"
#include "src/io/camera_pair_formats.h"

namespace sv {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// A node's value as text, to compare an entry that two files both hold.
std::string node_text(const cv::FileNode& node) {
  if (node.isInt() || node.isReal()) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", node.real());
    return text;
  }
  if (node.isString()) return "'" + node.string() + "'";
  std::string text = node.isMap() ? "{" : "[";
  for (const cv::FileNode& child : node) {
    if (node.isMap()) text += child.name() + ":";
    text += node_text(child) + ",";
  }
  return text + (node.isMap() ? "}" : "]");
}

// One entry of a calibration: its node, the name it has there and the file that holds it.
struct Entry {
  cv::FileNode node;
  std::string name;
  std::string file;
  bool found() const { return !node.empty(); }
  std::string where() const { return "calibration '" + file + "': " + name; }
};

// The files of one calibration, read as one: each entry comes from the file that holds it.
class CalibrationFiles {
 public:
  explicit CalibrationFiles(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) {
      const std::string text = read_calibration_text(path);
      cv::FileStorage fs;
      try {
        fs.open(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
      } catch (const cv::Exception& e) {
        throw InputError("cannot read calibration '" + path +
                         "': not an OpenCV YAML/XML/JSON file (" + e.what() + ")");
      }
      if (!fs.isOpened()) {
        throw InputError("cannot read calibration '" + path + "': not an OpenCV YAML/XML/JSON file");
      }
      files_.emplace_back(path, std::move(fs));
    }
  }

  // "a.yml" or "a.yml + b.yml", for messages about the whole calibration.
  std::string description() const {
    std::string text;
    for (const auto& [path, fs] : files_) text += (text.empty() ? "" : " + ") + path;
    return text;
  }

  // The first of `names` that a file holds (an empty Entry when none does). InputError when two
  // files hold it with different values.
  Entry find(std::initializer_list<const char*> names) const {
    for (const char* name : names) {
      Entry entry;
      for (const auto& [path, fs] : files_) {
        const cv::FileNode node = fs[name];
        if (node.empty()) continue;
        if (!entry.found()) {
          entry = Entry{node, name, path};
        } else if (node_text(node) != node_text(entry.node)) {
          throw InputError("calibration: " + std::string(name) + " differs between '" +
                           entry.file + "' and '" + path + "'");
        }
      }
      if (entry.found()) return entry;
    }
    return {};
  }

 private:
  std::vector<std::pair<std::string, cv::FileStorage>> files_;
};

// A plain list ([1, 2, 3]) or a list of rows ([[1, 0], [0, 1]]) as a matrix.
cv::Mat matrix_from_sequence(const Entry& entry) {
  const cv::FileNode& node = entry.node;
  const bool nested = node.size() > 0 && node[0].isSeq();
  const int rows = nested ? static_cast<int>(node.size()) : 1;
  const int cols = nested ? static_cast<int>(node[0].size()) : static_cast<int>(node.size());
  cv::Mat mat(rows, cols, CV_64F);
  for (int r = 0; r < rows; ++r) {
    const cv::FileNode row = nested ? node[r] : node;
    if (static_cast<int>(row.size()) != cols) {
      throw InputError(entry.where() + " has rows of different lengths");
    }
    for (int c = 0; c < cols; ++c) {
      if (!row[c].isInt() && !row[c].isReal()) throw InputError(entry.where() + " holds a non-number");
      mat.at<double>(r, c) = row[c].real();
    }
  }
  return mat;
}

// The whole numbers an integer element type of OpenCV (dt u c w s i) can hold; none for the
// floating point ones (f d h).
struct WholeRange {
  bool whole = false;
  double lowest = 0.0, highest = 0.0;
};

// dt as OpenCV writes it, "d" or "3d" (channels, then the element type); InputError otherwise.
WholeRange element_type(const Entry& entry, const cv::FileNode& dt) {
  const std::string text = dt.isString() ? dt.string() : "";
  const size_t digits = text.find_first_not_of("0123456789");
  if (text.empty() || digits == std::string::npos || digits + 1 != text.size() ||
      std::string("ucwsifdh").find(text.back()) == std::string::npos) {
    throw InputError(entry.where() + " has dt " + node_text(dt) +
                     ", not an OpenCV element type (u c w s i f d or h, after a channel count)");
  }
  const int channels = digits == 0 ? 1 : std::atoi(text.substr(0, std::min<size_t>(digits, 6)).c_str());
  if (channels != 1) {
    throw InputError(entry.where() + " must be a single-channel matrix, got " +
                     std::to_string(channels) + " channels");
  }
  switch (text.back()) {
    case 'u': return {true, 0.0, 255.0};
    case 'c': return {true, -128.0, 127.0};
    case 'w': return {true, 0.0, 65535.0};
    case 's': return {true, -32768.0, 32767.0};
    case 'i': return {true, -2147483648.0, 2147483647.0};
    default: return {};
  }
}

// rows or cols of a matrix map: a whole number from 1 to 2^31 - 1.
int64_t declared_side(const Entry& entry, const cv::FileNode& node, const char* name) {
  const double v = node.isInt() || node.isReal() ? node.real() : 0.0;
  if (!(v >= 1.0 && v <= 2147483647.0) || v != std::floor(v)) {
    throw InputError(entry.where() + " declares " + name + " " + node_text(node) +
                     ": not a positive whole number");
  }
  return static_cast<int64_t>(v);
}

// An OpenCV matrix map (rows, cols, dt, data), read here rather than by cv::read, which
// allocates rows x cols as declared before it looks at the data: "cols: true" reads as INT_MAX
// and asked for 48 GB. Here the declared size must be the number of values the file holds (a
// file has at most kMaxCalibrationFileBytes), and an integer dt must hold whole numbers in its
// range (OpenCV would round 158.5 and clip 300 to 255 without a word).
cv::Mat matrix_from_map(const Entry& entry) {
  const cv::FileNode& node = entry.node;
  if (!node.isMap() || node["rows"].empty() || node["cols"].empty() || node["dt"].empty() ||
      node["data"].empty()) {
    throw InputError(entry.where() + " is not a matrix (a list of numbers, or rows, cols, dt "
                     "and data)");
  }
  const int64_t rows = declared_side(entry, node["rows"], "rows");
  const int64_t cols = declared_side(entry, node["cols"], "cols");
  const WholeRange range = element_type(entry, node["dt"]);
  const cv::FileNode data = node["data"];
  const size_t count = data.isSeq() ? data.size() : 1;
  if (static_cast<double>(rows) * static_cast<double>(cols) != static_cast<double>(count)) {
    throw InputError(entry.where() + " declares " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " values but its data holds " +
                     std::to_string(count));
  }
  cv::Mat mat(static_cast<int>(rows), static_cast<int>(cols), CV_64F);
  for (size_t i = 0; i < count; ++i) {
    const cv::FileNode value = data.isSeq() ? data[static_cast<int>(i)] : data;
    if (!value.isInt() && !value.isReal()) throw InputError(entry.where() + " holds a non-number");
    const double v = value.real();
    if (range.whole && std::isfinite(v) &&
        (v != std::floor(v) || v < range.lowest || v > range.highest)) {
      char got[32];
      std::snprintf(got, sizeof got, "%.17g", v);
      throw InputError(entry.where() + " has dt " + node_text(node["dt"]) + " (whole numbers " +
                       "from " + std::to_string(static_cast<int64_t>(range.lowest)) + " to " +
                       std::to_string(static_cast<int64_t>(range.highest)) + ") but holds " +
                       got + " (row " + std::to_string(i / cols + 1) + ", column " +
                       std::to_string(i % cols + 1) + "): write it with dt: d");
    }
    mat.ptr<double>()[i] = v;
  }
  return mat;
}

// The entry as a single-channel matrix of doubles, every value finite.
cv::Mat read_matrix(const Entry& entry) {
  const cv::Mat as_double =
      entry.node.isSeq() ? matrix_from_sequence(entry) : matrix_from_map(entry);
  if (as_double.empty()) throw InputError(entry.where() + " is not a matrix");
  for (int r = 0; r < as_double.rows; ++r) {
    for (int c = 0; c < as_double.cols; ++c) {
      const double v = as_double.at<double>(r, c);
      if (!std::isfinite(v)) {
        throw InputError(entry.where() + " holds " + (std::isnan(v) ? "NaN" : "an infinity") +
                         " (row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) +
                         "): a calibration's values must be finite numbers");
      }
    }
  }
  return as_double;
}

template <size_t N>
std::array<double, N> read_fixed(const Entry& entry, int rows, int cols,
                                 bool vector_any_shape = false) {
  const cv::Mat m = read_matrix(entry);
  const bool shape_ok = vector_any_shape ? static_cast<int>(m.total()) == rows * cols &&
                                               (m.rows == 1 || m.cols == 1)
                                         : m.rows == rows && m.cols == cols;
  if (!shape_ok) {
    throw InputError(entry.where() + " must be " + std::to_string(rows) + "x" +
                     std::to_string(cols) + ", got " + std::to_string(m.rows) + "x" +
                     std::to_string(m.cols));
  }
  std::array<double, N> values{};
  for (size_t i = 0; i < N; ++i) {
    values[i] = m.at<double>(static_cast<int>(i / m.cols), static_cast<int>(i % m.cols));
  }
  return values;
}

std::vector<double> read_distortion(const Entry& entry) {
  const cv::Mat m = read_matrix(entry);
  const size_t n = m.total();
  if ((m.rows != 1 && m.cols != 1) || !(n == 4 || n == 5 || n == 8 || n == 12 || n == 14)) {
    throw InputError(entry.where() +
                     " must be a vector of 4, 5, 8, 12 or 14 distortion coefficients, got " +
                     std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = m.at<double>(static_cast<int>(i));
  return values;
}

// Refuses `problem` (from calibration_checks.h) for the entry, when there is one.
void refuse_if(const std::string& problem, const Entry& entry) {
  if (!problem.empty()) throw InputError(entry.where() + " " + problem);
}

// `v` as an image side: a whole number in 1..65536 (NaN when the entry holds no number).
int image_side(const Entry& entry, double v) {
  if (!(v >= 1.0 && v <= 65536.0) || v != std::floor(v)) {
    char got[32];
    std::snprintf(got, sizeof got, "%g", v);
    throw InputError(entry.where() + " must hold image sides in whole pixels (1..65536), got " +
                     (std::isnan(v) ? "no number" : got));
  }
  return static_cast<int>(v);
}

double number_of(const cv::FileNode& node) {
  return node.isInt() || node.isReal() ? node.real() : std::nan("");
}

void read_image_size(const CalibrationFiles& files, StereoCalibration& c) {
  const Entry w = files.find({"image_width", "imageWidth", "width"});
  const Entry h = files.find({"image_height", "imageHeight", "height"});
  if (w.found() != h.found()) {
    const Entry& given = w.found() ? w : h;
    throw InputError(given.where() + " is given without its partner (image_width needs "
                     "image_height)");
  }
  if (w.found()) {
    c.width = image_side(w, number_of(w.node));
    c.height = image_side(h, number_of(h.node));
    return;
  }
  const Entry size = files.find({"image_size", "imageSize", "size"});
  if (!size.found()) return;  // the source's size will be taken (fit_calibration_to_size)
  const cv::Mat m = read_matrix(size);
  if (m.total() != 2) {
    throw InputError(size.where() + " must be [width, height], got " + std::to_string(m.total()) +
                     " values");
  }
  c.width = image_side(size, m.at<double>(0));
  c.height = image_side(size, m.at<double>(1));
}

PixelRect read_roi(const Entry& entry) {
  const cv::Mat m = read_matrix(entry);
  if (m.total() != 4 || (m.rows != 1 && m.cols != 1)) {
    throw InputError(entry.where() + " must be [x, y, width, height], got " +
                     std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  for (int i = 0; i < 4; ++i) {
    const double v = m.at<double>(i);
    if (v != std::floor(v) || std::fabs(v) > 65536.0) {
      throw InputError(entry.where() + " must hold whole pixels, got " + std::to_string(v));
    }
  }
  const PixelRect roi{static_cast<int>(m.at<double>(0)), static_cast<int>(m.at<double>(1)),
                      static_cast<int>(m.at<double>(2)), static_cast<int>(m.at<double>(3))};
  refuse_if(roi_problem(roi), entry);
  return roi;
}

// Pixel coordinates under a size change by `s`, pixel centres kept aligned: the centre of pixel
// 0 spans [0, 1) before and [0, s) after.
double scale_coordinate(double c, double s) { return (c + 0.5) * s - 0.5; }

void scale_camera_matrix(Matrix3& K, double s) {
  K[0] *= s;  // fx
  K[1] *= s;  // skew
  K[4] *= s;  // fy
  K[2] = scale_coordinate(K[2], s);
  K[5] = scale_coordinate(K[5], s);
}

void scale_projection(Matrix34& P, double s) {
  P[0] *= s;
  P[1] *= s;
  P[3] *= s;  // fx * Tx
  P[5] *= s;
  P[7] *= s;  // fy * Ty
  P[2] = scale_coordinate(P[2], s);
  P[6] = scale_coordinate(P[6], s);
}

// Whole pixels of the scaled image that lie inside the scaled rectangle.
void scale_rect(PixelRect& r, double s) {
  const int x0 = static_cast<int>(std::ceil(r.x * s)), y0 = static_cast<int>(std::ceil(r.y * s));
  const int x1 = static_cast<int>(std::floor((r.x + r.width) * s));
  const int y1 = static_cast<int>(std::floor((r.y + r.height) * s));
  r = PixelRect{x0, y0, x1 - x0, y1 - y0};
}

// [X Y Z W] = Q [x y d 1] must give the same point for the scaled x' = (x + 0.5) s - 0.5,
// d' = s d: Q' = Q M with M = [[1,0,0,o],[0,1,0,o],[0,0,1,0],[0,0,0,s]], o = -(s - 1) / 2, which
// multiplies the old X Y Z W by s (the same point).
void scale_q(Matrix4& Q, double s) {
  const double o = -(s - 1.0) / 2.0;
  for (int r = 0; r < 4; ++r) {
    double* row = &Q[r * 4];
    row[3] = row[0] * o + row[1] * o + row[3] * s;
  }
}

// The optional distortion_model entry: OpenCV's pinhole model unless it names the fisheye one.
DistortionModel read_distortion_model(const CalibrationFiles& files) {
  const Entry entry = files.find({"distortion_model"});
  if (!entry.found()) return DistortionModel::kPinhole;
  const std::string name = entry.node.isString() ? entry.node.string() : "";
  if (name == "fisheye" || name == "equidistant") return DistortionModel::kFisheye;
  if (name == "pinhole" || name == "plumb_bob" || name == "radtan" || name == "rational_polynomial") {
    return DistortionModel::kPinhole;
  }
  throw InputError(entry.where() + " must be fisheye (or equidistant) or pinhole (plumb_bob, "
                   "radtan, rational_polynomial), got '" + name + "'");
}

// The optional translation_unit entry: mm, cm or m.
std::optional<LengthUnit> read_translation_unit(const CalibrationFiles& files) {
  const Entry entry = files.find({"translation_unit"});
  if (!entry.found()) return std::nullopt;
  const std::string symbol = entry.node.isString() ? entry.node.string() : "";
  const std::optional<LengthUnit> unit = parse_length_unit(symbol);
  if (!unit) throw InputError(entry.where() + " must be mm, cm or m, got '" + symbol + "'");
  return unit;
}

// The calibration of `choices` (one per size) that fits width x height: the one made for it, else
// the first that fit_calibration_to_size can rescale.
const StereoCalibration& choose_size(const StereoCalibration& c, int width, int height) {
  for (const StereoCalibration& choice : c.per_size) {
    if (choice.width == width && choice.height == height) return choice;
  }
  std::string sizes;
  for (const StereoCalibration& choice : c.per_size) {
    try {
      fit_calibration_to_size(choice, width, height);
      return choice;
    } catch (const InputError&) {
      sizes += (sizes.empty() ? "" : ", ") + size_text(choice.width, choice.height);
    }
  }
  throw InputError("calibration '" + c.path + "' holds calibrations for " + sizes +
                   " but the source delivers " + size_text(width, height) +
                   " (not one of them, nor a whole multiple or fraction of one)");
}

}  // namespace

StereoCalibration load_stereo_calibration(const std::string& spec) {
  const std::vector<std::string> paths = calibration_file_paths(spec);
  if (std::optional<StereoCalibration> converted = read_camera_pair_format(paths)) {
    // Each of these formats defines its translations in metres (the ZED's millimetres are
    // converted as it is read).
    converted->translation_unit = LengthUnit::kMetre;
    for (StereoCalibration& size : converted->per_size) size.translation_unit = LengthUnit::kMetre;
    return *converted;
  }
  const CalibrationFiles files(paths);
  StereoCalibration c;
  c.path = files.description();
  read_image_size(files, c);

  const Entry k1 = files.find({"K1", "M1", "cameraMatrix1", "camera_matrix_1"});
  const Entry d1 = files.find({"D1", "distCoeffs1", "dist_coeffs_1"});
  const Entry k2 = files.find({"K2", "M2", "cameraMatrix2", "camera_matrix_2"});
  const Entry d2 = files.find({"D2", "distCoeffs2", "dist_coeffs_2"});
  if (k1.found() && d1.found() && k2.found() && d2.found()) {
    c.K1 = read_fixed<9>(k1, 3, 3);
    refuse_if(camera_matrix_problem(c.K1), k1);
    c.K2 = read_fixed<9>(k2, 3, 3);
    refuse_if(camera_matrix_problem(c.K2), k2);
    c.D1 = read_distortion(d1);
    c.D2 = read_distortion(d2);
    c.distortion_model = read_distortion_model(files);
    if (c.distortion_model == DistortionModel::kFisheye) {
      refuse_if(fisheye_distortion_problem(c.D1), d1);
      refuse_if(fisheye_distortion_problem(c.D2), d2);
    }
    c.has_intrinsics = true;
  }
  const Entry r = files.find({"R"});
  const Entry t = files.find({"T"});
  if (r.found() && t.found()) {
    c.R = read_fixed<9>(r, 3, 3);
    refuse_if(rotation_problem(c.R), r);
    c.T = read_fixed<3>(t, 3, 1, true);
    refuse_if(translation_problem(c.T, kMaxBaselineFileUnits), t);
    c.has_extrinsics = true;
  }
  const Entry r1 = files.find({"R1"}), r2 = files.find({"R2"}), p1 = files.find({"P1"}),
              p2 = files.find({"P2"}), q = files.find({"Q"});
  if (r1.found() && r2.found() && p1.found() && p2.found() && q.found()) {
    c.R1 = read_fixed<9>(r1, 3, 3);
    refuse_if(rotation_problem(c.R1), r1);
    c.R2 = read_fixed<9>(r2, 3, 3);
    refuse_if(rotation_problem(c.R2), r2);
    c.P1 = read_fixed<12>(p1, 3, 4);
    refuse_if(projection_problem(c.P1, false), p1);
    c.P2 = read_fixed<12>(p2, 3, 4);
    refuse_if(projection_problem(c.P2, true), p2);
    c.Q = read_fixed<16>(q, 4, 4);
    refuse_if(q_problem(c.Q), q);
    c.has_rectification = true;
  }
  const Entry roi1 = files.find({"ValidRoi1", "validRoi1", "valid_roi1", "validPixROI1"});
  const Entry roi2 = files.find({"ValidRoi2", "validRoi2", "valid_roi2", "validPixROI2"});
  if (roi1.found() && roi2.found()) {
    c.valid_roi1 = read_roi(roi1);
    c.valid_roi2 = read_roi(roi2);
    c.has_valid_rois = true;
  }
  if (!(c.has_intrinsics && c.has_extrinsics) && !c.has_rectification) {
    std::string found;
    for (const char* key : {"K1", "M1", "D1", "K2", "M2", "D2", "R", "T", "R1", "R2", "P1", "P2", "Q"}) {
      if (files.find({key}).found()) found += std::string(found.empty() ? "" : " ") + key;
    }
    throw InputError("calibration '" + c.path +
                     "' holds neither K1 D1 K2 D2 R T nor R1 R2 P1 P2 Q (found: " +
                     (found.empty() ? "none of them" : found) + ")");
  }
  c.translation_unit = read_translation_unit(files);
  if (c.width > 0) check_stated_image_size(c);
  return c;
}

StereoCalibration fit_calibration_to_size(const StereoCalibration& calibration, int width,
                                          int height) {
  if (!calibration.per_size.empty()) {
    return fit_calibration_to_size(choose_size(calibration, width, height), width, height);
  }
  if (calibration.width == 0) {
    check_assumed_image_size(calibration, width, height);
    StereoCalibration assumed = calibration;
    assumed.width = width;
    assumed.height = height;
    return assumed;
  }
  const int cw = calibration.width;
  const int ch = calibration.height;
  if (width == cw && height == ch) return calibration;
  const bool same_ratio = static_cast<long long>(width) * ch == static_cast<long long>(height) * cw;
  const bool up = width % cw == 0 && height % ch == 0;
  const bool down = width > 0 && height > 0 && cw % width == 0 && ch % height == 0;
  if (!same_ratio || !(up || down)) {
    throw InputError("calibration '" + calibration.path + "' is for " + size_text(cw, ch) +
                     " images but the source delivers " + size_text(width, height) +
                     " (not a whole multiple or fraction of it): calibrate at this size");
  }
  const double s = static_cast<double>(width) / cw;
  StereoCalibration scaled = calibration;
  scaled.width = width;
  scaled.height = height;
  if (scaled.has_intrinsics) {
    scale_camera_matrix(scaled.K1, s);
    scale_camera_matrix(scaled.K2, s);
  }
  if (scaled.has_rectification) {
    scale_projection(scaled.P1, s);
    scale_projection(scaled.P2, s);
    scale_q(scaled.Q, s);
  }
  if (scaled.has_valid_rois) {
    scale_rect(scaled.valid_roi1, s);
    scale_rect(scaled.valid_roi2, s);
  }
  return scaled;
}

StereoGeometry geometry_from_q(const Matrix4& Q) {
  // stereoRectify's form: [1 0 0 -cx; 0 1 0 -cy; 0 0 0 f; 0 0 -1/Tx (cx - cx')/Tx], any scale.
  const double scale = Q[0];
  if (scale == 0.0 || Q[14] == 0.0 || Q[11] == 0.0 || std::fabs(Q[5] - scale) > 1e-9 * std::fabs(scale)) {
    throw InputError("Q is not a disparity-to-depth matrix of stereoRectify's form");
  }
  StereoGeometry g;
  g.focal_length_px = Q[11] / scale;
  g.principal_x = -Q[3] / scale;
  g.principal_y = -Q[7] / scale;
  const double inverse_tx = -Q[14] / scale;  // 1 / Tx
  g.baseline = std::fabs(1.0 / inverse_tx);
  g.disparity_offset_px = (Q[15] / scale) / inverse_tx;
  return g;
}

}  // namespace sv
