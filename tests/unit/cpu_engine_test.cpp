#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <cmath>

#include "src/core/algorithm_registry.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/hole_filling.h"
#include "src/core/lr_check.h"
#include "src/core/median_filter.h"
#include "src/core/parallel_for.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/winner_takes_all.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

// Fraction of pixels in [x0, x1) x [y0, y1) whose disparity is within `tolerance` of `expected`.
double fraction_near(const ImageF32& d, float expected, float tolerance, int x0, int x1, int y0,
                     int y1) {
  int hits = 0, total = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x, ++total) {
      hits += is_valid_disparity(d.at(x, y)) && std::fabs(d.at(x, y) - expected) <= tolerance;
    }
  }
  return static_cast<double>(hits) / total;
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, ShiftedTextureGivesTheShift) {
  for (int shift : {0, 7, 19}) {
    const auto pair = test::shifted_pair(96, 48, shift, 11, 1);
    StereoParams params;
    params.algorithm = GetParam();
    params.num_disparities = 32;
    const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);
    ASSERT_EQ(r.disparity.width(), 96);
    // Interior: away from the image borders and from the left strip with no match.
    EXPECT_GT(fraction_near(r.disparity, shift, 0.25f, shift + 10, 86, 6, 42), 0.98)
        << GetParam() << " shift " << shift;
  }
}

TEST_P(EveryAlgorithm, NegativeMinimumDisparity) {
  const auto pair = test::shifted_pair(96, 48, -5, 12, 1);
  StereoParams params;
  params.algorithm = GetParam();
  params.min_disparity = -12;
  params.num_disparities = 24;
  const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_GT(fraction_near(r.disparity, -5, 0.25f, 10, 80, 6, 42), 0.98) << GetParam();
}

TEST_P(EveryAlgorithm, PyramidFindsTheShiftOnASmoothTexture) {
  const auto pair = test::shifted_pair(128, 64, 21, 13, 2);
  StereoParams params;
  params.algorithm = GetParam();
  params.num_disparities = 48;
  params.pyramid_levels = 2;
  params.refine_radius = 2;
  const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_GT(fraction_near(r.disparity, 21, 0.25f, 32, 118, 8, 56), 0.95) << GetParam();
  bool has_level_stage = false;
  for (const auto& s : r.timings.stages) has_level_stage |= s.stage.rfind("L2 ", 0) == 0;
  EXPECT_TRUE(has_level_stage);
}

// Every registered algorithm, taken from the registry so a new one is covered automatically.
std::vector<std::string> registered_algorithms() {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : algorithm_registry()) names.push_back(info.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithm, ::testing::ValuesIn(registered_algorithms()));

TEST(CpuEngine, TheRegistryHoldsTheSeedAlgorithms) {
  for (const char* name : {"census-sgm", "rank-sgm", "bm-sad", "bm-ssd", "bm-zncc"}) {
    EXPECT_NE(find_algorithm(name), nullptr) << name;
  }
}

// Background at disparity 4, a foreground slab at columns [40, 70) at disparity 12: the right
// camera cannot see background columns [32, 40) of the left image.
struct OcclusionScene {
  ImageU8 left, right;
};

OcclusionScene occlusion_scene() {
  const ImageU8 background = test::random_texture(140, 40, 21, 1);
  const ImageU8 foreground = test::random_texture(140, 40, 22, 1);
  OcclusionScene s{ImageU8(120, 40), ImageU8(120, 40)};
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 120; ++x) {
      const bool front = x >= 40 && x < 70;
      s.left.at(x, y) = front ? foreground.at(x, y) : background.at(x, y);
      const bool front_right = x + 12 >= 40 && x + 12 < 70;
      s.right.at(x, y) = front_right ? foreground.at(x + 12, y) : background.at(x + 4, y);
    }
  }
  return s;
}

TEST(CpuEngine, LeftRightCheckInvalidatesTheOccludedStrip) {
  const OcclusionScene s = occlusion_scene();
  StereoParams params;
  params.num_disparities = 24;
  params.median = 0;
  params.lr_check = true;
  params.fill_holes = false;
  const DisparityResult checked = CpuEngine().compute(s.left, s.right, params);
  int invalid_strip = 0, invalid_elsewhere = 0, elsewhere = 0;
  for (int y = 4; y < 36; ++y) {
    for (int x = 16; x < 110; ++x) {
      const bool invalid = !is_valid_disparity(checked.disparity.at(x, y));
      if (x >= 33 && x < 39) {
        invalid_strip += invalid;
      } else if (x < 30 || x > 41) {
        invalid_elsewhere += invalid;
        ++elsewhere;
      }
    }
  }
  EXPECT_GT(invalid_strip, 0.8 * 6 * 32);
  EXPECT_LT(invalid_elsewhere, 0.05 * elsewhere);

  params.lr_check = false;
  const DisparityResult unchecked = CpuEngine().compute(s.left, s.right, params);
  int invalid_without = 0;
  for (float d : unchecked.disparity.pixels()) invalid_without += !is_valid_disparity(d);
  EXPECT_LT(invalid_without, invalid_strip);
}

// "Pyramid with 0 levels equals the plain matcher": the engine at level 0 is exactly the stage
// chain census -> cost -> SGM -> WTA -> LR check -> median.
TEST(CpuEngine, ZeroPyramidLevelsEqualThePlainStageChain) {
  const auto pair = test::shifted_pair(77, 41, 6, 31, 1);
  StereoParams params;
  params.num_disparities = 20;
  params.pyramid_levels = 0;
  const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);

  const SearchRange range(params.min_disparity, params.num_disparities);
  const auto costs = census_cost_volume(census_transform(pair.left, params.census),
                                        census_transform(pair.right, params.census), range);
  SgmSettings sgm;
  sgm.paths = params.sgm_paths;
  sgm.p1 = params.p1;
  sgm.p2 = params.p2;
  const auto aggregated = sgm_aggregate(costs, pair.left, sgm);
  WtaSettings wta;
  wta.uniqueness = params.uniqueness;
  wta.subpixel = params.subpixel;
  ImageI16 expected = winner_takes_all(aggregated, wta);
  lr_check(expected, right_view_disparity(aggregated), params.lr_max_diff);
  expected = median_filter(expected, params.median);
  fill_holes(expected);
  EXPECT_EQ(r.disparity_fixed, expected);
}

TEST(CpuEngine, DeterministicForAnyThreadCount) {
  const auto pair = test::shifted_pair(83, 37, 5, 41, 1);
  StereoParams params;
  params.num_disparities = 16;
  params.pyramid_levels = 1;
  set_worker_count(1);
  const DisparityResult one = CpuEngine().compute(pair.left, pair.right, params);
  set_worker_count(5);
  const DisparityResult five = CpuEngine().compute(pair.left, pair.right, params);
  set_worker_count(0);
  EXPECT_EQ(one.disparity_fixed, five.disparity_fixed);
}

TEST(CpuEngine, OutputMarksInvalidPixelsWithInfinity) {
  const OcclusionScene s = occlusion_scene();
  StereoParams params;
  params.num_disparities = 24;
  params.fill_holes = false;
  const DisparityResult r = CpuEngine().compute(s.left, s.right, params);
  int invalid = 0;
  for (size_t i = 0; i < r.disparity.size(); ++i) {
    const bool fixed_invalid = !is_valid_fixed_disparity(r.disparity_fixed.data()[i]);
    EXPECT_EQ(fixed_invalid, std::isinf(r.disparity.data()[i]));
    if (!fixed_invalid) {
      EXPECT_EQ(r.disparity.data()[i] * kDisparityScale, r.disparity_fixed.data()[i]);
    }
    invalid += fixed_invalid;
  }
  EXPECT_GT(invalid, 0);
}

TEST(CpuEngine, RejectsBadInputWithClearMessages) {
  CpuEngine engine;
  StereoParams params;
  try {
    engine.compute(ImageU8(40, 30), ImageU8(40, 31), params);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "left and right images differ in size: 40x30 vs 40x31");
  }
  params.window = 4;
  EXPECT_THROW(engine.compute(ImageU8(40, 30), ImageU8(40, 30), params), InputError);
  params = StereoParams{};
  params.pyramid_levels = 3;
  EXPECT_THROW(engine.compute(ImageU8(40, 30), ImageU8(40, 30), params), InputError);
  EXPECT_THROW(engine.compute(ImageU8(), ImageU8(), StereoParams{}), InputError);
}

TEST(CpuEngine, TimingsNameEveryStage) {
  const auto pair = test::shifted_pair(64, 32, 3, 5, 1);
  StereoParams params;
  params.num_disparities = 16;
  const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);
  std::vector<std::string> names;
  for (const auto& s : r.timings.stages) names.push_back(s.stage);
  for (const char* stage : {"census", "cost", "sgm", "wta", "lr-check", "median", "fill"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), stage), names.end()) << stage;
  }
  EXPECT_GT(r.timings.total_ms(), 0.0);
}

}  // namespace
}  // namespace sv
