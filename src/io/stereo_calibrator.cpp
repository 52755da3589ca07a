#include "src/io/stereo_calibrator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "src/core/error.h"

namespace sv {
namespace {

constexpr int kMinimumCommonCorners = 6;

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// The corners both views saw, as object points and the two image point lists.
struct ViewPoints {
  std::vector<cv::Point3f> object;
  std::vector<cv::Point2f> left, right;
};

ViewPoints common_points(const BoardSpec& board, const StereoView& view) {
  std::map<int, cv::Point2f> right_by_id;
  for (size_t i = 0; i < view.right.ids.size(); ++i) {
    right_by_id[view.right.ids[i]] = {view.right.points[i].x, view.right.points[i].y};
  }
  ViewPoints points;
  for (size_t i = 0; i < view.left.ids.size(); ++i) {
    const auto match = right_by_id.find(view.left.ids[i]);
    if (match == right_by_id.end()) continue;
    double x = 0, y = 0;
    board_corner_position(board, view.left.ids[i], x, y);
    points.object.emplace_back(static_cast<float>(x), static_cast<float>(y), 0.0f);
    points.left.emplace_back(view.left.points[i].x, view.left.points[i].y);
    points.right.push_back(match->second);
  }
  return points;
}

template <size_t N>
std::array<double, N> array_from(const cv::Mat& m) {
  cv::Mat d;
  m.convertTo(d, CV_64F);
  std::array<double, N> values{};
  for (size_t i = 0; i < N; ++i) values[i] = d.at<double>(static_cast<int>(i / d.cols), static_cast<int>(i % d.cols));
  return values;
}

std::vector<double> vector_from(const cv::Mat& m) {
  cv::Mat d;
  m.convertTo(d, CV_64F);
  return std::vector<double>(d.begin<double>(), d.end<double>());
}

// The fitted pair, in OpenCV's matrices.
struct Fit {
  cv::Mat K1, D1, K2, D2, R, T;
};

// Projects board points seen from pose (rvec, tvec) through a camera of the model.
std::vector<cv::Point2f> project(const std::vector<cv::Point3f>& object, const cv::Mat& rvec,
                                 const cv::Mat& tvec, const cv::Mat& K, const cv::Mat& D,
                                 bool fisheye) {
  std::vector<cv::Point2f> image;
  if (fisheye) {
    cv::fisheye::projectPoints(object, image, rvec, tvec, K, D);
  } else {
    cv::projectPoints(object, rvec, tvec, K, D, image);
  }
  return image;
}

// The board's pose in camera 1, from camera 1's corners.
void board_pose(const ViewPoints& points, const Fit& fit, bool fisheye, cv::Mat& rvec,
                cv::Mat& tvec) {
  if (fisheye) {
    std::vector<cv::Point2f> normalized;
    cv::fisheye::undistortPoints(points.left, normalized, fit.K1, fit.D1);
    cv::solvePnP(points.object, normalized, cv::Mat::eye(3, 3, CV_64F), cv::Mat(), rvec, tvec);
  } else {
    cv::solvePnP(points.object, points.left, fit.K1, fit.D1, rvec, tvec);
  }
}

// The reprojection error of one view in px (RMS over the corners of both cameras): the board
// posed from camera 1's corners, seen by camera 2 through R and T.
double view_error(const ViewPoints& points, const Fit& fit, bool fisheye, double& squared_sum) {
  cv::Mat rvec, tvec;
  board_pose(points, fit, fisheye, rvec, tvec);
  cv::Mat board_rotation;
  cv::Rodrigues(rvec, board_rotation);
  cv::Mat rvec2;
  cv::Rodrigues(fit.R * board_rotation, rvec2);
  const cv::Mat tvec2 = fit.R * tvec + fit.T;
  const auto left = project(points.object, rvec, tvec, fit.K1, fit.D1, fisheye);
  const auto right = project(points.object, rvec2, tvec2, fit.K2, fit.D2, fisheye);
  double sum = 0.0;
  for (size_t i = 0; i < left.size(); ++i) {
    const cv::Point2f dl = left[i] - points.left[i], dr = right[i] - points.right[i];
    sum += dl.dot(dl) + dr.dot(dr);
  }
  squared_sum += sum;
  return std::sqrt(sum / (2.0 * static_cast<double>(left.size())));
}

Fit fit_pair(const std::vector<ViewPoints>& views, const cv::Size& size, LensModel model,
             const CalibrationProgress& progress, double progress_from, double progress_to) {
  std::vector<std::vector<cv::Point3f>> object;
  std::vector<std::vector<cv::Point2f>> left, right;
  for (const ViewPoints& v : views) {
    object.push_back(v.object);
    left.push_back(v.left);
    right.push_back(v.right);
  }
  const auto report = [&](double part, const std::string& stage) {
    if (progress) progress(progress_from + (progress_to - progress_from) * part, stage);
  };
  const cv::TermCriteria criteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-6);
  Fit fit;
  std::vector<cv::Mat> rvecs, tvecs;
  if (model == LensModel::Fisheye) {
    const int flags = cv::fisheye::CALIB_RECOMPUTE_EXTRINSIC | cv::fisheye::CALIB_FIX_SKEW;
    std::vector<cv::Vec3d> fisheye_rvecs, fisheye_tvecs;  // its only accepted type
    report(0.0, "left camera");
    cv::fisheye::calibrate(object, left, size, fit.K1, fit.D1, fisheye_rvecs, fisheye_tvecs, flags,
                           criteria);
    report(0.35, "right camera");
    cv::fisheye::calibrate(object, right, size, fit.K2, fit.D2, fisheye_rvecs, fisheye_tvecs,
                           flags, criteria);
    report(0.7, "the pair");
    cv::fisheye::stereoCalibrate(object, left, right, fit.K1, fit.D1, fit.K2, fit.D2, size, fit.R,
                                 fit.T,
                                 cv::fisheye::CALIB_USE_INTRINSIC_GUESS |
                                     cv::fisheye::CALIB_RECOMPUTE_EXTRINSIC |
                                     cv::fisheye::CALIB_FIX_SKEW,
                                 criteria);
  } else {
    const int flags = model == LensModel::Pinhole8 ? cv::CALIB_RATIONAL_MODEL : 0;
    report(0.0, "left camera");
    cv::calibrateCamera(object, left, size, fit.K1, fit.D1, rvecs, tvecs, flags, criteria);
    report(0.35, "right camera");
    cv::calibrateCamera(object, right, size, fit.K2, fit.D2, rvecs, tvecs, flags, criteria);
    report(0.7, "the pair");
    cv::Mat E, F;
    cv::stereoCalibrate(object, left, right, fit.K1, fit.D1, fit.K2, fit.D2, size, fit.R, fit.T,
                        E, F, flags | cv::CALIB_USE_INTRINSIC_GUESS, criteria);
  }
  fit.R.convertTo(fit.R, CV_64F);
  fit.T = fit.T.reshape(1, 3);
  fit.T.convertTo(fit.T, CV_64F);
  report(1.0, "the pair");
  return fit;
}

// The union of the boards' convex hulls over the image, as a fraction of it (on a 1/4 grid).
double covered_fraction(const std::vector<StereoView>& views, bool left_camera, int width,
                        int height) {
  if (width <= 0 || height <= 0) return 0.0;
  constexpr double kScale = 0.25;
  cv::Mat mask = cv::Mat::zeros(std::max(1, static_cast<int>(height * kScale)),
                                std::max(1, static_cast<int>(width * kScale)), CV_8UC1);
  for (const StereoView& view : views) {
    const BoardCorners& corners = left_camera ? view.left : view.right;
    std::vector<cv::Point> points;
    for (const CornerPoint& p : corners.points) {
      points.emplace_back(static_cast<int>(std::lround(p.x * kScale)),
                          static_cast<int>(std::lround(p.y * kScale)));
    }
    if (points.size() < 3) continue;
    std::vector<cv::Point> hull;
    cv::convexHull(points, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  }
  return static_cast<double>(cv::countNonZero(mask)) / static_cast<double>(mask.total());
}

void rectify_points(const std::vector<cv::Point2f>& raw, std::vector<cv::Point2f>& rectified,
                    const cv::Mat& K, const cv::Mat& D, const cv::Mat& R, const cv::Mat& P,
                    bool fisheye) {
  if (fisheye) {
    cv::fisheye::undistortPoints(raw, rectified, K, D, R, P);
  } else {
    cv::undistortPoints(raw, rectified, K, D, R, P);
  }
}

}  // namespace

LensModel parse_lens_model(const std::string& name, int distortion_terms) {
  if (name == "fisheye") {
    if (distortion_terms != 0 && distortion_terms != 4) {
      throw InputError("--model fisheye has 4 distortion terms (k1..k4), not " +
                       std::to_string(distortion_terms));
    }
    return LensModel::Fisheye;
  }
  if (name != "pinhole") throw InputError("--model must be pinhole or fisheye, got '" + name + "'");
  if (distortion_terms == 0 || distortion_terms == 5) return LensModel::Pinhole5;
  if (distortion_terms == 8) return LensModel::Pinhole8;
  throw InputError("--distortion-terms must be 5 or 8 for the pinhole model, got " +
                   std::to_string(distortion_terms));
}

std::string lens_model_name(LensModel model) {
  switch (model) {
    case LensModel::Pinhole5: return "pinhole, 5 distortion terms";
    case LensModel::Pinhole8: return "pinhole, 8 distortion terms (rational)";
    case LensModel::Fisheye: return "fisheye (k1..k4)";
  }
  return "";
}

StereoCalibrator::StereoCalibrator(CalibrationSettings settings) : settings_(std::move(settings)) {}

ViewCheck StereoCalibrator::check_view(const ImageU8& left, const ImageU8& right,
                                       const std::string& name) const {
  if (!left.same_size(right)) {
    throw InputError(name + ": the left view is " + size_text(left.width(), left.height()) +
                     " but the right view is " + size_text(right.width(), right.height()));
  }
  ViewCheck check;
  check.view.name = name;
  check.view.left = detect_board(settings_.board, left);
  check.view.right = detect_board(settings_.board, right);
  const bool in_left = check.view.left.found(), in_right = check.view.right.found();
  if (!in_left || !in_right) {
    check.reason = !in_left && !in_right ? "board not found in either view"
                   : !in_left            ? "board not found in the left view"
                                         : "board not found in the right view";
    return check;
  }
  const size_t common = common_points(settings_.board, check.view).object.size();
  if (static_cast<int>(common) < kMinimumCommonCorners) {
    check.reason = "only " + std::to_string(common) + " corners seen by both views";
    return check;
  }
  const double left_edge = board_edge_width(settings_.board, left, check.view.left);
  const double right_edge = board_edge_width(settings_.board, right, check.view.right);
  const double edge = std::max(left_edge, right_edge);
  if (edge > settings_.max_edge_width_px) {
    check.reason = std::string("blurred (") + (left_edge > right_edge ? "left" : "right") +
                   " view: edges " + fixed(edge, 1) + " px wide, at most " +
                   fixed(settings_.max_edge_width_px, 1) + ")";
    return check;
  }
  check.usable = true;
  return check;
}

void StereoCalibrator::add(const ViewCheck& check, int width, int height) {
  if (width_ == 0) {
    width_ = width;
    height_ = height;
  } else if (width != width_ || height != height_) {
    throw InputError(check.view.name + " is " + size_text(width, height) +
                     " but the views before it are " + size_text(width_, height_) +
                     ": a calibration holds for one image size");
  }
  if (check.usable) {
    views_.push_back(check.view);
  } else {
    rejected_.push_back({check.view.name, check.reason});
  }
}

ViewCheck StereoCalibrator::add_view(const ImageU8& left, const ImageU8& right,
                                     const std::string& name) {
  ViewCheck check = check_view(left, right, name);
  add(check, left.width(), left.height());
  return check;
}

double StereoCalibrator::coverage(bool left_camera) const {
  return covered_fraction(views_, left_camera, width_, height_);
}

CalibrationResult StereoCalibrator::calibrate(const CalibrationProgress& progress) const {
  const int offered = static_cast<int>(views_.size() + rejected_.size());
  if (static_cast<int>(views_.size()) < settings_.minimum_views) {
    std::string message = std::to_string(views_.size()) + " usable view" +
                          (views_.size() == 1 ? "" : "s") + " of " + std::to_string(offered) +
                          " (" + settings_.board.describe() + "): a calibration needs at least " +
                          std::to_string(settings_.minimum_views);
    std::map<std::string, int> reasons;
    for (const RejectedView& r : rejected_) {
      const std::string key = r.reason.rfind("blurred", 0) == 0 ? "blurred" : r.reason;
      ++reasons[key];
    }
    for (const auto& [reason, count] : reasons) message += "; " + reason + ": " + std::to_string(count);
    if (views_.empty() && !rejected_.empty()) {
      const BoardSpec& b = settings_.board;
      message += b.kind == BoardSpec::Kind::Chessboard
                     ? " (is the board " + std::to_string(b.cols) + "x" + std::to_string(b.rows) +
                           " inner corners? a board of 10x7 squares has 9x6)"
                     : " (is the board " + std::to_string(b.cols) + "x" + std::to_string(b.rows) +
                           " squares with DICT_" + b.dictionary + " markers?)";
    }
    throw InputError(message);
  }
  const bool fisheye = settings_.model == LensModel::Fisheye;
  const cv::Size size(width_, height_);
  std::vector<StereoView> used = views_;
  std::vector<RejectedView> rejected = rejected_;
  std::vector<ViewPoints> points;
  for (const StereoView& v : used) points.push_back(common_points(settings_.board, v));

  Fit fit;
  std::vector<double> errors;
  double squared_sum = 0.0;
  size_t corner_count = 0;
  // Two rounds: the second without the views the first found to be outliers.
  for (int round = 0; round < 2; ++round) {
    try {
      fit = fit_pair(points, size, settings_.model, progress, round * 0.45, round * 0.45 + 0.45);
    } catch (const cv::Exception& e) {
      throw InputError("the calibration did not converge on these views (" +
                       std::string(e.err) + "): take views with the board closer, tilted and "
                       "spread over the image");
    }
    errors.clear();
    squared_sum = 0.0;
    corner_count = 0;
    for (const ViewPoints& p : points) {
      errors.push_back(view_error(p, fit, fisheye, squared_sum));
      corner_count += 2 * p.object.size();
    }
    if (round == 1) break;
    std::vector<double> sorted = errors;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double limit = std::max(settings_.outlier_factor * sorted[sorted.size() / 2], 1.0);
    std::vector<StereoView> kept_views;
    std::vector<ViewPoints> kept_points;
    for (size_t i = 0; i < used.size(); ++i) {
      if (errors[i] > limit) {
        rejected.push_back({used[i].name, "outlier: reprojection error " + fixed(errors[i], 2) +
                                              " px (limit " + fixed(limit, 2) + " px)"});
      } else {
        kept_views.push_back(used[i]);
        kept_points.push_back(points[i]);
      }
    }
    if (kept_views.size() == used.size()) break;
    if (static_cast<int>(kept_views.size()) < settings_.minimum_views) {
      throw InputError("only " + std::to_string(kept_views.size()) + " of " +
                       std::to_string(used.size()) +
                       " views agree with each other (the rest are outliers): at least " +
                       std::to_string(settings_.minimum_views) + " are needed");
    }
    used = std::move(kept_views);
    points = std::move(kept_points);
  }
  if (progress) progress(0.92, "rectifying");

  cv::Mat R1, R2, P1, P2, Q;
  cv::Rect roi1, roi2;
  if (fisheye) {
    cv::fisheye::stereoRectify(fit.K1, fit.D1, fit.K2, fit.D2, size, fit.R, fit.T, R1, R2, P1, P2,
                               Q, cv::CALIB_ZERO_DISPARITY, size, 0.0, 1.0);
  } else {
    cv::stereoRectify(fit.K1, fit.D1, fit.K2, fit.D2, size, fit.R, fit.T, R1, R2, P1, P2, Q,
                      cv::CALIB_ZERO_DISPARITY, 0.0, size, &roi1, &roi2);
  }
  refuse_degenerate_rectification(P1.at<double>(0, 0), std::min(fit.K1.at<double>(0, 0),
                                                                fit.K2.at<double>(0, 0)),
                                  used);

  CalibrationResult result;
  StereoCalibration& c = result.calibration;
  c.width = width_;
  c.height = height_;
  c.distortion_model = fisheye ? DistortionModel::kFisheye : DistortionModel::kPinhole;
  c.has_intrinsics = c.has_extrinsics = c.has_rectification = true;
  c.K1 = array_from<9>(fit.K1);
  c.K2 = array_from<9>(fit.K2);
  // OpenCV returns 14 terms for the rational model; the model's own terms are the file's.
  const size_t terms = fisheye ? 4 : settings_.model == LensModel::Pinhole8 ? 8 : 5;
  c.D1 = vector_from(fit.D1);
  c.D2 = vector_from(fit.D2);
  c.D1.resize(terms);
  c.D2.resize(terms);
  c.R = array_from<9>(fit.R);
  c.T = array_from<3>(fit.T);
  c.translation_unit = settings_.board.unit;
  c.R1 = array_from<9>(R1);
  c.R2 = array_from<9>(R2);
  c.P1 = array_from<12>(P1);
  c.P2 = array_from<12>(P2);
  c.Q = array_from<16>(Q);
  if (!fisheye && roi1.area() > 0 && roi2.area() > 0) {
    c.has_valid_rois = true;
    c.valid_roi1 = {roi1.x, roi1.y, roi1.width, roi1.height};
    c.valid_roi2 = {roi2.x, roi2.y, roi2.width, roi2.height};
  }

  CalibrationReport& r = result.report;
  r.board = settings_.board.describe();
  r.model = lens_model_name(settings_.model);
  r.width = width_;
  r.height = height_;
  r.views_used = static_cast<int>(used.size());
  r.rms_px = std::sqrt(squared_sum / static_cast<double>(corner_count));
  for (size_t i = 0; i < used.size(); ++i) r.per_view.push_back({used[i].name, errors[i]});
  double dy_sum = 0.0;
  size_t dy_count = 0;
  for (const ViewPoints& p : points) {
    std::vector<cv::Point2f> left, right;
    rectify_points(p.left, left, fit.K1, fit.D1, R1, P1, fisheye);
    rectify_points(p.right, right, fit.K2, fit.D2, R2, P2, fisheye);
    for (size_t i = 0; i < left.size(); ++i) {
      const double dy = std::fabs(left[i].y - right[i].y);
      dy_sum += dy;
      r.epipolar_max_px = std::max(r.epipolar_max_px, dy);
      ++dy_count;
    }
  }
  r.epipolar_mean_px = dy_sum / static_cast<double>(dy_count);
  r.baseline = cv::norm(fit.T);
  r.rectified_focal_px = c.P1[0];
  r.fx1 = c.K1[0];
  r.fy1 = c.K1[4];
  r.fx2 = c.K2[0];
  r.fy2 = c.K2[4];
  r.coverage_left = covered_fraction(used, true, width_, height_);
  r.coverage_right = covered_fraction(used, false, width_, height_);
  r.camera1_on_right = c.T[0] > 0.0;
  r.rejected = std::move(rejected);
  if (progress) progress(1.0, "done");
  return result;
}

void StereoCalibrator::refuse_degenerate_rectification(double rectified_focal_px,
                                                       double fitted_focal_px,
                                                       const std::vector<StereoView>& used) const {
  // Both rectifications crop to valid pixels (alpha 0, balance 0), which never shrinks the focal
  // length this much: a polynomial that bends back outside the corners it was fitted to does.
  if (std::isfinite(rectified_focal_px) && rectified_focal_px > 0.25 * fitted_focal_px) return;
  throw InputError("the " + lens_model_name(settings_.model) +
                   " fit does not rectify the images (rectified focal length " +
                   fixed(rectified_focal_px, 2) + " px against " + fixed(fitted_focal_px, 2) +
                   " px): its distortion bends away outside the corners, which covered " +
                   fixed(100.0 * covered_fraction(used, true, width_, height_), 1) + " % / " +
                   fixed(100.0 * covered_fraction(used, false, width_, height_), 1) +
                   " % of the images; add views with the board near their edges and corners");
}

std::string format_calibration_report(const CalibrationReport& r) {
  std::ostringstream out;
  out << "stereo calibration: " << r.board << ", " << r.model << ", " << r.width << "x"
      << r.height << "\n"
      << "views used: " << r.views_used << ", rejected: " << r.rejected.size() << "\n"
      << "reprojection error (RMS): " << fixed(r.rms_px, 3) << " px\n"
      << "epipolar error (vertical offset of the corners, rectified): mean " << fixed(r.epipolar_mean_px, 3)
      << " px, max " << fixed(r.epipolar_max_px, 3) << " px\n"
      << "baseline: " << fixed(r.baseline, 5) << " (units of --square)\n"
      << "focal length: rectified " << fixed(r.rectified_focal_px, 2) << " px; left fx "
      << fixed(r.fx1, 2) << " fy " << fixed(r.fy1, 2) << ", right fx " << fixed(r.fx2, 2)
      << " fy " << fixed(r.fy2, 2) << " px\n"
      << "coverage of the image by the corners: left " << fixed(100.0 * r.coverage_left, 1)
      << " %, right " << fixed(100.0 * r.coverage_right, 1) << " %\n";
  if (r.camera1_on_right) {
    out << "note: camera 1 (the views named left) sits to the right of camera 2 (T x > 0): view "
           "with --swap-views\n";
  }
  out << "per view RMS (px):\n";
  for (const ViewError& v : r.per_view) out << "  " << v.name << "  " << fixed(v.rms_px, 3) << "\n";
  if (!r.rejected.empty()) out << "rejected views:\n";
  for (const RejectedView& v : r.rejected) out << "  " << v.name << "  " << v.reason << "\n";
  return out.str();
}

}  // namespace sv
