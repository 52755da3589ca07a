#include "src/io/ros_camera_info_reader.h"

#include "src/core/error.h"
#include "src/io/calibration_checks.h"
#include "src/io/camera_pair.h"

namespace sv {
namespace {

struct CameraInfo {
  CameraIntrinsics intrinsics;
  Matrix3 rectification{};
  Matrix34 projection{};
};

template <size_t N>
std::array<double, N> to_array(const std::vector<double>& values) {
  std::array<double, N> a{};
  std::copy(values.begin(), values.end(), a.begin());
  return a;
}

int image_side(const CalibrationYaml& file, const char* key) {
  const double v = file.numbers(file.root(), "", key, 1)[0];
  if (!(v >= 1.0 && v <= 65536.0) || v != static_cast<int>(v)) {
    throw InputError(file.entry("", key) + " must be a whole number of pixels (1..65536)");
  }
  return static_cast<int>(v);
}

CameraInfo read_camera_info(CalibrationYaml& file) {
  file.set_format("ROS camera_info");
  const cv::FileNode root = file.root();
  CameraInfo info;
  info.intrinsics.width = image_side(file, "image_width");
  info.intrinsics.height = image_side(file, "image_height");
  info.intrinsics.K = to_array<9>(file.numbers(root, "", "camera_matrix", 9));
  const std::string model = file.text(root, "", "distortion_model");
  if (model == "equidistant" || model == "fisheye") {
    info.intrinsics.model = DistortionModel::kFisheye;
    info.intrinsics.D = file.numbers(root, "", "distortion_coefficients", 4);
  } else if (model == "plumb_bob" || model == "rational_polynomial") {
    info.intrinsics.D = file.numbers(root, "", "distortion_coefficients", {4, 5, 8, 12, 14});
  } else {
    throw InputError(file.entry("", "distortion_model") + " is '" + model +
                     "': stereoview reads plumb_bob, rational_polynomial and equidistant");
  }
  info.rectification = to_array<9>(file.numbers(root, "", "rectification_matrix", 9));
  info.projection = to_array<12>(file.numbers(root, "", "projection_matrix", 12));
  return info;
}

void refuse_if(const std::string& problem, const CalibrationYaml& file, const char* key) {
  if (!problem.empty()) throw InputError(file.entry("", key) + " " + problem);
}

Matrix3 transpose(const Matrix3& m) {
  return Matrix3{m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]};
}

}  // namespace

bool is_ros_camera_info(const CalibrationYaml& file) {
  return file.has("camera_name") || file.has("projection_matrix") ||
         file.has("rectification_matrix") ||
         (file.has("camera_matrix") && file.has("distortion_model"));
}

StereoCalibration read_ros_camera_info_pair(CalibrationYaml& left_file, CalibrationYaml& right_file) {
  const CameraInfo left = read_camera_info(left_file);
  const CameraInfo right = read_camera_info(right_file);
  refuse_if(rotation_problem(left.rectification), left_file, "rectification_matrix");
  refuse_if(rotation_problem(right.rectification), right_file, "rectification_matrix");
  refuse_if(projection_problem(left.projection, false), left_file, "projection_matrix");
  const Matrix34& P2 = right.projection;
  if (left.projection[3] != 0.0 && P2[3] == 0.0) {
    throw InputError("calibration '" + left_file.path() + "' (ROS camera_info) is the right "
                     "camera's (its projection_matrix has Tx " + std::to_string(left.projection[3]) +
                     "): list the left camera's file first, --calib LEFT,RIGHT");
  }
  refuse_if(projection_problem(P2, true), right_file, "projection_matrix");

  // Rectified camera 2 sits at (Tx/fx', Ty/fy', 0) in rectified camera 1's frame.
  const Matrix3 R2t = transpose(right.rectification);
  const Matrix3 R1 = left.rectification;
  Matrix3 R{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      for (int k = 0; k < 3; ++k) R[r * 3 + c] += R2t[r * 3 + k] * R1[k * 3 + c];
    }
  }
  const std::array<double, 3> offset{P2[3] / P2[0], P2[7] / P2[5], 0.0};
  std::array<double, 3> T{};
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) T[r] += R2t[r * 3 + k] * offset[k];
  }
  StereoCalibration c = calibration_from_cameras(
      left_file.path() + " + " + right_file.path(), left.intrinsics, right.intrinsics,
      rigid_transform(R, T), "the rectification and projection matrices");
  c.R1 = left.rectification;
  c.R2 = right.rectification;
  c.P1 = left.projection;
  c.P2 = P2;
  const double tx = P2[3] / P2[0];
  c.Q = Matrix4{1, 0, 0, -c.P1[2], 0, 1, 0, -c.P1[6], 0, 0, 0, c.P1[0], 0, 0, -1.0 / tx,
                (c.P1[2] - P2[2]) / tx};
  c.has_rectification = tx != 0.0;
  return c;
}

}  // namespace sv
