#include "src/io/stereo_rectifier.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "src/core/error.h"
#include "src/io/mat_image.h"

namespace sv {

struct StereoRectifier::CvMaps {
  cv::Mat left_x, left_y, right_x, right_y;
};

namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

template <size_t N>
cv::Mat to_mat(const std::array<double, N>& values, int rows, int cols) {
  return cv::Mat(rows, cols, CV_64F, const_cast<double*>(values.data())).clone();
}

cv::Mat to_mat(const std::vector<double>& values) {
  return cv::Mat(1, static_cast<int>(values.size()), CV_64F, const_cast<double*>(values.data())).clone();
}

template <size_t N>
std::array<double, N> from_mat(const cv::Mat& m) {
  cv::Mat d;
  m.convertTo(d, CV_64F);
  std::array<double, N> values{};
  for (size_t i = 0; i < N; ++i) values[i] = d.at<double>(static_cast<int>(i / d.cols), static_cast<int>(i % d.cols));
  return values;
}

ImageF32 image_from_map(const cv::Mat& map) {
  ImageF32 image(map.cols, map.rows);
  for (int y = 0; y < map.rows; ++y) {
    const float* src = map.ptr<float>(y);
    std::copy(src, src + map.cols, image.row(y));
  }
  return image;
}

// How much of a rectified view the raw image covers: the share of map entries inside it.
double fraction_inside(const cv::Mat& map_x, const cv::Mat& map_y, int width, int height) {
  size_t inside = 0;
  for (int y = 0; y < map_x.rows; ++y) {
    const float* xs = map_x.ptr<float>(y);
    const float* ys = map_y.ptr<float>(y);
    for (int x = 0; x < map_x.cols; ++x) {
      inside += xs[x] >= 0.0f && xs[x] <= width - 1.0f && ys[x] >= 0.0f && ys[x] <= height - 1.0f;
    }
  }
  return static_cast<double>(inside) / static_cast<double>(map_x.total());
}

std::string alpha_text(double alpha) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", alpha);
  return text;
}

}  // namespace

StereoRectifier::StereoRectifier(const StereoCalibration& calibration, int width, int height,
                                 double alpha, bool views_swapped)
    : width_(width), height_(height), cv_maps_(std::make_unique<CvMaps>()) {
  if (!(alpha == -1.0 || (alpha >= 0.0 && alpha <= 1.0))) {
    throw InputError("rectification alpha must be in 0..1 (or -1 for OpenCV's default), got " +
                     alpha_text(alpha));
  }
  const StereoCalibration c = fit_calibration_to_size(calibration, width, height);
  if (calibration.width == 0) {
    size_notice_ = "calibration '" + c.path +
                   "' does not give the image size it was made for: taking the source's " +
                   size_text(width, height) + ", which its principal points" +
                   (c.has_valid_rois ? " and valid ROIs" : "") + " fit";
  }
  const cv::Size size(width, height);
  cv::Mat R1, R2, P1, P2, Q;
  const bool fisheye = c.distortion_model == DistortionModel::kFisheye;
  if (c.has_intrinsics && c.has_extrinsics) {
    try {
      if (fisheye) {
        // The fisheye model has no alpha; its balance (0: the focal length that keeps only valid
        // pixels, 1: the one that keeps every source pixel) means the same.
        cv::fisheye::stereoRectify(to_mat(c.K1, 3, 3), to_mat(c.D1), to_mat(c.K2, 3, 3),
                                   to_mat(c.D2), size, to_mat(c.R, 3, 3), to_mat(c.T, 3, 1), R1,
                                   R2, P1, P2, Q, cv::CALIB_ZERO_DISPARITY, size,
                                   alpha < 0.0 ? 0.0 : alpha);
      } else {
        cv::stereoRectify(to_mat(c.K1, 3, 3), to_mat(c.D1), to_mat(c.K2, 3, 3), to_mat(c.D2),
                          size, to_mat(c.R, 3, 3), to_mat(c.T, 3, 1), R1, R2, P1, P2, Q,
                          cv::CALIB_ZERO_DISPARITY, alpha, size);
      }
    } catch (const cv::Exception& e) {
      throw InputError("calibration '" + c.path + "' cannot be rectified: " + e.what());
    }
    summary_ = "rectifying " + size_text(width, height) + " with " + c.path +
               (fisheye ? " (fisheye model, balance " + alpha_text(std::max(alpha, 0.0))
                        : " (alpha " + alpha_text(alpha)) +
               ")";
  } else {
    R1 = to_mat(c.R1, 3, 3);
    R2 = to_mat(c.R2, 3, 3);
    P1 = to_mat(c.P1, 3, 4);
    P2 = to_mat(c.P2, 3, 4);
    Q = to_mat(c.Q, 4, 4);
    summary_ = c.has_intrinsics
                   ? "rectifying " + size_text(width, height) + " with the R1 R2 P1 P2 of " + c.path
                   : "input taken as rectified: " + c.path +
                         " has no camera matrices (K1 D1 K2 D2), only Q for depth";
  }
  if (!cv::checkRange(R1) || !cv::checkRange(R2) || !cv::checkRange(P1) || !cv::checkRange(P2) ||
      !cv::checkRange(Q) || !(P1.at<double>(0, 0) > 0.0)) {
    throw InputError("calibration '" + c.path +
                     "' cannot be rectified: stereoRectify gives no finite rectified cameras "
                     "for it");
  }
  P1_ = from_mat<12>(P1);
  P2_ = from_mat<12>(P2);
  Q_ = from_mat<16>(Q);
  if (std::fabs(P2_[7]) > std::fabs(P2_[3])) {
    throw InputError("calibration '" + c.path +
                     "' describes a vertical rig (one camera above the other); stereoview "
                     "matches along rows: rotate the images or the rig by 90 degrees");
  }
  const bool exchange_cameras = views_swapped && P2_[3] > 0.0;
  if (views_swapped) {
    summary_ += exchange_cameras
                    ? "; --swap-views: its camera 1 is the right one (T x > 0), so camera 2 "
                      "rectifies the left view"
                    : "; --swap-views: its camera 1 rectifies the left view (named right)";
  }
  if (exchange_cameras) exchange_rectified_cameras();
  if (!c.has_intrinsics) return;

  remaps_ = true;
  const auto undistort_rectify_map = [&](const Matrix3& K, const std::vector<double>& D,
                                         const cv::Mat& R, const cv::Mat& P, cv::Mat& map_x,
                                         cv::Mat& map_y) {
    if (fisheye) {
      cv::fisheye::initUndistortRectifyMap(to_mat(K, 3, 3), to_mat(D), R, P, size, CV_32FC1,
                                           map_x, map_y);
    } else {
      cv::initUndistortRectifyMap(to_mat(K, 3, 3), to_mat(D), R, P, size, CV_32FC1, map_x, map_y);
    }
  };
  undistort_rectify_map(c.K1, c.D1, R1, P1, cv_maps_->left_x, cv_maps_->left_y);
  undistort_rectify_map(c.K2, c.D2, R2, P2, cv_maps_->right_x, cv_maps_->right_y);
  if (exchange_cameras) {
    std::swap(cv_maps_->left_x, cv_maps_->right_x);
    std::swap(cv_maps_->left_y, cv_maps_->right_y);
  }
  const auto refuse_blank = [&](const char* view, const cv::Mat& map_x, const cv::Mat& map_y) {
    const double seen = fraction_inside(map_x, map_y, width, height);
    if (seen < 0.1) {
      throw InputError("calibration '" + c.path + "' leaves the rectified " + view +
                       " view blank (" + alpha_text(100.0 * seen) + " % of it inside the " +
                       size_text(width, height) + " image): is it this camera's?");
    }
  };
  refuse_blank("left", cv_maps_->left_x, cv_maps_->left_y);
  refuse_blank("right", cv_maps_->right_x, cv_maps_->right_y);
  maps_.left_x = image_from_map(cv_maps_->left_x);
  maps_.left_y = image_from_map(cv_maps_->left_y);
  maps_.right_x = image_from_map(cv_maps_->right_x);
  maps_.right_y = image_from_map(cv_maps_->right_y);
}

void StereoRectifier::exchange_rectified_cameras() {
  // The left view is now camera 2's: it becomes the reference at the origin, camera 1 sits at
  // minus the old offset, and Q follows from the pair (stereoRectify's form).
  Matrix34 left = P2_, right = P1_;
  left[3] = left[7] = 0.0;
  right[3] = -P2_[3];
  right[7] = -P2_[7];
  P1_ = left;
  P2_ = right;
  const double f = P1_[0];
  const double tx = P2_[3] / P2_[0];
  Q_ = Matrix4{1, 0, 0, -P1_[2], 0, 1, 0, -P1_[6], 0, 0, 0, f, 0, 0, -1.0 / tx,
               (P1_[2] - P2_[2]) / tx};
}

StereoRectifier::~StereoRectifier() = default;

void StereoRectifier::rectify(ImageRgb8& left, ImageRgb8& right) const {
  if (!left.same_size(width_, height_) || !right.same_size(width_, height_)) {
    throw InputError("rectification was built for " + size_text(width_, height_) +
                     " but the pair is " + size_text(left.width(), left.height()) + " and " +
                     size_text(right.width(), right.height()));
  }
  if (!remaps_) return;
  const auto remap_view = [](ImageRgb8& view, const cv::Mat& map_x, const cv::Mat& map_y) {
    cv::Mat rectified;
    cv::remap(bgr_mat_from_rgb(view), rectified, map_x, map_y, cv::INTER_LINEAR,
              cv::BORDER_CONSTANT, cv::Scalar::all(0));
    view = rgb_image_from_mat(rectified);
  };
  remap_view(left, cv_maps_->left_x, cv_maps_->left_y);
  remap_view(right, cv_maps_->right_x, cv_maps_->right_y);
}

void StereoRectifier::rectify(ImageU16& left, ImageU16& right) const {
  if (!left.same_size(width_, height_) || !right.same_size(width_, height_)) {
    throw InputError("rectification was built for " + size_text(width_, height_) +
                     " but the 16-bit pair is " + size_text(left.width(), left.height()) +
                     " and " + size_text(right.width(), right.height()));
  }
  if (!remaps_) return;
  const auto remap_plane = [](ImageU16& plane, const cv::Mat& map_x, const cv::Mat& map_y) {
    const cv::Mat raw(plane.height(), plane.width(), CV_16UC1, plane.data());
    cv::Mat rectified;
    cv::remap(raw, rectified, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
              cv::Scalar::all(0));
    ImageU16 out(rectified.cols, rectified.rows);
    for (int y = 0; y < out.height(); ++y) {
      std::memcpy(out.row(y), rectified.ptr<uint16_t>(y), sizeof(uint16_t) * out.width());
    }
    plane = std::move(out);
  };
  remap_plane(left, cv_maps_->left_x, cv_maps_->left_y);
  remap_plane(right, cv_maps_->right_x, cv_maps_->right_y);
}

void StereoRectifier::rectify(ImageF32& left, ImageF32& right) const {
  if (!left.same_size(width_, height_) || !right.same_size(width_, height_)) {
    throw InputError("rectification was built for " + size_text(width_, height_) +
                     " but the float pair is " + size_text(left.width(), left.height()) +
                     " and " + size_text(right.width(), right.height()));
  }
  if (!remaps_) return;
  const auto remap_plane = [](ImageF32& plane, const cv::Mat& map_x, const cv::Mat& map_y) {
    const cv::Mat raw(plane.height(), plane.width(), CV_32FC1, plane.data());
    cv::Mat rectified;
    cv::remap(raw, rectified, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
              cv::Scalar::all(std::numeric_limits<double>::quiet_NaN()));
    ImageF32 out(rectified.cols, rectified.rows);
    for (int y = 0; y < out.height(); ++y) {
      std::memcpy(out.row(y), rectified.ptr<float>(y), sizeof(float) * out.width());
    }
    plane = std::move(out);
  };
  remap_plane(left, cv_maps_->left_x, cv_maps_->left_y);
  remap_plane(right, cv_maps_->right_x, cv_maps_->right_y);
}

}  // namespace sv
