// The temporal filter (temporal_filter_math.h) and the flicker measure: the per-pixel rule on
// hand-worked values, and what it is for on the synthetic scene: a still, noisy scene flickers
// far less without losing accuracy; a moving one leaves no trail beyond the reset threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/evaluation.h"
#include "src/core/flicker.h"
#include "src/core/param_table.h"
#include "src/core/temporal_filter.h"
#include "tests/support/noisy_frames.h"
#include "tests/support/synthetic_frames.h"

namespace sv {
namespace {

TemporalFilterSettings settings(int alpha_q8, int delta_fixed, int persistence) {
  TemporalFilterSettings s;
  s.alpha_q8 = alpha_q8;
  s.delta_fixed = delta_fixed;
  s.persistence = persistence;
  return s;
}

TEST(TemporalFilterPixel, MovesAlphaOfTheWayAndRoundsHalfUp) {
  const TemporalFilterSettings half = settings(128, 32, 0);
  int16_t previous = 160;  // 10 px
  uint8_t age = 0;
  // 160 + (128 * 16 + 128) / 256 = 160 + 8.5 -> 168.
  EXPECT_EQ(temporal_filter_pixel(176, previous, age, half), 168);
  EXPECT_EQ(previous, 168);
  // Negative disparities floor: (-160 * 256 - 128 * 16 + 128) / 256 = -167.5 -> -168.
  previous = -160;
  EXPECT_EQ(temporal_filter_pixel(-176, previous, age, half), -168);
  // A change of exactly delta is still smoothed; one more 1/16 px resets.
  previous = 160;
  EXPECT_EQ(temporal_filter_pixel(192, previous, age, half), 176);
  previous = 160;
  EXPECT_EQ(temporal_filter_pixel(193, previous, age, half), 193);
  // alpha 1 (256) takes the input.
  previous = 160;
  EXPECT_EQ(temporal_filter_pixel(170, previous, age, settings(256, 32, 0)), 170);
}

TEST(TemporalFilterPixel, HoldsInvalidPixelsForPersistenceFrames) {
  const TemporalFilterSettings hold2 = settings(128, 32, 2);
  int16_t previous = kTemporalInvalid;
  uint8_t age = 0;
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, hold2), kTemporalInvalid);
  EXPECT_EQ(temporal_filter_pixel(80, previous, age, hold2), 80);  // no history: taken as is
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, hold2), 80);
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, hold2), 80);
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, hold2), kTemporalInvalid);
  EXPECT_EQ(previous, kTemporalInvalid);
  // A valid input starts the count again.
  EXPECT_EQ(temporal_filter_pixel(96, previous, age, hold2), 96);
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, hold2), 96);
  EXPECT_EQ(age, 1);
  // Persistence 0 shows holes at once.
  previous = 96;
  age = 0;
  EXPECT_EQ(temporal_filter_pixel(kTemporalInvalid, previous, age, settings(128, 32, 0)),
            kTemporalInvalid);
}

TEST(TemporalFilter, SettingsRoundFromTheParameters) {
  StereoParams params;
  params.temporal_alpha = 0.4f;
  params.temporal_delta = 1.5f;
  params.temporal_persistence = 3;
  const TemporalFilterSettings s = temporal_filter_settings(params);
  EXPECT_EQ(s.alpha_q8, 102);  // 102.4
  EXPECT_EQ(s.delta_fixed, 24);
  EXPECT_EQ(s.persistence, 3);
}

TEST(TemporalFilter, ANewSizeStartsWithoutHistory) {
  TemporalFilter filter;
  ImageI16 first(4, 2, 160);
  filter.apply(first, settings(128, 32, 0));
  ImageI16 second(4, 2, 176);
  filter.apply(second, settings(128, 32, 0));
  EXPECT_EQ(second.at(0, 0), 168);
  ImageI16 other_size(3, 2, 176);
  filter.apply(other_size, settings(128, 32, 0));
  EXPECT_EQ(other_size.at(0, 0), 176);
}

TEST(TemporalFilter, ParametersAreInTheRegistryOffByDefault) {
  EXPECT_FALSE(StereoParams{}.temporal_filter);
  for (const char* key : {"temporal", "temporal-alpha", "temporal-delta", "temporal-persistence"}) {
    EXPECT_NE(find_param(key), nullptr) << key;
  }
  StereoParams params;
  set_param(params, "temporal", "on");
  set_param(params, "temporal-alpha", "0");
  EXPECT_TRUE(params.temporal_filter);
  EXPECT_FALSE(params.validate().empty());  // alpha 0 would freeze the picture
  const StereoParams back = parse_preset_text(to_preset_text(StereoParams{}));
  EXPECT_EQ(back, StereoParams{});
}

TEST(Flicker, MeanAbsoluteChangeOverPixelsValidInBoth) {
  ImageF32 a(3, 1), b(3, 1);
  a.at(0, 0) = 1.0f, b.at(0, 0) = 1.5f;
  a.at(1, 0) = 2.0f, b.at(1, 0) = 1.0f;
  a.at(2, 0) = kInvalidDisparity, b.at(2, 0) = 9.0f;
  ASSERT_TRUE(disparity_flicker(a, b).has_value());
  EXPECT_DOUBLE_EQ(*disparity_flicker(a, b), 0.75);
  EXPECT_FALSE(disparity_flicker(a, ImageF32(2, 1)).has_value());
  FlickerMeter meter;
  EXPECT_FALSE(meter.add(a).has_value());
  EXPECT_DOUBLE_EQ(*meter.add(b), 0.75);
}

constexpr int kW = 160, kH = 120, kMaxDisparity = 32, kFrames = 12;

StereoParams sequence_params(bool temporal) {
  StereoParams params;
  params.num_disparities = kMaxDisparity;
  params.temporal_filter = temporal;
  return params;
}

struct SequenceScore {
  double flicker = 0.0;  // mean over the frames after the first
  double bad_1 = 0.0;    // mean nonocc bad-1 over the frames after the first
};

// The still scene (frame 0) with new sensor noise on every frame.
SequenceScore score_static_noisy_sequence(bool temporal) {
  const SyntheticFrame frame = test::render_synthetic(kW, kH, kMaxDisparity, 0);
  CpuEngine engine;
  FlickerMeter meter;
  SequenceScore score;
  for (int i = 0; i < kFrames; ++i) {
    const ImageRgb8 left = test::with_noise(frame.left, 8, 2 * i + 1);
    const ImageRgb8 right = test::with_noise(frame.right, 8, 2 * i + 2);
    const DisparityResult result = engine.compute(left, right, sequence_params(temporal));
    const std::optional<double> flicker = meter.add(result.disparity);
    if (i == 0) continue;
    score.flicker += *flicker / (kFrames - 1);
    EvaluationMasks masks;
    masks.nonocc = frame.nonoccluded_mask;
    score.bad_1 += evaluate_disparity(result.disparity, frame.ground_truth, masks).find("nonocc")->bad_1 /
                   (kFrames - 1);
  }
  return score;
}

TEST(TemporalFilter, HalvesTheFlickerOfAStillNoisySceneWithoutLosingAccuracy) {
  const SequenceScore off = score_static_noisy_sequence(false);
  const SequenceScore on = score_static_noisy_sequence(true);
  RecordProperty("flicker_off", std::to_string(off.flicker));
  RecordProperty("flicker_on", std::to_string(on.flicker));
  ASSERT_GT(off.flicker, 0.02) << "the noise must make the unfiltered maps flicker";
  EXPECT_LE(on.flicker, 0.5 * off.flicker) << "off " << off.flicker << " on " << on.flicker;
  EXPECT_LE(on.bad_1, off.bad_1) << "bad-1 off " << off.bad_1 << " on " << on.bad_1;
}

TEST(TemporalFilter, LeavesNoTrailBeyondTheResetThresholdOnAMovingScene) {
  // Hole filling off: it runs after the filter, so here every pixel shows the filter's own output.
  StereoParams raw_params = sequence_params(false);
  raw_params.fill_holes = false;
  StereoParams params = raw_params;
  params.temporal_filter = true;
  const float delta = params.temporal_delta;
  CpuEngine plain, filtered;
  std::vector<int> invalid_run;  // per pixel: frames in a row without a valid input
  int smoothed = 0, held = 0;    // pixels the filter changed or bridged: it must be working
  for (int i = 0; i < kFrames; ++i) {
    const SyntheticFrame frame = test::render_synthetic(kW, kH, kMaxDisparity, 4 * i);
    const DisparityResult raw = plain.compute(frame.left, frame.right, raw_params);
    const DisparityResult out = filtered.compute(frame.left, frame.right, params);
    invalid_run.resize(raw.disparity.size(), 0);
    for (size_t p = 0; p < raw.disparity.size(); ++p) {
      const float r = raw.disparity.data()[p], f = out.disparity.data()[p];
      if (is_valid_disparity(r)) {
        invalid_run[p] = 0;
        ASSERT_TRUE(is_valid_disparity(f)) << "frame " << i << " pixel " << p;
        ASSERT_LE(std::fabs(f - r), delta) << "frame " << i << " pixel " << p;
        smoothed += f != r;
      } else if (is_valid_disparity(f)) {
        ++invalid_run[p];
        ASSERT_LE(invalid_run[p], params.temporal_persistence) << "frame " << i << " pixel " << p;
        ++held;
      }
    }
  }
  EXPECT_GT(smoothed, 0);
  EXPECT_GT(held, 0);
}

TEST(TemporalFilter, AChangedMatchingParameterStartsAfresh) {
  StereoParams a = sequence_params(true), b = a;
  b.p2 = 120;
  EXPECT_TRUE(same_matching(a, a));
  EXPECT_FALSE(same_matching(a, b));
  StereoParams c = a;
  c.temporal_alpha = 0.9f;
  c.temporal_filter = false;
  EXPECT_TRUE(same_matching(a, c));  // the filter's own settings keep the history

  const SyntheticFrame frame = test::render_synthetic(kW, kH, kMaxDisparity, 0);
  const ImageRgb8 left = test::with_noise(frame.left, 8, 1), right = test::with_noise(frame.right, 8, 2);
  CpuEngine engine, fresh;
  engine.compute(left, right, a);
  StereoParams b_plain = b;
  b_plain.temporal_filter = false;
  // After the change the result is the new parameters' own, not a blend with the old ones.
  EXPECT_EQ(engine.compute(left, right, b).disparity_fixed,
            fresh.compute(left, right, b_plain).disparity_fixed);
}

TEST(TemporalFilter, OffKeepsTheEngineStatelessAndOnOnlyAddsAStage) {
  const SyntheticFrame frame = test::render_synthetic(kW, kH, kMaxDisparity, 0);
  CpuEngine engine;
  const DisparityResult first = engine.compute(frame.left, frame.right, sequence_params(false));
  const DisparityResult again = engine.compute(frame.left, frame.right, sequence_params(false));
  EXPECT_EQ(first.disparity_fixed, again.disparity_fixed);
  const DisparityResult filtered = engine.compute(frame.left, frame.right, sequence_params(true));
  EXPECT_EQ(filtered.disparity_fixed, first.disparity_fixed);  // no history: the input
  bool timed = false;
  for (const StageTiming& stage : filtered.timings.stages) timed = timed || stage.stage == "temporal";
  EXPECT_TRUE(timed);
}

}  // namespace
}  // namespace sv
