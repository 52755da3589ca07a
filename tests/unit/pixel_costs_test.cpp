// The cost-curve probe (ResultParts::probe, PixelCosts): its numbers are the engine's own. On the
// reference engine, the curves equal the cost and aggregated volumes its stages compute, the
// selection equals winner_takes_all's and the final value the frame's result; on constructed
// pairs, each rejection gets its stage's reason; the SIMD engine's probe equals the reference's.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "src/core/algorithm_registry.h"
#include "src/core/block_matching.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cpu_engine.h"
#include "src/core/pixel_costs.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/winner_takes_all.h"
#include "tests/support/probe_compare.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"
#ifdef SV_TEST_FAST_CPU
#include "src/cpu_fast/fast_cpu_engine.h"
#endif

namespace sv {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct GrayPair {
  ImageU8 left, right;
};

GrayPair synthetic_pair(int width, int height, int max_disparity) {
  const SyntheticFrame frame = test::render_synthetic(width, height, max_disparity, 0);
  return {to_gray(frame.left), to_gray(frame.right)};
}

DisparityResult probe_frame(StereoEngine& engine, const GrayPair& pair, const StereoParams& params,
                            ProbePixel pixel) {
  FrameRequest request;
  request.pair = PairView::of(pair.left, pair.right);
  request.params = params;
  request.want = ResultParts::fixed_only();
  request.want.probe = pixel;
  return engine.compute(request);
}

// No filter after the selection, so the selection's value is the result's.
StereoParams selection_only(StereoParams params) {
  params.median = 0;
  params.fill_holes = false;
  params.speckle_size = 0;
  return params;
}

const std::vector<ProbePixel> kPixels = {{0, 0}, {5, 7}, {40, 20}, {63, 31}, {70, 47}, {95, 12}};

TEST(PixelCosts, CensusSgmCurvesAreTheReferenceStagesVolumes) {
  const GrayPair pair = synthetic_pair(96, 48, 24);
  StereoParams params;
  params.num_disparities = 32;
  const CensusImage census_left = census_transform(pair.left, params.census);
  const CensusImage census_right = census_transform(pair.right, params.census);
  const SearchRange range(params.min_disparity, params.num_disparities);
  const CostVolume<uint8_t> costs = census_cost_volume(census_left, census_right, range);
  const CostVolume<uint16_t> aggregated = sgm_aggregate(costs, pair.left, sgm_settings(params));
  WtaSettings wta;
  wta.uniqueness = params.uniqueness;
  wta.subpixel = params.subpixel;
  const ImageI16 selected = winner_takes_all(aggregated, wta);

  CpuEngine engine;
  for (const ProbePixel& p : kPixels) {
    SCOPED_TRACE("pixel " + std::to_string(p.x) + ", " + std::to_string(p.y));
    const DisparityResult result = probe_frame(engine, pair, params, p);
    ASSERT_TRUE(result.probe.has_value());
    const PixelCosts& probe = *result.probe;
    ASSERT_TRUE(probe.available()) << probe.unavailable;
    EXPECT_EQ(probe.base, params.min_disparity);
    ASSERT_EQ(probe.matching.size(), 32u);
    ASSERT_EQ(probe.aggregated.size(), 32u);
    for (int k = 0; k < 32; ++k) {
      EXPECT_EQ(probe.matching[k], costs.at(p.x, p.y, k)) << "k " << k;
      EXPECT_EQ(probe.aggregated[k], aggregated.at(p.x, p.y, k)) << "k " << k;
    }
    EXPECT_EQ(probe.matching_name, "census");
    EXPECT_EQ(probe.aggregated_name, "SGM, 8 paths");
    EXPECT_EQ(probe.selection.disparity, selected.at(p.x, p.y));
    EXPECT_EQ(probe.final_disparity, result.disparity_fixed.at(p.x, p.y));
  }
}

TEST(PixelCosts, FinalValueIsTheResultForEveryAlgorithmAndFilter) {
  const GrayPair pair = synthetic_pair(64, 40, 12);
  CpuEngine engine;
  for (const AlgorithmInfo& algorithm : algorithm_registry()) {
    StereoParams params;
    params.algorithm = algorithm.name;
    params.num_disparities = 16;
    params.esaw_iterations = 3;
    params.speckle_size = 30;
    for (const ProbePixel p : {ProbePixel{3, 3}, ProbePixel{30, 20}, ProbePixel{60, 35}}) {
      SCOPED_TRACE(algorithm.name + " pixel " + std::to_string(p.x) + ", " + std::to_string(p.y));
      const DisparityResult result = probe_frame(engine, pair, params, p);
      ASSERT_TRUE(result.probe && result.probe->available());
      const PixelCosts& probe = *result.probe;
      EXPECT_EQ(probe.matching.size(), 16u);
      const bool aggregates = algorithm.aggregation != Aggregation::Window;
      EXPECT_EQ(probe.aggregated.size(), aggregates ? 16u : 0u);
      EXPECT_EQ(probe.final_disparity, result.disparity_fixed.at(p.x, p.y));
      EXPECT_EQ(is_valid_fixed_disparity(probe.final_disparity),
                probe.reason == InvalidReason::None);
    }
  }
}

TEST(PixelCosts, BlockMatchingCurveIsTheWindowSumVolume) {
  const test::ShiftedPair pair = test::shifted_pair(48, 24, 5, 3);
  StereoParams params = selection_only(StereoParams());
  params.algorithm = "bm-sad";
  params.num_disparities = 16;
  params.lr_check = false;
  const CostVolume<uint32_t> costs =
      sad_cost_volume(pair.left, pair.right, params.window, SearchRange(0, 16));
  CpuEngine engine;
  const ProbePixel p{20, 12};
  const DisparityResult result = probe_frame(engine, {pair.left, pair.right}, params, p);
  const PixelCosts& probe = *result.probe;
  ASSERT_EQ(probe.matching.size(), 16u);
  for (int k = 0; k < 16; ++k) EXPECT_EQ(probe.matching[k], costs.at(p.x, p.y, k)) << k;
  EXPECT_TRUE(probe.aggregated.empty());
  EXPECT_EQ(probe.selection.best, 5);
  EXPECT_EQ(probe.selection.best_cost, 0.0);
  EXPECT_EQ(probe.final_disparity, result.disparity_fixed.at(p.x, p.y));
}

TEST(PixelCosts, PyramidProbeUsesTheFinalLevelsPerPixelBase) {
  const GrayPair pair = synthetic_pair(96, 64, 20);
  StereoParams params = selection_only(StereoParams());
  params.pyramid_levels = 2;
  params.refine_radius = 3;
  CpuEngine engine;
  const ProbePixel p{50, 30};
  const DisparityResult result = probe_frame(engine, pair, params, p);
  const PixelCosts& probe = *result.probe;
  ASSERT_EQ(probe.matching.size(), 7u);  // 2 * radius + 1 candidates around the predictor
  ASSERT_TRUE(is_valid_fixed_disparity(probe.final_disparity));
  EXPECT_EQ(probe.final_disparity, result.disparity_fixed.at(p.x, p.y));
  EXPECT_EQ(probe.base + probe.selection.best,
            (probe.final_disparity - probe.selection.fit.offset) / kDisparityScale);
}

// explain_selection makes winner_takes_all's decision at every pixel, whatever the cost type.
template <typename T>
void expect_same_decisions(const CostVolume<T>& costs, const WtaSettings& wta) {
  const ImageI16 selected = winner_takes_all(costs, wta);
  for (int y = 0; y < costs.height(); ++y) {
    for (int x = 0; x < costs.width(); ++x) {
      const PixelSelection s =
          explain_selection(costs.pixel(x, y), costs.count(), costs.range().base(x, y), wta);
      ASSERT_EQ(s.disparity, selected.at(x, y)) << x << ", " << y;
      ASSERT_EQ(s.reason == InvalidReason::None, is_valid_fixed_disparity(s.disparity));
    }
  }
}

TEST(PixelCosts, ExplainedSelectionIsTheWinnerTakesAllsOnEveryType) {
  const int width = 23, height = 9, count = 13;
  CostVolume<uint8_t> bytes(width, height, SearchRange(-3, count));
  CostVolume<uint16_t> words(width, height, SearchRange(2, count));
  CostVolume<uint32_t> sums(width, height, SearchRange(0, count));
  CostVolume<float> floats(width, height, SearchRange(0, count));
  for (size_t i = 0; i < bytes.costs().size(); ++i) {
    const uint8_t h = test::hash_value(static_cast<uint32_t>(i), 1, 7);
    bytes.costs()[i] = static_cast<uint8_t>(h % 9);  // many ties
    words.costs()[i] = static_cast<uint16_t>(h * 3);
    sums.costs()[i] = h % 17 == 0 ? kBlockMatchingOutsideCost : h;
    floats.costs()[i] = h % 19 == 0 ? std::numeric_limits<float>::infinity() : h * 0.37f;
  }
  for (const int uniqueness : {0, 5, 30}) {
    for (const bool subpixel : {false, true}) {
      WtaSettings wta;
      wta.uniqueness = uniqueness;
      wta.subpixel = subpixel;
      expect_same_decisions(bytes, wta);
      expect_same_decisions(words, wta);
      expect_same_decisions(floats, wta);
      wta.max_cost = 60.0;
      expect_same_decisions(sums, wta);
    }
  }
}

TEST(PixelCosts, SelectionNumbersOnAKnownCurve) {
  // Winner k = 4 (cost 10); the rival more than one candidate away is k = 0 (cost 16).
  const uint16_t costs[] = {16, 30, 40, 22, 10, 14, 30, 50};
  WtaSettings wta;
  wta.uniqueness = 10;
  const PixelSelection s = explain_selection(costs, 8, 5, wta);
  EXPECT_EQ(s.best, 4);
  EXPECT_EQ(s.second, 0);
  EXPECT_EQ(s.best_cost, 10.0);
  EXPECT_EQ(s.second_cost, 16.0);
  EXPECT_DOUBLE_EQ(s.uniqueness_ratio, 10.0 / 16.0);
  ASSERT_TRUE(s.fit.fitted);
  EXPECT_EQ(s.fit.before, 22.0);
  EXPECT_EQ(s.fit.at, 10.0);
  EXPECT_EQ(s.fit.after, 14.0);
  // Parabola through (-1, 22), (0, 10), (1, 14): vertex at (22 - 14) / (2 * 16) = 0.25 px.
  EXPECT_DOUBLE_EQ(s.fit.vertex, 0.25);
  EXPECT_EQ(s.fit.offset, 4);
  EXPECT_EQ(s.disparity, (5 + 4) * 16 + 4);
  EXPECT_EQ(s.reason, InvalidReason::None);

  wta.uniqueness = 40;  // 16 * 60 < 10 * 100: the rival is too close
  const PixelSelection rejected = explain_selection(costs, 8, 5, wta);
  EXPECT_EQ(rejected.reason, InvalidReason::Uniqueness);
  EXPECT_FALSE(is_valid_fixed_disparity(rejected.disparity));
  EXPECT_EQ(rejected.best, 4);  // the numbers stay for the plot
  EXPECT_EQ(rejected.second, 0);

  const uint32_t outside[] = {kBlockMatchingOutsideCost, kBlockMatchingOutsideCost};
  const PixelSelection none = explain_selection(outside, 2, 0, WtaSettings());
  EXPECT_EQ(none.reason, InvalidReason::NoCost);
  EXPECT_EQ(none.best_cost, kInf);
}

// ---- invalidation reasons through the engine, on constructed pairs

TEST(PixelCosts, RepeatingPatternFailsUniqueness) {
  // Stripes repeating every 6 px, the right view 3 levels brighter: d = 2, 8 and 14 all cost
  // 3 per window pixel (a tie above 0, which the uniqueness rule rejects).
  ImageU8 left(64, 24), right(64, 24);
  for (int y = 0; y < 24; ++y) {
    for (int x = 0; x < 64; ++x) {
      left.at(x, y) = static_cast<uint8_t>((x % 6) * 40);
      right.at(x, y) = static_cast<uint8_t>(((x + 2) % 6) * 40 + 3);
    }
  }
  StereoParams params = selection_only(StereoParams());
  params.algorithm = "bm-sad";
  params.num_disparities = 16;
  params.lr_check = false;
  params.uniqueness = 5;
  CpuEngine engine;
  const DisparityResult result = probe_frame(engine, {left, right}, params, {32, 12});
  const PixelCosts& probe = *result.probe;
  EXPECT_EQ(probe.reason, InvalidReason::Uniqueness);
  EXPECT_FALSE(is_valid_fixed_disparity(result.disparity_fixed.at(32, 12)));
  EXPECT_EQ(probe.selection.best, 2);
  EXPECT_EQ(probe.selection.second, 8);
  EXPECT_EQ(probe.selection.best_cost, 3.0 * 81);
  EXPECT_EQ(probe.selection.second_cost, 3.0 * 81);
  EXPECT_EQ(probe.selection.uniqueness_ratio, 1.0);
  params.uniqueness = 0;
  EXPECT_EQ(probe_frame(engine, {left, right}, params, {32, 12}).probe->reason,
            InvalidReason::None);
}

TEST(PixelCosts, OccludedBorderFailsTheLrCheck) {
  // Left pixels x < 6 have no match in the right view; the right view's pixels they would pick
  // are claimed by their true matches, so the LR check rejects them.
  const test::ShiftedPair pair = test::shifted_pair(64, 24, 6, 11);
  StereoParams params = selection_only(StereoParams());
  params.num_disparities = 16;
  params.uniqueness = 0;
  CpuEngine engine;
  int rejected = 0;
  for (int x = 0; x < 6; ++x) {
    const DisparityResult result = probe_frame(engine, {pair.left, pair.right}, params, {x, 12});
    const PixelCosts& probe = *result.probe;
    EXPECT_TRUE(is_valid_fixed_disparity(probe.selection.disparity));
    if (probe.reason == InvalidReason::LrCheck) {
      ++rejected;
      EXPECT_FALSE(is_valid_fixed_disparity(result.disparity_fixed.at(x, 12)));
    }
  }
  EXPECT_GE(rejected, 3);
  // Hole filling gives the rejected pixels a value again: valid, nothing to blame.
  params.fill_holes = true;
  for (int x = 0; x < 6; ++x) {
    const DisparityResult filled = probe_frame(engine, {pair.left, pair.right}, params, {x, 12});
    EXPECT_TRUE(is_valid_fixed_disparity(filled.probe->final_disparity));
    EXPECT_EQ(filled.probe->reason, InvalidReason::None);
  }
  params.fill_holes = false;
  const DisparityResult inside = probe_frame(engine, {pair.left, pair.right}, params, {30, 12});
  EXPECT_EQ(inside.probe->reason, InvalidReason::None);
  EXPECT_EQ(inside.probe->final_disparity, 6 * 16);
}

TEST(PixelCosts, OutOfImageCandidatesAndCostLimitAndLaterStages) {
  const test::ShiftedPair pair = test::shifted_pair(64, 24, 5, 5);
  CpuEngine engine;
  StereoParams params = selection_only(StereoParams());
  params.algorithm = "bm-sad";
  params.lr_check = false;
  params.min_disparity = 20;
  params.num_disparities = 8;
  // x = 10: every candidate's window lies outside the right image.
  EXPECT_EQ(probe_frame(engine, {pair.left, pair.right}, params, {10, 12}).probe->reason,
            InvalidReason::NoCost);

  params.min_disparity = 0;
  params.bm_max_cost = 0.5f;  // the noise-free match costs 0 at d = 5, so shift the right view
  GrayPair noisy{pair.left, pair.right};
  for (size_t i = 0; i < noisy.right.size(); ++i) noisy.right.data()[i] ^= 0x10;
  EXPECT_EQ(probe_frame(engine, noisy, params, {30, 12}).probe->reason, InvalidReason::CostLimit);

  StereoParams sgm = selection_only(StereoParams());
  sgm.num_disparities = 16;
  sgm.speckle_size = 100000;  // every region is smaller
  const DisparityResult speckled = probe_frame(engine, {pair.left, pair.right}, sgm, {30, 12});
  EXPECT_EQ(speckled.probe->reason, InvalidReason::Speckle);
  EXPECT_TRUE(is_valid_fixed_disparity(speckled.probe->selection.disparity));

  sgm.speckle_size = 0;
  sgm.lr_check = false;
  sgm.uniqueness = 0;
  sgm.confidence_threshold = 1.0f;  // nothing on the noisy pair is that confident
  const DisparityResult doubted = probe_frame(engine, noisy, sgm, {30, 12});
  EXPECT_TRUE(is_valid_fixed_disparity(doubted.probe->selection.disparity));
  EXPECT_FALSE(is_valid_fixed_disparity(doubted.disparity_fixed.at(30, 12)));
  EXPECT_EQ(doubted.probe->reason, InvalidReason::Confidence);

}

TEST(PixelCosts, PixelOutsideTheImageIsReportedNotThrown) {
  const GrayPair pair = synthetic_pair(32, 16, 8);
  StereoParams params;
  params.num_disparities = 16;
  CpuEngine engine;
  const DisparityResult result = probe_frame(engine, pair, params, {32, 3});
  ASSERT_TRUE(result.probe.has_value());
  EXPECT_EQ(result.probe->unavailable, "(32, 3) lies outside the 32x16 image");
  EXPECT_TRUE(result.probe->matching.empty());
  EXPECT_EQ(result.disparity_fixed.width(), 32);
}

TEST(PixelCosts, NoProbeUnlessAsked) {
  const GrayPair pair = synthetic_pair(32, 16, 8);
  StereoParams params;
  params.num_disparities = 16;
  CpuEngine engine;
  EXPECT_FALSE(engine.compute(pair.left, pair.right, params).probe.has_value());
}

#ifdef SV_TEST_FAST_CPU
TEST(PixelCosts, SimdEngineProbeEqualsTheReferences) {
  const GrayPair pair = synthetic_pair(96, 64, 30);
  std::vector<std::pair<std::string, StereoParams>> cases;
  StereoParams defaults;
  cases.push_back({"defaults", defaults});
  StereoParams four = defaults;
  four.sgm_paths = 4;
  four.num_disparities = 128;
  four.uniqueness = 30;
  cases.push_back({"4 paths D128 uniqueness 30", four});
  StereoParams pyramid = defaults;
  pyramid.pyramid_levels = 1;
  pyramid.speckle_size = 40;
  cases.push_back({"pyramid, speckles", pyramid});
  StereoParams shifted = defaults;
  shifted.min_disparity = -5;
  shifted.num_disparities = 37;
  shifted.median = 5;
  cases.push_back({"min -5 D37 median 5", shifted});
  // Block matching SAD runs through the SIMD window sums too.
  StereoParams sad = defaults;
  sad.algorithm = "bm-sad";
  sad.window = 7;
  sad.uniqueness = 20;
  cases.push_back({"bm-sad window 7 uniqueness 20", sad});
  StereoParams sad_pyramid = sad;
  sad_pyramid.pyramid_levels = 1;
  cases.push_back({"bm-sad pyramid", sad_pyramid});

  FastCpuEngine fast;
  CpuEngine reference;
  for (const auto& [name, params] : cases) {
    ASSERT_TRUE(FastCpuEngine::accelerates(params)) << name;
    for (const ProbePixel p : {ProbePixel{0, 0}, ProbePixel{2, 40}, ProbePixel{48, 32},
                               ProbePixel{95, 63}, ProbePixel{70, 9}}) {
      SCOPED_TRACE(name + " pixel " + std::to_string(p.x) + ", " + std::to_string(p.y));
      const DisparityResult a = probe_frame(fast, pair, params, p);
      const DisparityResult b = probe_frame(reference, pair, params, p);
      ASSERT_TRUE(a.probe && b.probe);
      ASSERT_TRUE(b.probe->available());
      test::expect_same_probe(*a.probe, *b.probe);
      EXPECT_EQ(a.probe->final_disparity, a.disparity_fixed.at(p.x, p.y));
    }
  }
}
#endif

}  // namespace
}  // namespace sv
