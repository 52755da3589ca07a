#pragma once

#include <string>
#include <vector>

#include "src/io/stereo_calibration.h"

namespace sv {

// What no real camera pair can have. Each returns what is wrong with the values, or an empty
// string when nothing is; the loader names the file and the entry in front of it.

// A camera matrix [fx s cx; 0 fy cy; 0 0 1] with positive focal lengths.
std::string camera_matrix_problem(const Matrix3& K);
// A rotation: R R^T = I (within 1e-3, what a matrix printed with 6 digits still meets), det +1.
std::string rotation_problem(const Matrix3& R);
// The longest baseline a calibration may give. Stereo rigs span millimetres to a few metres;
// past 100 m a value is a unit mistake or garbage (1e300 was read as a working calibration).
// The formats that state their unit (Kalibr, ASL and ROS in metres, ZED in millimetres, read
// as metres) are held to 100 m; an OpenCV file has the unit its board was measured in (mm or
// m, mostly), so there the bound is 1e5 of its units, 100 m in millimetres.
constexpr double kMaxBaselineMetres = 100.0;
constexpr double kMaxBaselineFileUnits = 1e5;

// A translation that separates the cameras, by at most `max_length` (one of the bounds above).
std::string translation_problem(const std::array<double, 3>& T, double max_length);
// A rectified projection [f 0 cx tx; 0 f cy ty; 0 0 1 0] with a positive focal length; the
// second camera's (`second`) must be away from the first (tx or ty not 0), by at most
// kMaxBaselineFileUnits (tx = f B).
std::string projection_problem(const Matrix34& P, bool second);
// stereoRectify's disparity-to-depth matrix (geometry_from_q reads it), with a baseline of at
// most kMaxBaselineFileUnits.
std::string q_problem(const Matrix4& Q);
// Fisheye (equidistant) distortion: exactly k1 k2 k3 k4.
std::string fisheye_distortion_problem(const std::vector<double>& D);
// A valid-pixel rectangle of positive size at non-negative coordinates.
std::string roi_problem(const PixelRect& roi);

// Checks a calibration against the image size it states (width, height): the principal points
// of K1 K2 lie inside the image and the valid ROIs fit in it. InputError with the numbers.
void check_stated_image_size(const StereoCalibration& calibration);

// For a calibration that does not state its image size: whether width x height can be the size
// it was made for. The camera matrices' principal points must lie near the centre (within 20 %
// of the size: at twice or half the calibrated size they lie about 25 % off), the rectified
// cameras' (P1 P2) inside the image and the valid ROIs in it. InputError with the numbers.
void check_assumed_image_size(const StereoCalibration& calibration, int width, int height);

}  // namespace sv
