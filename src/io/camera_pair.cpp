#include "src/io/camera_pair.h"

#include "src/core/error.h"
#include "src/io/calibration_checks.h"

namespace sv {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

void refuse_if(const std::string& problem, const std::string& where) {
  if (!problem.empty()) throw InputError(where + " " + problem);
}

}  // namespace

Matrix3 camera_matrix(double fx, double fy, double cx, double cy) {
  return Matrix3{fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0};
}

RigidTransform rigid_transform(const Matrix3& R, const std::array<double, 3>& t) {
  return RigidTransform{R[0], R[1], R[2], t[0], R[3], R[4], R[5], t[1],
                        R[6], R[7], R[8], t[2], 0.0,  0.0,  0.0,  1.0};
}

RigidTransform inverse(const RigidTransform& a) {
  // [R t]^-1 = [R^T, -R^T t]
  RigidTransform b{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) b[r * 4 + c] = a[c * 4 + r];
    b[r * 4 + 3] = -(a[0 * 4 + r] * a[3] + a[1 * 4 + r] * a[7] + a[2 * 4 + r] * a[11]);
  }
  b[15] = 1.0;
  return b;
}

RigidTransform operator*(const RigidTransform& a, const RigidTransform& b) {
  RigidTransform p{};
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      for (int k = 0; k < 4; ++k) p[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
    }
  }
  return p;
}

StereoCalibration calibration_from_cameras(const std::string& path, const CameraIntrinsics& left,
                                           const CameraIntrinsics& right,
                                           const RigidTransform& camera2_from_camera1,
                                           const std::string& transform_name) {
  const std::string where = "calibration '" + path + "':";
  if (left.width != right.width || left.height != right.height) {
    throw InputError(where + " its cameras are for images of different sizes, " +
                     size_text(left.width, left.height) + " and " +
                     size_text(right.width, right.height) + ": stereoview needs one size");
  }
  if (left.model != right.model) {
    throw InputError(where + " one camera has the fisheye (equidistant) model and the other "
                     "not: stereoview rectifies a pair with one model");
  }
  StereoCalibration c;
  c.path = path;
  c.width = left.width;
  c.height = left.height;
  c.K1 = left.K;
  c.K2 = right.K;
  c.D1 = left.D;
  c.D2 = right.D;
  c.distortion_model = left.model;
  refuse_if(camera_matrix_problem(c.K1), where + " the left camera's intrinsics");
  refuse_if(camera_matrix_problem(c.K2), where + " the right camera's intrinsics");
  if (c.distortion_model == DistortionModel::kFisheye) {
    refuse_if(fisheye_distortion_problem(c.D1), where + " the left camera's distortion");
    refuse_if(fisheye_distortion_problem(c.D2), where + " the right camera's distortion");
  }
  c.has_intrinsics = true;
  const RigidTransform& m = camera2_from_camera1;
  c.R = Matrix3{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
  c.T = {m[3], m[7], m[11]};
  refuse_if(rotation_problem(c.R), where + " the rotation of " + transform_name);
  refuse_if(translation_problem(c.T, kMaxBaselineMetres),
            where + " the translation of " + transform_name);
  c.has_extrinsics = true;
  if (c.width > 0) check_stated_image_size(c);
  return c;
}

}  // namespace sv
