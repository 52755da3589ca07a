// Swapped views (issue 17): check_view_order on the synthetic scene and on the shared data's real
// pairs (Middlebury, KITTI, EuRoC rectified with its calibration), each as named and swapped;
// the calib-ximea rig, whose views named left come from the right camera, as named and with
// --swap-views; and ViewOrderCheckingSource, which says so once.
#include "src/app/view_order_check.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "src/app/view_order_checking_source.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "src/io/dataset_loader.h"
#include "src/io/mat_image.h"
#include "src/io/stereo_calibration.h"
#include "src/io/stereo_rectifier.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

fs::path shared_data_dir() {
  if (const char* v = std::getenv("STEREO_DATA_DIR")) return v;
  return STEREO_DATA_DIR_DEFAULT;
}

const char* name_of(ViewOrder order) {
  switch (order) {
    case ViewOrder::AsExpected: return "as expected";
    case ViewOrder::Swapped: return "swapped";
    case ViewOrder::Unclear: return "unclear";
  }
  return "?";
}

// The check's search reach for a pair: what ViewOrderCheckingSource asks for with the default
// search range of 64.
int reach(const ImageRgb8& view) { return std::max(64, view.width() / 4); }

// Checks a pair as named and swapped: as named must be AsExpected, swapped must be Swapped.
void expect_both_ways(const std::string& name, const ImageRgb8& left, const ImageRgb8& right) {
  const ViewOrderCheck named = check_view_order(left, right, reach(left));
  EXPECT_EQ(named.order, ViewOrder::AsExpected)
      << name << " as named: " << name_of(named.order) << ", +" << named.positive << " -"
      << named.negative << " of " << named.tested;
  const ViewOrderCheck swapped = check_view_order(right, left, reach(left));
  EXPECT_EQ(swapped.order, ViewOrder::Swapped)
      << name << " swapped: " << name_of(swapped.order) << ", +" << swapped.positive << " -"
      << swapped.negative << " of " << swapped.tested;
}

ImageRgb8 read_view(const fs::path& path) {
  return rgb_image_from_mat(cv::imread(path.string(), cv::IMREAD_COLOR));
}

SyntheticFrame scene(int index, int width = 320, int height = 240) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = 48;
  return SyntheticScene(config).render(index);
}

TEST(ViewOrderCheck, SyntheticSceneBothWaysRound) {
  for (int index : {0, 7, 23, 41}) {
    const SyntheticFrame f = scene(index, 640, 480);
    expect_both_ways("synthetic frame " + std::to_string(index), f.left, f.right);
  }
  const SyntheticFrame small = scene(3, 160, 120);
  expect_both_ways("synthetic 160x120", small.left, small.right);
}

TEST(ViewOrderCheck, NothingToGoByIsUnclear) {
  const ImageRgb8 flat(320, 240, Rgb8{90, 90, 90});
  EXPECT_EQ(check_view_order(flat, flat, 64).order, ViewOrder::Unclear);
  EXPECT_EQ(check_view_order(flat, flat, 64).tested, 0);
  // Unrelated views: neither side matches clearly.
  const SyntheticFrame a = scene(0), b = scene(0, 320, 240);
  ImageRgb8 shuffled = b.right;
  for (int y = 0; y < shuffled.height(); ++y) {
    for (int x = 0; x < shuffled.width(); ++x) shuffled.at(x, y) = b.right.at((x * 37) % 320, (y * 11) % 240);
  }
  EXPECT_EQ(check_view_order(a.left, shuffled, 64).order, ViewOrder::Unclear);
  EXPECT_EQ(check_view_order(a.left, ImageRgb8(100, 100), 64).order, ViewOrder::Unclear);
  EXPECT_EQ(check_view_order(ImageRgb8(), ImageRgb8(), 64).order, ViewOrder::Unclear);
  const SyntheticFrame tiny = scene(0, 16, 16);
  EXPECT_EQ(check_view_order(tiny.left, tiny.right, 64).order, ViewOrder::Unclear);
}

TEST(ViewOrderCheck, MiddleburyAndKittiPairsBothWaysRound) {
  const fs::path data = shared_data_dir();
  int pairs = 0;
  for (const char* set : {"middlebury2003", "middlebury2014", "kitti2015"}) {
    if (!fs::is_directory(data / set)) continue;
    for (const StereoSample& sample : load_dataset((data / set).string())) {
      expect_both_ways(sample.name, sample.left, sample.right);
      ++pairs;
    }
  }
  if (pairs == 0) GTEST_SKIP() << "no shared data at " << data;
  EXPECT_GE(pairs, 4);
}

TEST(ViewOrderCheck, RealRigsRectifiedWithTheirCalibrations) {
  const fs::path euroc = shared_data_dir() / "euroc-v1-01-easy";
  const fs::path ximea = shared_data_dir() / "calib-ximea";
  if (!fs::is_directory(euroc) || !fs::is_directory(ximea)) {
    GTEST_SKIP() << "no shared data at " << shared_data_dir();
  }
  ImageRgb8 left = read_view(euroc / "frames/left_0.png"), right = read_view(euroc / "frames/right_0.png");
  StereoRectifier(load_stereo_calibration((euroc / "stereo_calibration.yaml").string()),
                  left.width(), left.height())
      .rectify(left, right);
  expect_both_ways("EuRoC V1_01 frame 0", left, right);

  // The ximea rig's views named left come from the right camera: as named they look swapped,
  // and with --swap-views (the rectifier told so) they are in order.
  const StereoCalibration calibration = load_stereo_calibration(ximea.string());
  for (const char* n : {"01", "07", "13", "19"}) {
    const ImageRgb8 named_left = read_view(ximea / (std::string("left") + n + ".jpg"));
    const ImageRgb8 named_right = read_view(ximea / (std::string("right") + n + ".jpg"));
    ImageRgb8 l = named_left, r = named_right;
    StereoRectifier(calibration, l.width(), l.height()).rectify(l, r);
    EXPECT_EQ(check_view_order(l, r, reach(l)).order, ViewOrder::Swapped) << "ximea pair " << n;
    l = named_right;
    r = named_left;
    StereoRectifier(calibration, l.width(), l.height(), 0.0, true).rectify(l, r);
    EXPECT_EQ(check_view_order(l, r, reach(l)).order, ViewOrder::AsExpected) << "ximea pair " << n;
  }
}

// A finite source of pairs: synthetic ones (optionally delivered swapped or flat) or given ones.
class ScenePairs : public FrameSource {
 public:
  explicit ScenePairs(int count, bool swapped = false, bool flat = false)
      : count_(count), swapped_(swapped), flat_(flat) {}
  std::vector<std::pair<ImageRgb8, ImageRgb8>> given;  // delivered instead, when not empty
  std::string describe() const override { return "scene pairs"; }
  bool is_live() const override { return false; }
  int64_t frame_count() const override { return count_; }
  std::optional<StereoPair> next() override {
    if (next_ >= count_) return std::nullopt;
    StereoPair pair;
    pair.index = next_;
    if (!given.empty()) {
      pair.left = given[next_ % given.size()].first;
      pair.right = given[next_ % given.size()].second;
    } else if (flat_) {
      pair.left = pair.right = ImageRgb8(320, 240, Rgb8{70, 70, 70});
    } else {
      const SyntheticFrame f = scene(next_);
      pair.left = swapped_ ? f.right : f.left;
      pair.right = swapped_ ? f.left : f.right;
    }
    ++next_;
    return pair;
  }
  bool seek(int64_t index) override {
    next_ = static_cast<int>(index);
    return true;
  }

 private:
  int count_;
  bool swapped_, flat_;
  int next_ = 0;
};

void drain(FrameSource& source) {
  while (source.next()) {
  }
}

TEST(ViewOrderCheckingSource, SaysOnceWhenThePairsLookSwapped) {
  std::vector<std::string> notices;
  const NoticeSink sink = [&](const std::string& m) { notices.push_back(m); };
  ViewOrderCheckingSource swapped(std::make_unique<ScenePairs>(5, true), 64, false, sink);
  drain(swapped);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("the views look swapped"), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("add --swap-views"), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("pair 0 matches at positive disparities only the other way round"),
            std::string::npos)
      << notices[0];

  notices.clear();
  ViewOrderCheckingSource in_order(std::make_unique<ScenePairs>(5), 64, false, sink);
  drain(in_order);
  EXPECT_TRUE(notices.empty()) << notices[0];

  // After --swap-views the advice turns round.
  ViewOrderCheckingSource still_swapped(std::make_unique<ScenePairs>(2, true), 64, true, sink);
  drain(still_swapped);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("look swapped after --swap-views"), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("drop --swap-views"), std::string::npos) << notices[0];

  // A flat start gives no answer, and after the third pair the checking stops.
  notices.clear();
  ViewOrderCheckingSource flat(std::make_unique<ScenePairs>(6, false, true), 64, false, sink);
  drain(flat);
  EXPECT_TRUE(notices.empty());
  // A pair that cannot be prepared ends the checking quietly (the rectifying source says why).
  int prepared = 0;
  ViewOrderCheckingSource failing(std::make_unique<ScenePairs>(3, true), 64, false, sink,
                                  [&](ImageRgb8&, ImageRgb8&, bool) {
                                    ++prepared;
                                    throw InputError("no such size");
                                  });
  drain(failing);
  EXPECT_EQ(prepared, 1);
  EXPECT_TRUE(notices.empty());

  // Everything else passes through.
  ViewOrderCheckingSource passing(std::make_unique<ScenePairs>(4), 64, false, sink);
  EXPECT_EQ(passing.frame_count(), 4);
  EXPECT_TRUE(passing.seek(3));
  EXPECT_EQ(passing.next()->index, 3);
  EXPECT_FALSE(passing.next());
}

// A rig whose cameras are turned a few degrees against each other, with different lenses: its
// calibration, and the raw views its cameras saw of a rectified synthetic frame.
struct TurnedRig {
  StereoCalibration calibration;
  ImageRgb8 raw[2];
};

TurnedRig turned_rig(const SyntheticFrame& f) {
  const int w = f.left.width(), h = f.left.height();
  const cv::Matx33d K[2] = {cv::Matx33d(300, 0, 155, 0, 300, 122, 0, 0, 1),
                            cv::Matx33d(320, 0, 166, 0, 318, 115, 0, 0, 1)};
  const cv::Matx<double, 1, 5> D[2] = {cv::Matx<double, 1, 5>(-0.2, 0.05, 0, 0, 0),
                                       cv::Matx<double, 1, 5>(0.1, -0.02, 0, 0, 0)};
  cv::Matx33d R;
  cv::Rodrigues(cv::Vec3d(0.04, -0.06, 0.05), R);
  const cv::Vec3d T(-0.1, 0.004, 0.002);
  cv::Mat Rr[2], P[2], Q;
  cv::stereoRectify(K[0], D[0], K[1], D[1], cv::Size(w, h), R, T, Rr[0], Rr[1], P[0], P[1], Q,
                    cv::CALIB_ZERO_DISPARITY, 0.0);
  TurnedRig rig;
  StereoCalibration& c = rig.calibration;
  c.path = "turned rig";
  c.width = w;
  c.height = h;
  c.has_intrinsics = c.has_extrinsics = true;
  std::copy(K[0].val, K[0].val + 9, c.K1.begin());
  std::copy(K[1].val, K[1].val + 9, c.K2.begin());
  c.D1.assign(D[0].val, D[0].val + 5);
  c.D2.assign(D[1].val, D[1].val + 5);
  std::copy(R.val, R.val + 9, c.R.begin());
  c.T = {T[0], T[1], T[2]};
  const ImageRgb8* rectified[2] = {&f.left, &f.right};
  for (int v = 0; v < 2; ++v) {
    std::vector<cv::Point2f> pixels, positions;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) pixels.emplace_back(static_cast<float>(x), static_cast<float>(y));
    }
    cv::undistortPoints(pixels, positions, K[v], D[v], Rr[v], P[v]);
    cv::Mat map_x(h, w, CV_32FC1), map_y(h, w, CV_32FC1);
    for (int i = 0; i < w * h; ++i) {
      map_x.at<float>(i / w, i % w) = positions[i].x;
      map_y.at<float>(i / w, i % w) = positions[i].y;
    }
    cv::Mat raw;
    cv::remap(bgr_mat_from_rgb(*rectified[v]), raw, map_x, map_y, cv::INTER_LINEAR);
    rig.raw[v] = rgb_image_from_mat(raw);
  }
  return rig;
}

ViewPreparation rectifying(const StereoCalibration& calibration) {
  return [calibration](ImageRgb8& left, ImageRgb8& right, bool swapped) {
    StereoRectifier(calibration, left.width(), left.height(), 0.0, swapped).rectify(left, right);
  };
}

// The notices a checking source posts over `pairs` (left, right as the source delivers them).
std::vector<std::string> notices_for(const std::vector<std::pair<ImageRgb8, ImageRgb8>>& pairs,
                                     bool views_swapped, const ViewPreparation& prepare) {
  std::vector<std::string> notices;
  auto inner = std::make_unique<ScenePairs>(static_cast<int>(pairs.size()));
  inner->given = pairs;
  ViewOrderCheckingSource source(std::move(inner), 64, views_swapped,
                                 [&](const std::string& m) { notices.push_back(m); }, prepare);
  drain(source);
  return notices;
}

// Pairs named against their calibration (the Baumer rig's case): rectified as they come, each
// camera's maps warp the other camera's view, rows disagree and nothing matches clearly; the
// other way round they are in order, so the notice comes.
TEST(ViewOrderCheckingSource, APairNamedAgainstItsCalibrationIsSaidToBeSwapped) {
  const SyntheticFrame f = scene(2);
  const TurnedRig rig = turned_rig(f);
  const ViewPreparation prepare = rectifying(rig.calibration);
  EXPECT_TRUE(notices_for({{rig.raw[0], rig.raw[1]}}, false, prepare).empty());
  const std::vector<std::string> against = notices_for({{rig.raw[1], rig.raw[0]}}, false, prepare);
  ASSERT_EQ(against.size(), 1u);
  EXPECT_NE(against[0].find("add --swap-views"), std::string::npos) << against[0];
  // With --swap-views the source delivers them in order again: nothing to say.
  EXPECT_TRUE(notices_for({{rig.raw[0], rig.raw[1]}}, true, prepare).empty());
}

TEST(ViewOrderCheckingSource, RealRigsNamedAsCalibratedOrAgainstIt) {
  const fs::path euroc = shared_data_dir() / "euroc-v1-01-easy";
  const fs::path ximea = shared_data_dir() / "calib-ximea";
  if (!fs::is_directory(euroc) || !fs::is_directory(ximea)) {
    GTEST_SKIP() << "no shared data at " << shared_data_dir();
  }
  const ImageRgb8 cam0 = read_view(euroc / "frames/left_0.png");
  const ImageRgb8 cam1 = read_view(euroc / "frames/right_0.png");
  const ViewPreparation euroc_rectified =
      rectifying(load_stereo_calibration((euroc / "stereo_calibration.yaml").string()));
  EXPECT_TRUE(notices_for({{cam0, cam1}}, false, euroc_rectified).empty());
  EXPECT_EQ(notices_for({{cam1, cam0}}, false, euroc_rectified).size(), 1u);
  EXPECT_TRUE(notices_for({{cam0, cam1}}, true, euroc_rectified).empty());

  // calib-ximea: named as calibrated, but camera 1 is the right one.
  const ImageRgb8 left = read_view(ximea / "left07.jpg"), right = read_view(ximea / "right07.jpg");
  const ViewPreparation ximea_rectified = rectifying(load_stereo_calibration(ximea.string()));
  EXPECT_EQ(notices_for({{left, right}}, false, ximea_rectified).size(), 1u);
  EXPECT_TRUE(notices_for({{right, left}}, true, ximea_rectified).empty());
}

}  // namespace
}  // namespace sv
