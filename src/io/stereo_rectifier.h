#pragma once

#include <memory>
#include <string>

#include "src/core/image.h"
#include "src/core/remap.h"  // RectificationMaps
#include "src/io/stereo_calibration.h"

namespace sv {

// Rectification of one camera pair at one image size, built once:
//   - with R and T (and K1 D1 K2 D2): stereoRectify with CALIB_ZERO_DISPARITY and `alpha`
//     (0: only valid pixels, 1: every source pixel kept, -1: OpenCV's default), then
//     initUndistortRectifyMap per view (for the fisheye model cv::fisheye's, with `alpha` as its
//     balance, -1 taken as 0);
//   - with R1 R2 P1 P2 Q and K1 D1 K2 D2 but no R T: those transforms as they are (alpha has no
//     effect: the file fixed the rectified views);
//   - with only R1 R2 P1 P2 Q: the input is taken as rectified already, nothing is remapped and Q
//     still gives depth.
// The calibration is first fitted to the image size (fit_calibration_to_size: rescaled when the
// size is a whole multiple, taken as the size when the file gives none and the principal points
// allow it, InputError with the numbers otherwise). A vertical rig (views one above the other)
// is an InputError: the engines match along rows; so is a calibration whose rectified views
// would be blank (less than a tenth of them inside the raw image) or not finite.
//
// `views_swapped`: the source's views were exchanged (--swap-views), so the left view is the one
// named right. Each view is still rectified as the calibration's camera on its side: camera 1
// rectifies the left view, unless the calibration places camera 1 on the right (T x > 0, as
// calibrations made under the same swapped names do); then camera 2 rectifies the left view
// and P1, P2 and Q describe the views in that order.
class StereoRectifier {
 public:
  StereoRectifier(const StereoCalibration& calibration, int width, int height, double alpha = 0.0,
                  bool views_swapped = false);
  ~StereoRectifier();
  StereoRectifier(const StereoRectifier&) = delete;
  StereoRectifier& operator=(const StereoRectifier&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // False when the calibration carries no camera matrices and the input passes through.
  bool remaps() const { return remaps_; }
  const RectificationMaps& maps() const { return maps_; }
  // The rectified cameras (stereoRectify's P1, P2, Q after fitting to the size).
  const Matrix34& P1() const { return P1_; }
  const Matrix34& P2() const { return P2_; }
  const Matrix4& Q() const { return Q_; }
  StereoGeometry geometry() const { return geometry_from_q(Q_); }
  // One line on what was done, for logs: "rectifying 640x480 with calib.yaml (alpha 0)".
  const std::string& summary() const { return summary_; }
  // One line when the calibration gave no image size and the source's was taken; else empty.
  const std::string& size_notice() const { return size_notice_; }

  // Rectifies a pair in place on the CPU: bilinear, black outside the raw image. InputError when
  // the pair is not width x height.
  void rectify(ImageRgb8& left, ImageRgb8& right) const;
  // The same for the 16-bit gray planes of a 16-bit source (StereoPair::left16, right16),
  // bilinear on the 16-bit values, 0 outside (with missing-value 0 the border never matches).
  void rectify(ImageU16& left, ImageU16& right) const;
  // The same for the planes of a float source (StereoPair::leftf, rightf): NaN outside the raw
  // image, and a NaN input pixel makes every rectified pixel it contributes to NaN (missing).
  void rectify(ImageF32& left, ImageF32& right) const;

 private:
  void exchange_rectified_cameras();

  struct CvMaps;
  int width_;
  int height_;
  bool remaps_ = false;
  RectificationMaps maps_;
  std::unique_ptr<CvMaps> cv_maps_;
  Matrix34 P1_{}, P2_{};
  Matrix4 Q_{};
  std::string summary_;
  std::string size_notice_;
};

}  // namespace sv
