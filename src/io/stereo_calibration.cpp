#include "src/io/stereo_calibration.h"

#include <cmath>
#include <opencv2/core.hpp>

#include "src/core/byte_count.h"
#include "src/core/error.h"
#include "src/core/input_file.h"

namespace sv {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// The first of `names` present in the file, or an empty node.
cv::FileNode find_node(const cv::FileStorage& fs, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    cv::FileNode node = fs[name];
    if (!node.empty()) return node;
  }
  return cv::FileNode();
}

cv::Mat read_matrix(const cv::FileNode& node, const std::string& name, const std::string& path) {
  cv::Mat mat;
  try {
    node >> mat;
  } catch (const cv::Exception& e) {
    throw InputError("calibration '" + path + "': " + name + " is not a matrix: " + e.what());
  }
  if (mat.empty()) throw InputError("calibration '" + path + "': " + name + " is not a matrix");
  cv::Mat as_double;
  mat.convertTo(as_double, CV_64F);
  return as_double;
}

template <size_t N>
std::array<double, N> read_fixed(const cv::FileNode& node, const std::string& name, int rows,
                                 int cols, const std::string& path, bool vector_any_shape = false) {
  const cv::Mat m = read_matrix(node, name, path);
  const bool shape_ok = vector_any_shape ? static_cast<int>(m.total()) == rows * cols &&
                                               (m.rows == 1 || m.cols == 1)
                                         : m.rows == rows && m.cols == cols;
  if (!shape_ok || m.channels() != 1) {
    throw InputError("calibration '" + path + "': " + name + " must be " +
                     std::to_string(rows) + "x" + std::to_string(cols) + ", got " +
                     std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  std::array<double, N> values{};
  for (size_t i = 0; i < N; ++i) values[i] = m.at<double>(static_cast<int>(i / m.cols), static_cast<int>(i % m.cols));
  return values;
}

std::vector<double> read_distortion(const cv::FileNode& node, const std::string& name,
                                    const std::string& path) {
  const cv::Mat m = read_matrix(node, name, path);
  const size_t n = m.total();
  if ((m.rows != 1 && m.cols != 1) || !(n == 4 || n == 5 || n == 8 || n == 12 || n == 14)) {
    throw InputError("calibration '" + path + "': " + name +
                     " must be a vector of 4, 5, 8, 12 or 14 distortion coefficients, got " +
                     std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = m.at<double>(static_cast<int>(m.rows == 1 ? 0 : i), static_cast<int>(m.rows == 1 ? i : 0));
  return values;
}

void read_image_size(const cv::FileStorage& fs, StereoCalibration& c) {
  const cv::FileNode w = find_node(fs, {"image_width", "imageWidth", "width"});
  const cv::FileNode h = find_node(fs, {"image_height", "imageHeight", "height"});
  if (!w.empty() && !h.empty() && w.isInt() && h.isInt()) {
    c.width = static_cast<int>(w);
    c.height = static_cast<int>(h);
  } else {
    const cv::FileNode size = find_node(fs, {"image_size", "imageSize", "size"});
    if (size.isSeq() && size.size() == 2) {
      c.width = static_cast<int>(size[0]);
      c.height = static_cast<int>(size[1]);
    } else if (!size.empty() && size.isMap()) {
      const cv::Mat m = read_matrix(size, "image_size", c.path);
      if (m.total() == 2) {
        c.width = static_cast<int>(m.at<double>(0));
        c.height = static_cast<int>(m.at<double>(1));
      }
    }
  }
  if (c.width <= 0 || c.height <= 0) {
    throw InputError("calibration '" + c.path +
                     "' does not give the image size it was made for (image_width and "
                     "image_height, or image_size as [width, height])");
  }
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

}  // namespace

StereoCalibration load_stereo_calibration(const std::string& path) {
  // FileStorage parses the whole file in memory; a calibration is a few matrices (a few KiB).
  constexpr uint64_t kMaxCalibrationBytes = uint64_t{16} << 20;
  const uint64_t size = require_regular_file(path, "calibration");
  if (size > kMaxCalibrationBytes) {
    throw InputError("cannot read calibration '" + path + "': it holds " + format_bytes(size) +
                     ", more than the " + format_bytes(kMaxCalibrationBytes) + " a calibration can have");
  }
  cv::FileStorage fs;
  try {
    fs.open(path, cv::FileStorage::READ);
  } catch (const cv::Exception& e) {
    throw InputError("cannot read calibration '" + path +
                     "': not an OpenCV YAML/XML file (" + e.what() + ")");
  }
  if (!fs.isOpened()) {
    throw InputError("cannot read calibration '" + path + "': not an OpenCV YAML/XML file");
  }
  StereoCalibration c;
  c.path = path;
  read_image_size(fs, c);

  const cv::FileNode k1 = find_node(fs, {"K1", "M1", "cameraMatrix1", "camera_matrix_1"});
  const cv::FileNode d1 = find_node(fs, {"D1", "distCoeffs1", "dist_coeffs_1"});
  const cv::FileNode k2 = find_node(fs, {"K2", "M2", "cameraMatrix2", "camera_matrix_2"});
  const cv::FileNode d2 = find_node(fs, {"D2", "distCoeffs2", "dist_coeffs_2"});
  if (!k1.empty() && !d1.empty() && !k2.empty() && !d2.empty()) {
    c.K1 = read_fixed<9>(k1, "K1", 3, 3, path);
    c.K2 = read_fixed<9>(k2, "K2", 3, 3, path);
    c.D1 = read_distortion(d1, "D1", path);
    c.D2 = read_distortion(d2, "D2", path);
    c.has_intrinsics = true;
  }
  const cv::FileNode r = fs["R"];
  const cv::FileNode t = fs["T"];
  if (!r.empty() && !t.empty()) {
    c.R = read_fixed<9>(r, "R", 3, 3, path);
    c.T = read_fixed<3>(t, "T", 3, 1, path, true);
    c.has_extrinsics = true;
  }
  const cv::FileNode r1 = fs["R1"], r2 = fs["R2"], p1 = fs["P1"], p2 = fs["P2"], q = fs["Q"];
  if (!r1.empty() && !r2.empty() && !p1.empty() && !p2.empty() && !q.empty()) {
    c.R1 = read_fixed<9>(r1, "R1", 3, 3, path);
    c.R2 = read_fixed<9>(r2, "R2", 3, 3, path);
    c.P1 = read_fixed<12>(p1, "P1", 3, 4, path);
    c.P2 = read_fixed<12>(p2, "P2", 3, 4, path);
    c.Q = read_fixed<16>(q, "Q", 4, 4, path);
    c.has_rectification = true;
  }
  if (!(c.has_intrinsics && c.has_extrinsics) && !c.has_rectification) {
    std::string found;
    for (const char* key : {"K1", "M1", "D1", "K2", "M2", "D2", "R", "T", "R1", "R2", "P1", "P2", "Q"}) {
      if (!fs[key].empty()) found += std::string(found.empty() ? "" : " ") + key;
    }
    throw InputError("calibration '" + path +
                     "' holds neither K1 D1 K2 D2 R T nor R1 R2 P1 P2 Q (found: " +
                     (found.empty() ? "none of them" : found) + ")");
  }
  return c;
}

StereoCalibration fit_calibration_to_size(const StereoCalibration& calibration, int width,
                                          int height) {
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
