#include "src/io/calibration_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/core/error.h"

namespace sv {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string point(double x, double y) { return "(" + number(x) + ", " + number(y) + ")"; }

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string rect_text(const PixelRect& r) {
  return "(x " + std::to_string(r.x) + ", y " + std::to_string(r.y) + ", " +
         size_text(r.width, r.height) + ")";
}

// Pixel centres run from 0 to size - 1; a principal point may sit anywhere over the pixels.
bool inside(double c, int size) { return c >= -0.5 && c <= size - 0.5; }

bool roi_inside(const PixelRect& r, int w, int h) {
  return r.x + r.width <= w && r.y + r.height <= h;
}

// The principal points a calibration gives, named as in its file's model.
struct PrincipalPoint {
  const char* name;
  double x, y;
};

std::string valid_roi_name(int i) { return "ValidRoi" + std::to_string(i); }

std::string baseline_problem(double length, double max_length) {
  if (std::isfinite(length) && length <= max_length) return {};
  const std::string unit =
      max_length == kMaxBaselineMetres ? " m" : " in the file's unit, 100 m in millimetres";
  return "gives a baseline of " + number(length) + ", longer than any camera pair's (at most " +
         number(max_length) + unit + ")";
}

}  // namespace

std::string camera_matrix_problem(const Matrix3& K) {
  if (!(K[0] > 0.0) || !(K[4] > 0.0)) {
    return "has no positive focal length (fx " + number(K[0]) + ", fy " + number(K[4]) + ")";
  }
  if (K[3] != 0.0 || K[6] != 0.0 || K[7] != 0.0 || K[8] != 1.0) {
    return "is not a camera matrix [fx s cx; 0 fy cy; 0 0 1] (its lower rows are " +
           number(K[3]) + " " + number(K[4]) + " " + number(K[5]) + "; " + number(K[6]) + " " +
           number(K[7]) + " " + number(K[8]) + ")";
  }
  return {};
}

std::string rotation_problem(const Matrix3& R) {
  double worst = 0.0;  // the largest entry of R R^T - I
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double dot = 0.0;
      for (int k = 0; k < 3; ++k) dot += R[i * 3 + k] * R[j * 3 + k];
      worst = std::max(worst, std::fabs(dot - (i == j ? 1.0 : 0.0)));
    }
  }
  if (worst > 1e-3) {
    return "is not a rotation: R R^T differs from the identity by " + number(worst) +
           " (a rotation's by less than 0.001)";
  }
  const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                     R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (det < 0.0) return "is a reflection, not a rotation (determinant " + number(det) + ")";
  return {};
}

std::string translation_problem(const std::array<double, 3>& T, double max_length) {
  if (T[0] == 0.0 && T[1] == 0.0 && T[2] == 0.0) {
    return "is zero: the two cameras sit in one place (no baseline)";
  }
  return baseline_problem(std::hypot(T[0], T[1], T[2]), max_length);
}

std::string projection_problem(const Matrix34& P, bool second) {
  if (!(P[0] > 0.0) || !(P[5] > 0.0)) {
    return "has no positive focal length (" + number(P[0]) + ", " + number(P[5]) + ")";
  }
  if (P[4] != 0.0 || P[8] != 0.0 || P[9] != 0.0 || P[10] != 1.0 || P[11] != 0.0) {
    return "is not a rectified projection [f 0 cx tx; 0 f cy ty; 0 0 1 0]";
  }
  if (second && P[3] == 0.0 && P[7] == 0.0) {
    return "puts the second camera onto the first (its last column is zero: no baseline)";
  }
  return second ? baseline_problem(std::hypot(P[3] / P[0], P[7] / P[5]), kMaxBaselineFileUnits)
                : std::string();
}

std::string q_problem(const Matrix4& Q) {
  try {
    const StereoGeometry g = geometry_from_q(Q);
    if (!(g.focal_length_px > 0.0) || !std::isfinite(g.baseline) || !(g.baseline > 0.0)) {
      return "gives focal length " + number(g.focal_length_px) + " px and baseline " +
             number(g.baseline);
    }
    return baseline_problem(g.baseline, kMaxBaselineFileUnits);
  } catch (const InputError&) {
    return "is not a disparity-to-depth matrix of stereoRectify's form "
           "[1 0 0 -cx; 0 1 0 -cy; 0 0 0 f; 0 0 -1/Tx (cx-cx')/Tx]";
  }
  return {};
}

std::string fisheye_distortion_problem(const std::vector<double>& D) {
  if (D.size() != 4) {
    return "must hold the fisheye model's 4 coefficients (k1 k2 k3 k4), got " +
           std::to_string(D.size());
  }
  return {};
}

std::string roi_problem(const PixelRect& roi) {
  if (roi.x < 0 || roi.y < 0 || roi.width <= 0 || roi.height <= 0) {
    return "is not a rectangle in the image " + rect_text(roi);
  }
  return {};
}

void check_stated_image_size(const StereoCalibration& c) {
  const std::string where = "calibration '" + c.path + "' is for " + size_text(c.width, c.height);
  if (c.has_intrinsics) {
    for (const PrincipalPoint& p : {PrincipalPoint{"K1", c.K1[2], c.K1[5]},
                                    PrincipalPoint{"K2", c.K2[2], c.K2[5]}}) {
      if (!inside(p.x, c.width) || !inside(p.y, c.height)) {
        throw InputError(where + " images, but the principal point of " + p.name + ", " +
                         point(p.x, p.y) + ", lies outside them");
      }
    }
  }
  if (c.has_valid_rois) {
    for (int i = 1; i <= 2; ++i) {
      const PixelRect& roi = i == 1 ? c.valid_roi1 : c.valid_roi2;
      if (!roi_inside(roi, c.width, c.height)) {
        throw InputError(where + " images, but " + valid_roi_name(i) + " " + rect_text(roi) +
                         " reaches outside them");
      }
    }
  }
}

void check_assumed_image_size(const StereoCalibration& c, int width, int height) {
  const std::string where = "calibration '" + c.path +
                            "' does not give the image size it was made for, and the source's " +
                            size_text(width, height) + " does not fit it: ";
  const std::string remedy = " (add image_width and image_height to the file)";
  if (c.has_intrinsics) {
    const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
    for (const PrincipalPoint& p : {PrincipalPoint{"K1", c.K1[2], c.K1[5]},
                                    PrincipalPoint{"K2", c.K2[2], c.K2[5]}}) {
      if (std::fabs(p.x - cx) > 0.2 * width || std::fabs(p.y - cy) > 0.2 * height) {
        throw InputError(where + "the principal point of " + p.name + ", " + point(p.x, p.y) +
                         ", lies far from the image centre " + point(cx, cy) +
                         " (more than 20 % of the size)" + remedy);
      }
    }
  }
  if (c.has_rectification) {
    for (const PrincipalPoint& p : {PrincipalPoint{"P1", c.P1[2], c.P1[6]},
                                    PrincipalPoint{"P2", c.P2[2], c.P2[6]}}) {
      if (!inside(p.x, width) || !inside(p.y, height)) {
        throw InputError(where + "the principal point of " + p.name + ", " + point(p.x, p.y) +
                         ", lies outside the image" + remedy);
      }
    }
  }
  if (c.has_valid_rois) {
    for (int i = 1; i <= 2; ++i) {
      const PixelRect& roi = i == 1 ? c.valid_roi1 : c.valid_roi2;
      if (!roi_inside(roi, width, height)) {
        throw InputError(where + valid_roi_name(i) + " " + rect_text(roi) +
                         " reaches outside the image" + remedy);
      }
    }
  }
}

}  // namespace sv
