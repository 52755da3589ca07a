#pragma once

#include <array>
#include <string>
#include <vector>

#include "src/io/stereo_calibration.h"

namespace sv {

// One camera as the other formats describe it: pinhole intrinsics, distortion, image size.
struct CameraIntrinsics {
  Matrix3 K{};
  std::vector<double> D;
  DistortionModel model = DistortionModel::kPinhole;
  int width = 0;  // 0 x 0 when the file does not say
  int height = 0;
};

// A rigid transform as a 4x4 row-major matrix [R t; 0 0 0 1].
using RigidTransform = Matrix4;

// [fx 0 cx; 0 fy cy; 0 0 1].
Matrix3 camera_matrix(double fx, double fy, double cx, double cy);
RigidTransform rigid_transform(const Matrix3& R, const std::array<double, 3>& t);
RigidTransform inverse(const RigidTransform& a);
RigidTransform operator*(const RigidTransform& a, const RigidTransform& b);

// The calibration of a pair whose second camera sees X2 = R X1 + T (`camera2_from_camera1`).
// InputError naming `path` and `what` ("cam1's T_cn_cnm1") when the cameras' image sizes or
// models differ, or a value is one no camera pair has (calibration_checks.h).
StereoCalibration calibration_from_cameras(const std::string& path, const CameraIntrinsics& left,
                                           const CameraIntrinsics& right,
                                           const RigidTransform& camera2_from_camera1,
                                           const std::string& transform_name);

}  // namespace sv
