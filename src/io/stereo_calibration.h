#pragma once

#include <array>
#include <string>
#include <optional>
#include <vector>

#include "src/core/length_unit.h"

namespace sv {

using Matrix3 = std::array<double, 9>;    // row-major 3x3
using Matrix34 = std::array<double, 12>;  // row-major 3x4
using Matrix4 = std::array<double, 16>;   // row-major 4x4

// A rectangle of pixels (stereoRectify's validPixROI).
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// How the lenses bend rays: OpenCV's pinhole model (radial-tangential, rational, thin prism,
// tilted: 4 to 14 coefficients) or its fisheye model (equidistant, k1 k2 k3 k4), one for both.
enum class DistortionModel { kPinhole, kFisheye };

// A stereo calibration in OpenCV's model (the names stereoCalibrate and stereoRectify use).
// Camera 2 coordinates are X2 = R X1 + T; distortion coefficients are OpenCV's
// (k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4 [tx ty]]]]).
struct StereoCalibration {
  std::string path;     // the file(s) it came from, for messages ("a.yml + b.yml")
  int width = 0;        // the image size it was made for; 0 x 0 when the files do not say
  int height = 0;

  bool has_intrinsics = false;  // K1 D1 K2 D2
  Matrix3 K1{}, K2{};
  std::vector<double> D1, D2;
  DistortionModel distortion_model = DistortionModel::kPinhole;

  bool has_extrinsics = false;  // R T
  Matrix3 R{};
  std::array<double, 3> T{};
  // The unit of T (and of P2's and Q's translation): the file's translation_unit, metres for the
  // formats that define it (ROS, Kalibr, ASL, ZED); nullopt when nothing says.
  std::optional<LengthUnit> translation_unit;

  bool has_rectification = false;  // R1 R2 P1 P2 Q, as stereoRectify returns them
  Matrix3 R1{}, R2{};
  Matrix34 P1{}, P2{};
  Matrix4 Q{};

  bool has_valid_rois = false;  // ValidRoi1 ValidRoi2: stereoRectify's valid pixels, x y w h
  PixelRect valid_roi1, valid_roi2;

  // A file that holds one calibration per image size (the ZED's .conf): each of them, whose
  // path names its sections; fit_calibration_to_size takes the one for the source's size.
  std::vector<StereoCalibration> per_size;
};

// Reads a calibration from OpenCV FileStorage files (YAML, XML or JSON, by content): `spec` is
// one file, files separated by commas read as one, or a folder (calibration_files.h). Together
// they hold either
//   K1 D1 K2 D2 R T (also spelled M1/M2, cameraMatrix1/2, distCoeffs1/2), or
//   R1 R2 P1 P2 Q (with K1 D1 K2 D2 when the input still needs undistorting),
// optionally distortion_model (fisheye or equidistant: OpenCV's fisheye model with 4 terms),
// optionally translation_unit (mm, cm or m: the unit of T, which stereoview calibrate writes),
// optionally ValidRoi1 ValidRoi2, and optionally the image size as image_width + image_height,
// or image_size / imageSize as [w, h] (without it, the size is the source's: see
// fit_calibration_to_size). An entry in two files must have the same value in both.
// InputError naming the file and the entry: missing, unreadable, not FileStorage, a matrix of
// the wrong shape, a value that is not finite, values no camera pair has (calibration_checks.h),
// principal points outside a stated image size, or neither set complete (the message lists the
// keys found). The other formats stereo cameras ship (ROS camera_info pairs, Kalibr camchains,
// ASL sensor.yaml pairs, ZED .conf files) are told apart by content and converted to this model
// (camera_pair_formats.h).
StereoCalibration load_stereo_calibration(const std::string& spec);

// The calibration for images of width x height. One with calibrations per size takes the one made
// for width x height, else the first that fits by the rules below. The same size returns it unchanged; a whole
// multiple or whole fraction of its size, the same factor on both axes (1280x720 -> 640x360 or
// 2560x1440), rescales every pixel-unit value (focal lengths, principal points, P, Q, ROIs),
// keeping pixel centres aligned; anything else is an InputError that gives both sizes. A
// calibration without a size is taken to be for width x height when its principal points and
// ROIs allow it (check_assumed_image_size), and refused with the numbers when they do not.
StereoCalibration fit_calibration_to_size(const StereoCalibration& calibration, int width,
                                          int height);

// What Q says about depth, in the units of T: Z = Q[11] / (Q[14] d + Q[15]) for a disparity d,
// i.e. focal_length_px * baseline / (d - disparity_offset_px).
struct StereoGeometry {
  double focal_length_px = 0.0;
  double baseline = 0.0;             // |Tx|: the distance between the rectified camera centres
  double principal_x = 0.0;          // left camera, rectified
  double principal_y = 0.0;
  double disparity_offset_px = 0.0;  // cx1 - cx2: zero when stereoRectify ran with ZERO_DISPARITY
  double depth(double disparity_px) const {
    return focal_length_px * baseline / (disparity_px - disparity_offset_px);
  }
};

// Reads a Q of stereoRectify's form (any overall scale). InputError when it is not one.
StereoGeometry geometry_from_q(const Matrix4& Q);

}  // namespace sv
