// Region statistics (a rectangle drawn on a view): hand-worked values, then the synthetic
// scene's back wall and eval's bad-1 over the same pixels.
#include "src/core/region_statistics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/evaluation.h"
#include "tests/support/synthetic_frames.h"

namespace sv {
namespace {

TEST(RegionStatistics, CountsAndMomentsByHand) {
  // 2x2 rectangle at (1, 1) of a 4x3 map: 2, 4, 6 and one invalid.
  ImageF32 d(4, 3, 100.0f);
  d.at(1, 1) = 2.0f, d.at(2, 1) = 4.0f, d.at(1, 2) = 6.0f, d.at(2, 2) = kInvalidDisparity;
  const RegionStatistics s = region_statistics(d, RegionRect{1, 1, 2, 2}, 100.0, 0.5);
  EXPECT_EQ(s.pixels, 4);
  EXPECT_EQ(s.valid, 3);
  EXPECT_DOUBLE_EQ(s.valid_fraction, 0.75);
  EXPECT_DOUBLE_EQ(s.mean, 4.0);
  EXPECT_DOUBLE_EQ(s.median, 4.0);
  EXPECT_DOUBLE_EQ(s.std_dev, std::sqrt(8.0 / 3.0));
  ASSERT_TRUE(s.has_depth);
  EXPECT_EQ(s.depth_pixels, 3);
  EXPECT_DOUBLE_EQ(s.mean_depth, (25.0 + 12.5 + 50.0 / 6.0) / 3.0);  // Z = 50 / d
  EXPECT_DOUBLE_EQ(s.median_depth, 12.5);
  // Three points define the plane exactly: d = 2 (x - 1) + 4 (y - 1) + 2.
  ASSERT_TRUE(s.plane_fitted);
  EXPECT_NEAR(s.plane_a, 2.0, 1e-9);
  EXPECT_NEAR(s.plane_b, 4.0, 1e-9);
  EXPECT_NEAR(s.plane_c, -4.0, 1e-9);
  EXPECT_NEAR(s.plane_rms, 0.0, 1e-9);
  EXPECT_FALSE(s.has_truth);
}

TEST(RegionStatistics, PlaneFitOfATiltedPlaneWithKnownNoise) {
  // d = 0.1 x - 0.05 y + 20 plus +-0.25 alternating: the residual RMS is 0.25.
  ImageF32 d(40, 30);
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) d.at(x, y) = 0.1f * x - 0.05f * y + 20.0f + ((x + y) % 2 ? 0.25f : -0.25f);
  const RegionStatistics s = region_statistics(d, RegionRect{-5, -5, 100, 100});
  EXPECT_EQ(s.rect.width, 40);
  EXPECT_EQ(s.rect.height, 30);
  EXPECT_NEAR(s.plane_a, 0.1, 1e-4);
  EXPECT_NEAR(s.plane_b, -0.05, 1e-4);
  EXPECT_NEAR(s.plane_rms, 0.25, 1e-3);
  EXPECT_FALSE(s.has_depth);
}

TEST(RegionStatistics, EdgeCases) {
  ImageF32 d(5, 5, kInvalidDisparity);
  EXPECT_EQ(region_statistics(d, RegionRect{7, 7, 3, 3}).pixels, 0);  // outside
  EXPECT_EQ(region_statistics(d, RegionRect{1, 1, 0, 3}).pixels, 0);  // empty
  const RegionStatistics none = region_statistics(d, RegionRect{0, 0, 5, 5});
  EXPECT_EQ(none.valid, 0);
  EXPECT_FALSE(none.plane_fitted);
  d.at(0, 0) = 1.0f, d.at(1, 1) = 2.0f, d.at(2, 2) = 3.0f;  // three points on one line
  EXPECT_FALSE(region_statistics(d, RegionRect{0, 0, 5, 5}).plane_fitted);
  const ImageF32 other(4, 5);
  EXPECT_THROW(region_statistics(d, RegionRect{0, 0, 2, 2}, 0, 0, &other), InputError);
  EXPECT_EQ(clip_rect(RegionRect{-2147483647, 0, 2147483647, 2}, 5, 5).width, 0);
}

// The back wall (depth 10, disparity D / 10) right of the floating cube at 320x240, frame 0.
const RegionRect kWallRect{270, 10, 40, 100};

TEST(RegionStatistics, TheBackWallComesOutFlat) {
  const SyntheticFrame frame = test::render_synthetic(320, 240, 64, 0);
  for (int y = kWallRect.y; y < kWallRect.y + kWallRect.height; ++y)
    for (int x = kWallRect.x; x < kWallRect.x + kWallRect.width; ++x)
      ASSERT_FLOAT_EQ(frame.ground_truth.at(x, y), 6.4f) << "not the wall at " << x << "," << y;
  StereoParams params;
  params.num_disparities = 64;
  const ImageF32 d = CpuEngine().compute(frame.left, frame.right, params).disparity;
  const RegionStatistics s = region_statistics(d, kWallRect, 0, 0, &frame.ground_truth);
  EXPECT_EQ(s.valid, s.pixels);
  ASSERT_TRUE(s.plane_fitted);
  EXPECT_LT(s.plane_rms, 0.1);
  EXPECT_NEAR(s.plane_a, 0.0, 0.01);  // fronto-parallel
  EXPECT_NEAR(s.plane_b, 0.0, 0.01);
  EXPECT_EQ(s.truth_pixels, s.pixels);
  EXPECT_EQ(s.bad_1, 0.0);
}

TEST(RegionStatistics, BadPixelsEqualEvalOnTheSamePixels) {
  const SyntheticFrame frame = test::render_synthetic(320, 240, 64, 7);
  StereoParams params;
  params.num_disparities = 64;
  params.fill_holes = false;
  const ImageF32 d = CpuEngine().compute(frame.left, frame.right, params).disparity;
  // Around the near post and the sphere: occlusions, edges and holes.
  for (const RegionRect rect : {RegionRect{40, 60, 120, 150}, RegionRect{150, 120, 100, 100},
                               RegionRect{0, 0, 320, 240}}) {
    const RegionStatistics s = region_statistics(d, rect, 0, 0, &frame.ground_truth);
    EvaluationMasks masks;
    masks.all = ImageU8(320, 240, 0);
    for (int y = rect.y; y < rect.y + rect.height; ++y)
      for (int x = rect.x; x < rect.x + rect.width; ++x) masks.all.at(x, y) = 255;
    const DisparityEvaluation evaluation = evaluate_disparity(d, frame.ground_truth, masks);
    const RegionErrors& eval = *evaluation.find("all");
    ASSERT_GT(s.bad_1, 0.0);
    EXPECT_EQ(s.truth_pixels, eval.pixels);
    EXPECT_DOUBLE_EQ(s.bad_1, eval.bad_1);
    EXPECT_DOUBLE_EQ(s.bad_2, eval.bad_2);
  }
}

}  // namespace
}  // namespace sv
