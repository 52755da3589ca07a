// The fast CPU engine (--engine cpu) against the CPU reference engine (--engine reference): the
// whole pipeline's fixed-point and float disparities bit for bit, for every census window, input
// depth, path count, disparity count and minimum, pyramid (per-pixel ranges) and post-filter
// setting, and block-matching SAD for windows, ranges and its own settings, on awkward sizes, on the CPU's best SIMD target and pinned to the baseline target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "hwy/highway.h"
#include "hwy/targets.h"
#include "src/core/cpu_engine.h"
#include "src/core/cpu_frame_cost.h"
#include "src/core/error.h"
#include "src/core/frame_budget.h"
#include "src/core/high_bit_depth.h"
#include "src/core/parallel_for.h"
#include "src/core/synthetic_scene.h"
#include "src/cpu_fast/fast_cpu_engine.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

struct Case {
  std::string name;
  std::function<void(StereoParams&)> tweak;
};

// The parameter variants the GPU engine tests cover, each on top of the defaults.
std::vector<Case> parameter_cases() {
  std::vector<Case> cases = {
      {"defaults", [](StereoParams&) {}},
      {"4 paths", [](StereoParams& p) { p.sgm_paths = 4; }},
      {"min -8 D37", [](StereoParams& p) { p.min_disparity = -8; p.num_disparities = 37; }},
      {"min 5 D1", [](StereoParams& p) { p.min_disparity = 5; p.num_disparities = 1; }},
      {"D128 adaptive P2", [](StereoParams& p) { p.num_disparities = 128; p.adaptive_p2 = true; }},
      {"D256 4 paths", [](StereoParams& p) { p.num_disparities = 256; p.sgm_paths = 4; }},
      {"no subpixel, no uniqueness, no LR", [](StereoParams& p) {
         p.subpixel = false; p.uniqueness = 0; p.lr_check = false; }},
      {"uniqueness 40, LR 0, median 5, speckles, no fill", [](StereoParams& p) {
         p.uniqueness = 40; p.lr_max_diff = 0; p.median = 5; p.speckle_size = 20;
         p.fill_holes = false; }},
      {"pyramid 1 radius 2", [](StereoParams& p) { p.pyramid_levels = 1; }},
      {"pyramid 2 radius 3 min -4", [](StereoParams& p) {
         p.pyramid_levels = 2; p.refine_radius = 3; p.min_disparity = -4; }},
      {"missing 0", [](StereoParams& p) { p.missing_value = 0; }},
  };
  for (const CensusWindow window : {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x9,
                                    CensusWindow::W11x11}) {
    cases.push_back({std::string("window ") + census_window_name(window),
                     [window](StereoParams& p) { p.census = window; }});
  }
  return cases;
}

// Block-matching SAD variants, each on top of the defaults with algorithm bm-sad.
std::vector<Case> sad_cases() {
  const auto sad = [](std::function<void(StereoParams&)> tweak) {
    return [tweak](StereoParams& p) {
      p.algorithm = "bm-sad";
      tweak(p);
    };
  };
  return {
      {"bm-sad defaults", sad([](StereoParams&) {})},
      {"bm-sad window 3 min -8 D37", sad([](StereoParams& p) {
         p.window = 3; p.min_disparity = -8; p.num_disparities = 37; })},
      {"bm-sad window 21 D128", sad([](StereoParams& p) { p.window = 21; p.num_disparities = 128; })},
      {"bm-sad window 5 min 5 D1", sad([](StereoParams& p) {
         p.window = 5; p.min_disparity = 5; p.num_disparities = 1; })},
      {"bm-sad max cost 6, uniqueness 30, no LR", sad([](StereoParams& p) {
         p.bm_max_cost = 6.0f; p.uniqueness = 30; p.lr_check = false; })},
      {"bm-sad no subpixel, median 5, speckles", sad([](StereoParams& p) {
         p.subpixel = false; p.median = 5; p.speckle_size = 20; })},
      {"bm-sad pyramid 1", sad([](StereoParams& p) { p.pyramid_levels = 1; })},
      {"bm-sad pyramid 2 radius 3 min -4", sad([](StereoParams& p) {
         p.pyramid_levels = 2; p.refine_radius = 3; p.min_disparity = -4; })},
  };
}

void expect_same(const DisparityResult& fast, const DisparityResult& reference, const std::string& what) {
  if (reference.disparity_fixed.empty()) return;  // refused by both (matched_or_refused)
  EXPECT_TRUE(fast.disparity_fixed == reference.disparity_fixed) << what;
  EXPECT_EQ(fast.disparity.size(), reference.disparity.size()) << what;
  EXPECT_EQ(0, std::memcmp(fast.disparity.data(), reference.disparity.data(),
                           sizeof(float) * fast.disparity.size())) << what;
}

// Both engines' results, or two empty ones when the reference refuses the input (a pyramid
// deeper than the image allows) and the fast engine refuses it too.
template <typename Image>
std::pair<DisparityResult, DisparityResult> matched_or_refused(StereoEngine& fast, StereoEngine& reference,
                                                               const Image& left, const Image& right,
                                                               const StereoParams& params,
                                                               const std::string& what) {
  try {
    DisparityResult expected = reference.compute(left, right, params);
    return {fast.compute(left, right, params), std::move(expected)};
  } catch (const InputError&) {
    EXPECT_THROW(fast.compute(left, right, params), InputError) << what;
    return {};
  }
}

// A textured pair with some zero pixels, so "missing 0" has something to mark.
test::ShiftedPair pair_of(int width, int height) {
  test::ShiftedPair pair = test::shifted_pair(width, height, 7, 21, 1);
  for (ImageU8* image : {&pair.left, &pair.right}) {
    for (size_t i = 0; i < image->size(); i += 13) image->data()[i] = 0;
  }
  return pair;
}

void check_every_case(int width, int height, const std::string& target) {
  const test::ShiftedPair pair = pair_of(width, height);
  FastCpuEngine fast;
  CpuEngine reference;
  std::vector<Case> cases = parameter_cases();
  for (Case& c : sad_cases()) cases.push_back(std::move(c));
  for (const Case& c : cases) {
    StereoParams params;
    c.tweak(params);
    const std::string what = target + " " + std::to_string(width) + "x" + std::to_string(height) + " " + c.name;
    ASSERT_TRUE(FastCpuEngine::accelerates(params)) << what;
    const auto [got, expected] = matched_or_refused(fast, reference, pair.left, pair.right, params, what);
    expect_same(got, expected, what);
  }
}

TEST(FastCpuEngine, EqualsTheReferenceForEveryCaseOnTheBestTarget) {
  check_every_case(33, 17, fast_cpu_target_name());
  check_every_case(97, 45, fast_cpu_target_name());
}

// A single row, a single column and a single pixel (the sweeps' paths start and end at once,
// the pyramid refuses them like the reference), on one thread and on two (the sweeps in turn,
// or side by side meeting somewhere).
TEST(FastCpuEngine, EqualsTheReferenceOnOneRowOrColumnForOneAndTwoThreads) {
  for (const int threads : {1, 2}) {
    set_worker_count(threads);
    const std::string target = fast_cpu_target_name() + " threads " + std::to_string(threads);
    check_every_case(1, 23, target);
    check_every_case(29, 1, target);
    check_every_case(1, 1, target);
    check_every_case(97, 45, target);
  }
  set_worker_count(0);
}

// The baseline target Highway falls back to on a CPU without SIMD support it knows.
TEST(FastCpuEngine, EqualsTheReferenceForEveryCaseOnTheBaselineTarget) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  hwy::SetSupportedTargetsForTest(targets.back());
  const std::string name = fast_cpu_target_name();
  EXPECT_EQ(name, hwy::TargetName(targets.back()));
  check_every_case(33, 17, name);
  check_every_case(97, 45, name);
  hwy::SetSupportedTargetsForTest(0);
}

// The viewer's default scene at camera sizes: a real image, many threads' worth of rows.
TEST(FastCpuEngine, EqualsTheReferenceOnTheSyntheticSceneAtCameraSizes) {
  FastCpuEngine fast;
  CpuEngine reference;
  StereoParams params;
  params.num_disparities = 64;
  const SyntheticFrame vga = test::render_synthetic(640, 480, 60, 0);
  expect_same(fast.compute(to_gray(vga.left), to_gray(vga.right), params),
              reference.compute(to_gray(vga.left), to_gray(vga.right), params), "640x480 D64");
  StereoParams sad;
  sad.algorithm = "bm-sad";
  sad.num_disparities = 64;
  expect_same(fast.compute(to_gray(vga.left), to_gray(vga.right), sad),
              reference.compute(to_gray(vga.left), to_gray(vga.right), sad), "640x480 bm-sad D64");
  params.num_disparities = 8;
  params.sgm_paths = 4;
  const SyntheticFrame hd = test::render_synthetic(1920, 1080, 7, 0);
  expect_same(fast.compute(to_gray(hd.left), to_gray(hd.right), params),
              reference.compute(to_gray(hd.left), to_gray(hd.right), params), "1920x1080 D8 4 paths");
}

TEST(FastCpuEngine, SixteenBitAndFloatInputEqualTheReference) {
  FastCpuEngine fast;
  CpuEngine reference;
  const test::ShiftedPair16 pair16 = test::low_byte_shifted_pair(61, 37, 4, 9);
  const ImageF32 leftf = [&] {
    ImageF32 image(61, 37);
    for (size_t i = 0; i < image.size(); ++i) image.data()[i] = pair16.left.data()[i] / 7.0f;
    image.data()[5] = std::numeric_limits<float>::quiet_NaN();
    return image;
  }();
  const ImageF32 rightf = [&] {
    ImageF32 image(61, 37);
    for (size_t i = 0; i < image.size(); ++i) image.data()[i] = pair16.right.data()[i] / 7.0f;
    return image;
  }();
  for (const Case& c : parameter_cases()) {
    StereoParams params;
    c.tweak(params);
    params.num_disparities = std::min(params.num_disparities, 32);
    const auto [got16, expected16] =
        matched_or_refused(fast, reference, pair16.left, pair16.right, params, "16-bit " + c.name);
    expect_same(got16, expected16, "16-bit " + c.name);
    const auto [gotf, expectedf] = matched_or_refused(fast, reference, leftf, rightf, params, "float " + c.name);
    expect_same(gotf, expectedf, "float " + c.name);
  }
}

TEST(FastCpuEngine, LeavesWhatItDoesNotAccelerateToTheReference) {
  FastCpuEngine fast;
  CpuEngine reference;
  const test::ShiftedPair pair = pair_of(45, 21);
  StereoParams bm;
  bm.algorithm = "bm-ssd";
  StereoParams confidence;
  confidence.confidence = true;
  for (const StereoParams& params : {bm, confidence}) {
    EXPECT_FALSE(FastCpuEngine::accelerates(params)) << params.algorithm;
    const DisparityResult a = fast.compute(pair.left, pair.right, params);
    const DisparityResult b = reference.compute(pair.left, pair.right, params);
    expect_same(a, b, params.algorithm);
    EXPECT_TRUE(a.confidence == b.confidence);
  }
}

// The frame budget (frame_budget.h) must not admit a frame this engine's larger, padded volumes
// cannot hold: its estimate covers the costs, the sums and the backward sweep's sums.
TEST(FastCpuEngine, FrameCostCoversItsVolumes) {
  FastCpuEngine fast;
  CpuEngine reference;
  StereoParams params;
  params.num_disparities = 100;  // padded to 128 candidates
  const FrameCost cost = fast.frame_cost(640, 480, params);
  EXPECT_GE(cost.host_bytes, 640ull * 480 * 128 * 5);
  EXPECT_GT(cost.host_bytes, reference.frame_cost(640, 480, params).host_bytes);
  EXPECT_LT(cost.seconds, reference.frame_cost(640, 480, params).seconds);
  params.algorithm = "bm-sad";  // the reference's volumes, in less time
  EXPECT_EQ(fast.frame_cost(640, 480, params).host_bytes, reference.frame_cost(640, 480, params).host_bytes);
  EXPECT_LT(fast.frame_cost(640, 480, params).seconds, reference.frame_cost(640, 480, params).seconds);
  params.algorithm = "bm-ssd";  // not accelerated
  EXPECT_EQ(fast.frame_cost(640, 480, params).host_bytes, reference.frame_cost(640, 480, params).host_bytes);
  EXPECT_EQ(fast.frame_cost(640, 480, params).seconds, reference.frame_cost(640, 480, params).seconds);
}

// Issue 39: frames that took 123 s (4096x2160) and 29 s (with the confidence, which leaves the
// SIMD path) on a 2-core machine came without the notice; the estimate on 2 threads says so now.
TEST(FastCpuEngine, LargeFramesAndTheConfidenceAreAnnouncedBeforeTheFirstFrame) {
  StereoParams params;  // census-SGM, 64 disparities
  const FrameCost large = FastCpuEngine::frame_cost_on(4096, 2160, params, 2);
  EXPECT_GT(large.seconds, kSlowFrameSeconds);
  EXPECT_EQ(slow_frame_notice(large, 4096, 2160, params, "cpu").rfind("a 4096x2160 frame", 0), 0u);
  EXPECT_TRUE(large.slower_path.empty());
  const FrameCost small = FastCpuEngine::frame_cost_on(640, 480, params, 2);
  EXPECT_EQ(slow_frame_notice(small, 640, 480, params, "cpu"), "");

  // The confidence: the reference engine's time, and a notice at any size saying why.
  for (const char* setting : {"confidence", "repair", "confidence_threshold"}) {
    StereoParams slower = params;
    if (std::string(setting) == "confidence") slower.confidence = true;
    if (std::string(setting) == "repair") slower.repair = true;
    if (std::string(setting) == "confidence_threshold") slower.confidence_threshold = 0.1f;
    const FrameCost cost = FastCpuEngine::frame_cost_on(640, 480, slower, 2);
    EXPECT_GT(cost.seconds, cpu_frame_cost(640, 480, params, 2).seconds) << setting;
    EXPECT_GT(cost.seconds, 2.5 * small.seconds) << setting;
    const std::string notice = slow_frame_notice(cost, 640, 480, slower, "cpu");
    EXPECT_NE(notice.find(" on the cpu engine: the confidence runs on the reference engine"),
              std::string::npos)
        << setting << ": " << notice;
    slower.num_disparities = 128;
    EXPECT_GT(FastCpuEngine::frame_cost_on(1920, 1080, slower, 2).seconds, kSlowFrameSeconds);
  }
  // Algorithms the SIMD engine never runs are not announced for the confidence.
  params.algorithm = "bm-ssd";
  params.confidence = true;
  EXPECT_TRUE(FastCpuEngine::frame_cost_on(640, 480, params, 2).slower_path.empty());
}

TEST(FastCpuEngine, RefusesBadInputLikeTheReference) {
  FastCpuEngine fast;
  StereoParams params;
  EXPECT_THROW(fast.compute(ImageU8(20, 10, 1), ImageU8(21, 10, 1), params), InputError);
  EXPECT_THROW(fast.compute(ImageU8(), ImageU8(), params), InputError);
  params.missing_value = 300;
  EXPECT_THROW(fast.compute(ImageU8(20, 10, 1), ImageU8(20, 10, 1), params), InputError);
  params.missing_value = -1;
  params.pyramid_levels = 4;
  EXPECT_THROW(fast.compute(ImageU8(20, 10, 1), ImageU8(20, 10, 1), params), InputError);
  params.pyramid_levels = 0;
  params.sgm_paths = 5;
  EXPECT_THROW(fast.compute(ImageU8(20, 10, 1), ImageU8(20, 10, 1), params), InputError);
}

}  // namespace
}  // namespace sv
