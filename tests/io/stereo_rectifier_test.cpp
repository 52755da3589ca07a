// Rectification on a known geometry: the synthetic scene's rectified views are warped into the
// raw views of a calibrated rig (known K, distortion, R, T), the calibration is written to a file,
// and StereoRectifier must bring corresponding points back onto one row and the CPU engine's
// accuracy back near that of the original rectified pair.
#include "src/io/stereo_rectifier.h"

#include <gtest/gtest.h>

#include <limits>

#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/core/evaluation.h"
#include "src/core/synthetic_scene.h"
#include "src/io/mat_image.h"
#include "src/io/rectified_source.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using test::fresh_dir;

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr int kDisparities = 48;

// The rig's distortion with `terms` of OpenCV's coefficients (k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3
// s4 tx ty), camera `v`; the 5-term values are the first the tests used.
cv::Mat distortion(int v, int terms) {
  const double all[2][14] = {
      {-0.12, 0.03, 0.001, -0.0008, 0.0, 0.1, -0.05, 0.02, 0.01, -0.005, 0.008, 0.003, 0.02, -0.015},
      {-0.10, 0.02, -0.0005, 0.001, 0.0, 0.08, -0.04, 0.02, -0.008, 0.004, 0.006, -0.003, -0.015, 0.02}};
  return cv::Mat(1, terms, CV_64F, const_cast<double*>(all[v])).clone();
}

struct Rig {
  cv::Matx33d K[2] = {cv::Matx33d(300, 0, 158.5, 0, 302, 121.25, 0, 0, 1),
                      cv::Matx33d(305, 0, 163, 0, 304, 118, 0, 0, 1)};
  cv::Mat D[2];
  cv::Matx33d R;
  cv::Vec3d T{-0.1, 0.003, 0.002};
  cv::Mat Rr[2], P[2], Q;  // stereoRectify's rectifying rotations and projections
  cv::Rect roi[2];         // and its valid pixels

  explicit Rig(int distortion_terms = 5) {
    D[0] = distortion(0, distortion_terms);
    D[1] = distortion(1, distortion_terms);
    cv::Rodrigues(cv::Vec3d(0.02, -0.03, 0.015), R);
    cv::stereoRectify(K[0], D[0], K[1], D[1], cv::Size(kWidth, kHeight), R, T, Rr[0], Rr[1], P[0],
                      P[1], Q, cv::CALIB_ZERO_DISPARITY, 0.0, cv::Size(), &roi[0], &roi[1]);
  }

  void write(const std::string& path) const {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    fs << "image_width" << kWidth << "image_height" << kHeight << "K1" << cv::Mat(K[0]) << "D1"
       << D[0] << "K2" << cv::Mat(K[1]) << "D2" << D[1] << "R" << cv::Mat(R) << "T"
       << cv::Mat(T);
  }

  // As a vendor ships a rig (the Baumer rig's camera_params.yml): M1 D1 M2 D2 (column vectors),
  // R T, stereoRectify's R1 R2 P1 P2 Q and ValidRoi1/2, and no image size.
  void write_vendor_style(const std::string& path) const {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    fs << "M1" << cv::Mat(K[0]) << "D1" << D[0].t() << "M2" << cv::Mat(K[1]) << "D2" << D[1].t()
       << "R" << cv::Mat(R) << "T" << cv::Mat(T) << "R1" << Rr[0] << "R2" << Rr[1] << "P1" << P[0]
       << "P2" << P[1] << "Q" << Q << "ValidRoi1" << roi[0] << "ValidRoi2" << roi[1];
  }

  // The same rig with its cameras named the other way round: camera 1 is the right one (T x >
  // 0), as a calibration made with the views named the other way round comes out.
  void write_mirrored(const std::string& path) const {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    fs << "image_width" << kWidth << "image_height" << kHeight << "K1" << cv::Mat(K[1]) << "D1"
       << D[1] << "K2" << cv::Mat(K[0]) << "D2" << D[0] << "R" << cv::Mat(R.t()) << "T"
       << cv::Mat(-(R.t() * T));
  }

  // A rectified pixel of view v to its raw (distorted) pixel: the ray through it, turned back
  // from the rectified orientation, through OpenCV's model of camera v.
  cv::Point2d raw_from_rectified(int v, cv::Point2d p) const {
    const cv::Matx33d Kr(P[v].at<double>(0, 0), 0, P[v].at<double>(0, 2), 0,
                         P[v].at<double>(1, 1), P[v].at<double>(1, 2), 0, 0, 1);
    const cv::Vec3d ray = cv::Matx33d(Rr[v]).t() * (Kr.inv() * cv::Vec3d(p.x, p.y, 1.0));
    std::vector<cv::Point2d> raw;
    cv::projectPoints(std::vector<cv::Point3d>{cv::Point3d(ray[0], ray[1], ray[2])},
                      cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), K[v], D[v], raw);
    return raw[0];
  }

  // The raw view v a camera of this rig would have seen of the rectified image: each raw pixel
  // takes the rectified image at the point OpenCV's iterative undistortion sends it to.
  ImageRgb8 raw_view(int v, const ImageRgb8& rectified) const {
    std::vector<cv::Point2f> pixels;
    for (int y = 0; y < kHeight; ++y) {
      for (int x = 0; x < kWidth; ++x) pixels.emplace_back(static_cast<float>(x), static_cast<float>(y));
    }
    std::vector<cv::Point2f> rect;
    cv::undistortPoints(pixels, rect, K[v], D[v], Rr[v], P[v]);
    cv::Mat map_x(kHeight, kWidth, CV_32FC1), map_y(kHeight, kWidth, CV_32FC1);
    for (int i = 0; i < kWidth * kHeight; ++i) {
      map_x.at<float>(i / kWidth, i % kWidth) = rect[i].x;
      map_y.at<float>(i / kWidth, i % kWidth) = rect[i].y;
    }
    cv::Mat raw;
    cv::remap(bgr_mat_from_rgb(rectified), raw, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
    return rgb_image_from_mat(raw);
  }
};

double bilinear(const ImageF32& map, double x, double y) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  const double fx = x - x0, fy = y - y0;
  return (1 - fy) * ((1 - fx) * map.clamped(x0, y0) + fx * map.clamped(x0 + 1, y0)) +
         fy * ((1 - fx) * map.clamped(x0, y0 + 1) + fx * map.clamped(x0 + 1, y0 + 1));
}

// Where the rectifier puts the raw point `raw`: solves map(q) = raw by Newton's method on the
// rectifier's own tables, starting from `guess`.
cv::Point2d rectified_position(const ImageF32& map_x, const ImageF32& map_y, cv::Point2d raw,
                               cv::Point2d guess) {
  cv::Point2d q = guess;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const double ex = bilinear(map_x, q.x, q.y) - raw.x;
    const double ey = bilinear(map_y, q.x, q.y) - raw.y;
    const double h = 0.5;
    const double a = (bilinear(map_x, q.x + h, q.y) - bilinear(map_x, q.x - h, q.y)) / (2 * h);
    const double b = (bilinear(map_x, q.x, q.y + h) - bilinear(map_x, q.x, q.y - h)) / (2 * h);
    const double c = (bilinear(map_y, q.x + h, q.y) - bilinear(map_y, q.x - h, q.y)) / (2 * h);
    const double d = (bilinear(map_y, q.x, q.y + h) - bilinear(map_y, q.x, q.y - h)) / (2 * h);
    const double det = a * d - b * c;
    q.x -= (d * ex - b * ey) / det;
    q.y -= (a * ey - c * ex) / det;
  }
  return q;
}

double bad1_nonocc(const ImageRgb8& left, const ImageRgb8& right, const SyntheticFrame& truth,
                   const ImageU8& region) {
  StereoParams params;
  params.num_disparities = kDisparities;
  CpuEngine engine;
  const DisparityResult result = engine.compute(to_gray(left), to_gray(right), params);
  EvaluationMasks masks;
  masks.nonocc = truth.nonoccluded_mask;
  for (size_t i = 0; i < region.size(); ++i) {
    if (!region.data()[i]) masks.nonocc.data()[i] = 0;
  }
  return evaluate_disparity(result.disparity, truth.ground_truth, masks).find("nonocc")->bad_1;
}

class RectifierOnSyntheticRig : public ::testing::Test {
 protected:
  void SetUp() override {
    SyntheticSceneConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.max_disparity = kDisparities;
    truth_ = SyntheticScene(config).render(0);
    raw_left_ = rig_.raw_view(0, truth_.left);
    raw_right_ = rig_.raw_view(1, truth_.right);
    calib_path_ = fresh_dir("rectifier") + "/rig.yaml";
    rig_.write(calib_path_);
  }
  Rig rig_;
  SyntheticFrame truth_;
  ImageRgb8 raw_left_, raw_right_;
  std::string calib_path_;
};

// How far the rectifier leaves corresponding points of the rig apart: for points of the
// rectified truth, their raw positions (the rig's forward model) mapped back through the
// rectifier's own tables.
struct RowCheck {
  int points = 0;
  double worst_raw_row_gap = 0;     // in the raw views
  double worst_row_gap = 0;         // rectified
  double worst_displacement = 0;    // rectified point against the truth's
};

RowCheck check_rows(const Rig& rig, const SyntheticFrame& truth, const StereoRectifier& rectifier) {
  const RectificationMaps& maps = rectifier.maps();
  RowCheck check;
  for (int y = 20; y < kHeight - 20; y += 10) {
    for (int x = 60; x < kWidth - 20; x += 10) {
      if (!truth.nonoccluded_mask.at(x, y)) continue;
      const cv::Point2d left(x, y);
      const cv::Point2d right(x - truth.ground_truth.at(x, y), y);
      const cv::Point2d raw_l = rig.raw_from_rectified(0, left);
      const cv::Point2d raw_r = rig.raw_from_rectified(1, right);
      check.worst_raw_row_gap = std::max(check.worst_raw_row_gap, std::fabs(raw_l.y - raw_r.y));
      const cv::Point2d q_l = rectified_position(maps.left_x, maps.left_y, raw_l, raw_l);
      const cv::Point2d q_r = rectified_position(maps.right_x, maps.right_y, raw_r, raw_r);
      check.worst_row_gap = std::max(check.worst_row_gap, std::fabs(q_l.y - q_r.y));
      check.worst_displacement =
          std::max({check.worst_displacement, cv::norm(q_l - left), cv::norm(q_r - right)});
      ++check.points;
    }
  }
  return check;
}

TEST_F(RectifierOnSyntheticRig, CorrespondingPointsComeBackOntoOneRow) {
  const StereoRectifier rectifier(load_stereo_calibration(calib_path_), kWidth, kHeight, 0.0);
  ASSERT_TRUE(rectifier.remaps());
  ASSERT_TRUE(rectifier.maps().left_x.same_size(kWidth, kHeight));
  const RowCheck check = check_rows(rig_, truth_, rectifier);
  RecordProperty("raw_row_gap", std::to_string(check.worst_raw_row_gap));
  RecordProperty("row_gap", std::to_string(check.worst_row_gap));
  RecordProperty("displacement", std::to_string(check.worst_displacement));
  ASSERT_GT(check.points, 200);
  EXPECT_GT(check.worst_raw_row_gap, 3.0) << "the raw pair should be visibly unrectified";
  EXPECT_LT(check.worst_row_gap, 0.5);
  EXPECT_LT(check.worst_displacement, 0.5);
}

// Every distortion model of OpenCV: 4 (k1 k2 p1 p2), 5 (+k3), 8 (rational), 12 (thin prism) and
// 14 terms (tilted sensor), each term in use.
class RectifierDistortionModels : public ::testing::TestWithParam<int> {};

TEST_P(RectifierDistortionModels, CorrespondingPointsComeBackOntoOneRow) {
  const int terms = GetParam();
  const Rig rig(terms);
  SyntheticSceneConfig config;
  config.width = kWidth;
  config.height = kHeight;
  config.max_disparity = kDisparities;
  const SyntheticFrame truth = SyntheticScene(config).render(0);
  const std::string path = fresh_dir("distortion_" + std::to_string(terms)) + "/rig.yaml";
  rig.write(path);
  const StereoCalibration calibration = load_stereo_calibration(path);
  ASSERT_EQ(calibration.D1.size(), static_cast<size_t>(terms));
  ASSERT_EQ(calibration.D2.size(), static_cast<size_t>(terms));
  const StereoRectifier rectifier(calibration, kWidth, kHeight, 0.0);
  const RowCheck check = check_rows(rig, truth, rectifier);
  ASSERT_GT(check.points, 200);
  EXPECT_GT(check.worst_raw_row_gap, 3.0);
  EXPECT_LT(check.worst_row_gap, 0.5) << terms << " terms";
  EXPECT_LT(check.worst_displacement, 0.5) << terms << " terms";

  // The terms matter: with the model before this one (14 -> 12 -> 8 -> 5 terms), the points
  // land elsewhere.
  if (terms > 5) {
    const size_t before = terms == 14 ? 12 : terms == 12 ? 8 : 5;
    StereoCalibration truncated = calibration;
    truncated.D1.resize(before);
    truncated.D2.resize(before);
    const RowCheck off = check_rows(rig, truth, StereoRectifier(truncated, kWidth, kHeight, 0.0));
    EXPECT_GT(off.worst_displacement, 1.0) << terms << " terms";
  }
}

INSTANTIATE_TEST_SUITE_P(OpenCvModels, RectifierDistortionModels, ::testing::Values(4, 5, 8, 12, 14));

// A vendor's file (issue 17: the Baumer rig's camera_params.yml) has a 14-term model, the
// rectification and valid ROIs, and no image size: the source's size is taken, with a notice,
// when the principal points and ROIs fit it; twice the size is refused with the numbers.
TEST(StereoRectifier, AVendorFileWithoutImageSizeTakesTheSourcesSize) {
  const Rig rig(14);
  SyntheticSceneConfig config;
  config.width = kWidth;
  config.height = kHeight;
  config.max_disparity = kDisparities;
  const SyntheticFrame truth = SyntheticScene(config).render(0);
  const std::string path = fresh_dir("vendor") + "/camera_params.yml";
  rig.write_vendor_style(path);
  const StereoCalibration calibration = load_stereo_calibration(path);
  EXPECT_EQ(calibration.width, 0);
  EXPECT_EQ(calibration.D1.size(), 14u);
  ASSERT_TRUE(calibration.has_valid_rois);
  EXPECT_EQ(calibration.valid_roi2.width, rig.roi[1].width);

  const StereoRectifier rectifier(calibration, kWidth, kHeight, 0.0);
  EXPECT_NE(rectifier.size_notice().find("camera_params.yml' does not give the image size it "
                                         "was made for: taking the source's 320x240"),
            std::string::npos)
      << rectifier.size_notice();
  const RowCheck check = check_rows(rig, truth, rectifier);
  EXPECT_LT(check.worst_row_gap, 0.5);
  EXPECT_LT(check.worst_displacement, 0.5);

  struct Still : FrameSource {
    ImageRgb8 view;
    std::string describe() const override { return "still"; }
    bool is_live() const override { return false; }
    std::optional<StereoPair> next() override {
      StereoPair p;
      p.left = p.right = view;
      return p;
    }
  };
  auto still = std::make_unique<Still>();
  still->view = ImageRgb8(kWidth, kHeight);
  std::vector<std::string> notices;
  RectifiedSource source(std::move(still), calibration, 0.0,
                         [&](const std::string& m) { notices.push_back(m); });
  ASSERT_TRUE(source.next());
  ASSERT_EQ(notices.size(), 2u);
  EXPECT_EQ(notices[0], rectifier.size_notice());

  try {
    StereoRectifier(calibration, 2 * kWidth, 2 * kHeight, 0.0);
    FAIL() << "a calibration made at 320x240 was taken for 640x480";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("640x480 does not fit it"), std::string::npos) << message;
    EXPECT_NE(message.find("(158.5, 121.25)"), std::string::npos) << message;
  }
}

TEST_F(RectifierOnSyntheticRig, DisparityAccuracyComesBackNearTheRectifiedCase) {
  const StereoRectifier rectifier(load_stereo_calibration(calib_path_), kWidth, kHeight, 0.0);
  ImageRgb8 left = raw_left_, right = raw_right_;
  rectifier.rectify(left, right);

  // Judge away from the borders, where the double resampling has no data to work with.
  ImageU8 interior(kWidth, kHeight, 0);
  for (int y = 8; y < kHeight - 8; ++y) {
    for (int x = 8; x < kWidth - 8; ++x) interior.at(x, y) = 255;
  }
  const double ideal = bad1_nonocc(truth_.left, truth_.right, truth_, interior);
  const double rectified = bad1_nonocc(left, right, truth_, interior);
  const double raw = bad1_nonocc(raw_left_, raw_right_, truth_, interior);
  RecordProperty("bad1_ideal", std::to_string(ideal));
  RecordProperty("bad1_rectified", std::to_string(rectified));
  RecordProperty("bad1_raw", std::to_string(raw));
  EXPECT_LT(rectified, ideal + 4.0) << "ideal " << ideal << ", raw " << raw;
  EXPECT_GT(raw, ideal + 15.0) << "the unrectified pair should match badly: ideal " << ideal;
}

TEST_F(RectifierOnSyntheticRig, SourceDecoratorRectifiesAndChecksTheSize) {
  struct Fixed : FrameSource {
    ImageRgb8 l, r;
    bool done = false;
    std::string describe() const override { return "fixed"; }
    bool is_live() const override { return false; }
    std::optional<StereoPair> next() override {
      if (done) return std::nullopt;
      done = true;
      StereoPair p;
      p.left = l;
      p.right = r;
      return p;
    }
  };
  auto raw = std::make_unique<Fixed>();
  raw->l = raw_left_;
  raw->r = raw_right_;
  std::vector<std::string> notices;
  RectifiedSource source(std::move(raw), load_stereo_calibration(calib_path_), 0.0,
                         [&](const std::string& m) { notices.push_back(m); });
  auto pair = source.next();
  ASSERT_TRUE(pair);
  ImageRgb8 expect_left = raw_left_, expect_right = raw_right_;
  StereoRectifier(load_stereo_calibration(calib_path_), kWidth, kHeight, 0.0).rectify(expect_left, expect_right);
  EXPECT_TRUE(pair->left == expect_left);
  EXPECT_TRUE(pair->right == expect_right);
  ASSERT_NE(source.rectifier(), nullptr);
  EXPECT_NEAR(source.rectifier()->geometry().baseline, cv::norm(rig_.T), 1e-9);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("rig.yaml"), std::string::npos);

  auto small = std::make_unique<Fixed>();
  small->l = ImageRgb8(300, 200);
  small->r = ImageRgb8(300, 200);
  RectifiedSource wrong(std::move(small), load_stereo_calibration(calib_path_));
  try {
    wrong.next();
    FAIL() << "a calibration for 320x240 was applied to 300x200";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("320x240"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("300x200"), std::string::npos) << e.what();
  }
}

// --swap-views (issue 17) with a calibration made under the same swapped names (the calib-ximea
// rig's case: its camera 1 is the right one, T x > 0): each view keeps its camera, so the pair
// comes out rectified and in the order matching needs. With a calibration that names the
// cameras as they stand (camera 1 on the left: the Baumer rig's case, pairs named against it),
// camera 1 rectifies the new left view.
TEST_F(RectifierOnSyntheticRig, SwappedViewsKeepTheCalibrationsCameraOnTheirSide) {
  const std::string dir = fresh_dir("swapped_views");
  rig_.write_mirrored(dir + "/mirrored.yaml");
  const StereoCalibration mirrored = load_stereo_calibration(dir + "/mirrored.yaml");
  // As named, the source gives the right camera's view as "left" (the calibration's camera 1).
  const StereoRectifier as_named(mirrored, kWidth, kHeight, 0.0);
  EXPECT_GT(as_named.P2()[3], 0.0);
  ImageRgb8 named_left = raw_right_, named_right = raw_left_;
  as_named.rectify(named_left, named_right);
  // --swap-views hands the rectifier the physically left camera's view as left.
  const StereoRectifier swapped(mirrored, kWidth, kHeight, 0.0, true);
  EXPECT_NE(swapped.summary().find("camera 2 rectifies the left view"), std::string::npos)
      << swapped.summary();
  ImageRgb8 left = raw_left_, right = raw_right_;
  swapped.rectify(left, right);
  EXPECT_TRUE(left == named_right);
  EXPECT_TRUE(right == named_left);
  EXPECT_LT(swapped.P2()[3], 0.0);
  const StereoGeometry g = swapped.geometry();
  EXPECT_NEAR(g.baseline, cv::norm(rig_.T), 1e-9);
  EXPECT_NEAR(g.disparity_offset_px, 0.0, 1e-9);
  EXPECT_NEAR(g.principal_x, swapped.P1()[2], 1e-9);

  ImageU8 interior(kWidth, kHeight, 0);
  for (int y = 8; y < kHeight - 8; ++y) {
    for (int x = 8; x < kWidth - 8; ++x) interior.at(x, y) = 255;
  }
  const double ideal = bad1_nonocc(truth_.left, truth_.right, truth_, interior);
  EXPECT_LT(bad1_nonocc(left, right, truth_, interior), ideal + 4.0);
  EXPECT_GT(bad1_nonocc(named_left, named_right, truth_, interior), ideal + 40.0);

  // Camera 1 on the left: the swapped views are rectified exactly as correctly named ones.
  const StereoCalibration upright = load_stereo_calibration(calib_path_);
  const StereoRectifier plain(upright, kWidth, kHeight, 0.0);
  const StereoRectifier swapped_upright(upright, kWidth, kHeight, 0.0, true);
  EXPECT_TRUE(swapped_upright.maps().left_x == plain.maps().left_x);
  EXPECT_TRUE(swapped_upright.maps().right_y == plain.maps().right_y);
  EXPECT_EQ(swapped_upright.P2(), plain.P2());
}

// Float planes are rectified like the colour views: the same map, bilinear on the values, NaN
// outside the raw image and wherever a NaN raw pixel contributes.
TEST_F(RectifierOnSyntheticRig, FloatPlanesFollowTheColourViewsAndMarkTheOutsideMissing) {
  const StereoRectifier rectifier(load_stereo_calibration(calib_path_), kWidth, kHeight, 0.0);
  ImageRgb8 left_rgb = raw_left_, right_rgb = raw_right_;
  ImageF32 left(kWidth, kHeight), right(kWidth, kHeight);
  const ImageU8 gray_left = to_gray(raw_left_), gray_right = to_gray(raw_right_);
  for (size_t i = 0; i < left.size(); ++i) {
    left.data()[i] = gray_left.data()[i];
    right.data()[i] = gray_right.data()[i];
  }
  left.at(kWidth / 2, kHeight / 2) = std::numeric_limits<float>::quiet_NaN();
  rectifier.rectify(left_rgb, right_rgb);
  rectifier.rectify(left, right);
  const ImageU8 rectified_gray = to_gray(left_rgb);
  int compared = 0, close = 0, nan = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const float v = left.at(x, y);
      if (std::isnan(v)) {
        ++nan;
        continue;
      }
      ++compared;
      // Gray of interpolated colours vs interpolated gray: equal up to rounding.
      close += std::abs(v - rectified_gray.at(x, y)) <= 2.0f;
    }
  }
  EXPECT_GT(close, compared * 99 / 100);
  EXPECT_GE(nan, 1);                       // the NaN pixel stays missing
  EXPECT_LT(nan, kWidth * kHeight / 10);   // alpha 0: little outside the raw image
  ImageF32 wrong(kWidth + 1, kHeight), also_wrong(kWidth + 1, kHeight);
  EXPECT_THROW(rectifier.rectify(wrong, also_wrong), InputError);
}

TEST(StereoRectifier, OnlyQMeansTheInputIsRectifiedAlready) {
  StereoCalibration c;
  c.path = "q-only.yaml";
  c.width = 64;
  c.height = 48;
  c.has_rectification = true;
  c.R1 = c.R2 = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  c.P1 = {100, 0, 32, 0, 0, 100, 24, 0, 0, 0, 1, 0};
  c.P2 = {100, 0, 32, -100 * 0.2, 0, 100, 24, 0, 0, 0, 1, 0};
  c.Q = {1, 0, 0, -32, 0, 1, 0, -24, 0, 0, 0, 100, 0, 0, 5, 0};
  const StereoRectifier rectifier(c, 128, 96);  // a whole multiple: scaled
  EXPECT_FALSE(rectifier.remaps());
  EXPECT_NEAR(rectifier.geometry().focal_length_px, 200, 1e-9);
  EXPECT_NEAR(rectifier.geometry().baseline, 0.2, 1e-12);
  ImageRgb8 left(128, 96, Rgb8{1, 2, 3}), right = left;
  rectifier.rectify(left, right);
  EXPECT_EQ(left.at(5, 5), (Rgb8{1, 2, 3}));
  EXPECT_THROW(StereoRectifier(c, 64, 48, 1.5), InputError);
  c.P2 = {100, 0, 32, 0, 0, 100, 24, -100 * 0.2, 0, 0, 1, 0};  // one camera above the other
  EXPECT_THROW(StereoRectifier(c, 64, 48), InputError);
}

// A calibration that would leave a rectified view blank (here R1 turns the left camera 80
// degrees away from the scene) is refused rather than run (issue 24: blank views, a constant
// disparity map).
TEST(StereoRectifier, ACalibrationThatLeavesAViewBlankIsRefused) {
  StereoCalibration c;
  c.path = "turned.yaml";
  c.width = 64;
  c.height = 48;
  c.has_intrinsics = c.has_rectification = true;
  c.K1 = c.K2 = {60, 0, 31.5, 0, 60, 23.5, 0, 0, 1};
  c.D1 = c.D2 = {0, 0, 0, 0, 0};
  cv::Matx33d turned;
  cv::Rodrigues(cv::Vec3d(0, 1.4, 0), turned);
  std::copy(turned.val, turned.val + 9, c.R1.begin());
  c.R2 = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  c.P1 = {60, 0, 31.5, 0, 0, 60, 23.5, 0, 0, 0, 1, 0};
  c.P2 = {60, 0, 31.5, -6, 0, 60, 23.5, 0, 0, 0, 1, 0};
  c.Q = {1, 0, 0, -31.5, 0, 1, 0, -23.5, 0, 0, 0, 60, 0, 0, 10, 0};
  try {
    StereoRectifier(c, 64, 48);
    FAIL() << "a rectifier with a blank left view was built";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("turned.yaml' leaves the rectified left view blank (0 %"),
              std::string::npos)
        << e.what();
  }
  c.R1 = c.R2;
  EXPECT_NO_THROW(StereoRectifier(c, 64, 48));
}

}  // namespace
}  // namespace sv
