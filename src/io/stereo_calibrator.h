#pragma once

#include <functional>
#include <string>
#include <vector>

#include "src/core/image.h"
#include "src/io/calibration_board.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// The camera model to fit: OpenCV's pinhole with 5 distortion terms (k1 k2 p1 p2 k3), 8 (the
// rational model, + k4 k5 k6: wide lenses), or the fisheye model (k1..k4, equidistant) of
// wide-angle stereo webcams.
enum class LensModel { Pinhole5, Pinhole8, Fisheye };
LensModel parse_lens_model(const std::string& name, int distortion_terms);  // InputError
std::string lens_model_name(LensModel model);

struct CalibrationSettings {
  BoardSpec board;
  LensModel model = LensModel::Pinhole5;
  // A view whose board edges are wider than this (px, board_edge_width) is too blurred to use.
  double max_edge_width_px = 5.0;
  // A view whose reprojection error is this many times the median (and over 1 px) is an outlier.
  double outlier_factor = 3.0;
  int minimum_views = 5;
};

// One stereo view as the calibration uses it: the corners both cameras saw, paired by id.
struct StereoView {
  std::string name;  // the file names or "frame 120", for the report
  BoardCorners left, right;
};

// What became of one offered view: kept, or rejected with the reason.
struct ViewCheck {
  bool usable = false;
  std::string reason;  // why not, e.g. "board not found in the right view"
  StereoView view;     // the corners found (also those of a rejected view, for display)
};

struct RejectedView {
  std::string name;
  std::string reason;
};

struct ViewError {
  std::string name;
  double rms_px = 0.0;  // over the corners of both views
};

// Everything the report says about a calibration.
struct CalibrationReport {
  std::string board;
  std::string model;
  int width = 0, height = 0;
  int views_used = 0;
  double rms_px = 0.0;  // over every corner of every used view, both cameras
  std::vector<ViewError> per_view;
  // The corners rectified with the result: how far apart (vertically) the two views' images of
  // one corner lie. Zero for a perfect calibration.
  double epipolar_mean_px = 0.0;
  double epipolar_max_px = 0.0;
  double baseline = 0.0;            // |T|, in the units of the square
  double rectified_focal_px = 0.0;  // P1's focal length
  double fx1 = 0, fy1 = 0, fx2 = 0, fy2 = 0;
  double coverage_left = 0.0;  // the fraction of each image the boards' corners covered
  double coverage_right = 0.0;
  bool camera1_on_right = false;  // T x > 0: the views named left come from the right camera
  std::vector<RejectedView> rejected;
};

// The text of the report, as printed and written beside the calibration.
std::string format_calibration_report(const CalibrationReport& report);

struct CalibrationResult {
  StereoCalibration calibration;  // K1 D1 K2 D2 R T, R1 R2 P1 P2 Q (alpha 0), ROIs, the size
  CalibrationReport report;
};

// Where the calibration stands: a fraction 0..1 and the stage ("left camera", ...).
using CalibrationProgress = std::function<void(double fraction, const std::string& stage)>;

// Collects stereo views of a board and calibrates the pair from them.
class StereoCalibrator {
 public:
  explicit StereoCalibrator(CalibrationSettings settings);

  const CalibrationSettings& settings() const { return settings_; }

  // Finds the board in both views and judges the pair (board in both, enough common corners,
  // sharp); keeps nothing. InputError when the two views differ in size.
  ViewCheck check_view(const ImageU8& left, const ImageU8& right, const std::string& name) const;
  // Keeps a usable view, or records a rejected one with its reason. InputError when the size
  // differs from that of the views before: a calibration holds for one image size.
  void add(const ViewCheck& check, int width, int height);
  // check_view then add.
  ViewCheck add_view(const ImageU8& left, const ImageU8& right, const std::string& name);

  int view_count() const { return static_cast<int>(views_.size()); }
  const std::vector<StereoView>& views() const { return views_; }
  const std::vector<RejectedView>& rejected() const { return rejected_; }
  int width() const { return width_; }
  int height() const { return height_; }

  // Per camera, the fraction of the image covered by the kept views' boards (the union of the
  // corners' convex hulls).
  double coverage(bool left_camera) const;

  // Calibrates each camera, then the pair; drops outlier views once and calibrates again;
  // rectifies (stereoRectify, alpha 0) and measures the result. InputError when fewer than
  // settings().minimum_views views are usable (naming how many were offered and why they were
  // rejected), when the fit fails, or when its rectification is degenerate (a distortion that
  // bends away outside the corners seen: the message gives the coverage). Safe to call from a
  // worker thread while no view is added.
  CalibrationResult calibrate(const CalibrationProgress& progress = {}) const;

 private:
  // InputError when the rectified focal length is not a sane fraction of the fitted one.
  void refuse_degenerate_rectification(double rectified_focal_px, double fitted_focal_px,
                                       const std::vector<StereoView>& used) const;

  CalibrationSettings settings_;
  std::vector<StereoView> views_;
  std::vector<RejectedView> rejected_;
  int width_ = 0, height_ = 0;
};

}  // namespace sv
