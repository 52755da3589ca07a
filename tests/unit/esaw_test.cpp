#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "src/core/algorithm_registry.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/esmp_aggregation.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/half_float.h"
#include "src/core/stereo_params.h"
#include "tests/support/messages.h"
#include "src/core/truncated_ad_cost.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

TEST(TruncatedAdCost, HandCheckedValuesAndTheOutsideCost) {
  ImageU8 left(3, 1), right(3, 1);
  left.at(0, 0) = 10, left.at(1, 0) = 50, left.at(2, 0) = 200;
  right.at(0, 0) = 13, right.at(1, 0) = 90, right.at(2, 0) = 0;
  const auto costs = truncated_ad_cost_volume(left, right, SearchRange(0, 2), 0.5f, 10.0f);
  EXPECT_FLOAT_EQ(costs.at(0, 0, 0), 1.5f);  // |10 - 13| = 3
  EXPECT_FLOAT_EQ(costs.at(0, 0, 1), 1.5f);  // right pixel -1: clamped to 0, |10 - 13|
  EXPECT_FLOAT_EQ(costs.at(1, 0, 0), 5.0f);  // |50 - 90| = 40, truncated at 10
  EXPECT_FLOAT_EQ(costs.at(1, 0, 1), 5.0f);  // |50 - 13| = 37
  EXPECT_FLOAT_EQ(costs.at(2, 0, 1), 5.0f);  // |200 - 90| = 110
  EXPECT_FLOAT_EQ(costs.at(2, 0, 0), 5.0f);  // |200 - 0|
  ImageU8 close(3, 1, 52);
  EXPECT_FLOAT_EQ(truncated_ad_cost_volume(left, close, SearchRange(-1, 1), 2.0f, 10.0f).at(0, 0, 0),
                  2.0f * 10.0f);  // x - d = 1: |10 - 52| = 42 -> 10
  ImageU8 bright = right;
  bright.at(2, 0) = 195;
  EXPECT_FLOAT_EQ(truncated_ad_cost_volume(left, bright, SearchRange(-1, 1), 0.5f, 10.0f).at(2, 0, 0),
                  2.5f);  // right pixel 3: clamped to 2, |200 - 195| = 5
  EXPECT_THROW(truncated_ad_cost_volume(left, ImageU8(2, 1), SearchRange(0, 2), 1.0f, 10.0f), InputError);
  EXPECT_THROW(truncated_ad_cost_volume(left, right, SearchRange(0, 2), 0.0f, 10.0f), InputError);
}

TEST(EsawStep, RoundsPowersOfTheBase) {
  EXPECT_EQ(esaw_step(1, 3.0f), 1);
  EXPECT_EQ(esaw_step(2, 3.0f), 3);
  EXPECT_EQ(esaw_step(3, 3.0f), 9);
  EXPECT_EQ(esaw_step(4, 3.0f), 27);
  // 1.9^(t-1) = 1, 1.9, 3.61, 6.859, 13.03
  EXPECT_EQ(esaw_step(2, 1.9f), 2);
  EXPECT_EQ(esaw_step(3, 1.9f), 4);
  EXPECT_EQ(esaw_step(4, 1.9f), 7);
  EXPECT_EQ(esaw_step(5, 1.9f), 13);
  EXPECT_EQ(esaw_step(2, 1.5f), 2);  // 1.5 exactly: halves round away from zero
  EXPECT_EQ(esaw_step(9, 1.0f), 1);
  EXPECT_EQ(esaw_step(16, 4.0f), kMaxEsawStep);  // 4^15 is capped
}

TEST(EsawTapWeights, HandCheckedAndNormalized) {
  // Centre 100; minus tap equal (colour distance 0), plus tap 17 levels brighter; s = 36.
  const TapWeights w = esaw_tap_weights(100, 100, true, 117, true, 36, 17.0f, 36.0f);
  const double wm = std::exp(-1.0), wp = std::exp(-2.0), sum = 1.0 + wm + wp;
  EXPECT_NEAR(w.minus, wm / sum, 1e-6);
  EXPECT_NEAR(w.centre, 1.0 / sum, 1e-6);
  EXPECT_NEAR(w.plus, wp / sum, 1e-6);

  const TapWeights one_side = esaw_tap_weights(100, 0, false, 83, true, 36, 17.0f, 36.0f);
  EXPECT_EQ(one_side.minus, 0.0f);
  EXPECT_NEAR(one_side.plus, wp / (1.0 + wp), 1e-6);
  const TapWeights alone = esaw_tap_weights(7, 0, false, 0, false, 1, 17.0f, 36.0f);
  EXPECT_EQ(alone.minus, 0.0f);
  EXPECT_EQ(alone.centre, 1.0f);
  EXPECT_EQ(alone.plus, 0.0f);
}

TEST(EsawTapWeights, SumToOneOnRandomInputs) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> gray(0, 255), step(1, 500), presence(0, 3);
  std::uniform_real_distribution<float> gamma(0.5f, 60.0f);
  for (int i = 0; i < 2000; ++i) {
    const int p = presence(rng);
    const TapWeights w = esaw_tap_weights(gray(rng), gray(rng), p & 1, gray(rng), p & 2, step(rng),
                                          gamma(rng), gamma(rng));
    EXPECT_NEAR(w.minus + w.centre + w.plus, 1.0f, 2e-7f);
    EXPECT_GE(w.minus, 0.0f);
    EXPECT_GE(w.plus, 0.0f);
    EXPECT_GE(w.centre, w.minus);  // the centre is the closest in colour and distance
    EXPECT_GE(w.centre, w.plus);
  }
}

// A 1-D step edge: gray 50 on x < 4, 200 on x >= 4; cost 0 on the dark side, 1 on the bright.
TEST(EsawPass, OneDimensionalStepHandChecked) {
  ImageU8 guide(8, 1);
  CostVolume<float> costs(8, 1, SearchRange(0, 1));
  for (int x = 0; x < 8; ++x) {
    guide.at(x, 0) = x < 4 ? 50 : 200;
    costs.at(x, 0, 0) = x < 4 ? 0.0f : 1.0f;
  }
  CostVolume<float> out;
  esaw_pass(costs, out, guide, 1, PassDirection::Horizontal, 17.0f, 36.0f);
  const double near = std::exp(-1.0 / 36), far = std::exp(-(150.0 / 17 + 1.0 / 36));
  EXPECT_EQ(out.at(0, 0, 0), 0.0f);
  EXPECT_EQ(out.at(2, 0, 0), 0.0f);
  EXPECT_NEAR(out.at(3, 0, 0), far / (1 + near + far), 1e-7);  // leaks ~1e-4 across the edge
  EXPECT_NEAR(out.at(4, 0, 0), (1 + near) / (1 + near + far), 1e-6);
  EXPECT_NEAR(out.at(7, 0, 0), 1.0, 1e-6);  // the border pixel: its right tap is absent

  // Step 3 from x = 2: taps x = -1 (absent) and x = 5 (bright).
  esaw_pass(costs, out, guide, 3, PassDirection::Horizontal, 17.0f, 36.0f);
  const double far3 = std::exp(-(150.0 / 17 + 3.0 / 36));
  EXPECT_NEAR(out.at(2, 0, 0), far3 / (1 + far3), 1e-7);
}

TEST(EsawAggregate, UniformImageKeepsAConstantCost) {
  const ImageU8 guide(37, 23, 128);
  CostVolume<float> costs(37, 23, SearchRange(0, 5));
  for (int y = 0; y < 23; ++y) {
    for (int x = 0; x < 37; ++x) {
      for (int k = 0; k < 5; ++k) costs.at(x, y, k) = 0.75f + 2.0f * k;  // depends on d only
    }
  }
  EsawSettings settings;
  settings.iterations = 6;
  settings.step_base = 2.0f;
  const CostVolume<float> out = esaw_aggregate(costs, guide, settings);
  for (int y = 0; y < 23; ++y) {
    for (int x = 0; x < 37; ++x) {
      for (int k = 0; k < 5; ++k) EXPECT_NEAR(out.at(x, y, k), costs.at(x, y, k), 1e-5f) << x << "," << y;
    }
  }
}

// The table both engines read: exp(-(difference / gamma_c + step / gamma_p)).
TEST(EsawSideWeights, HandCheckedEntries) {
  const auto table = esaw_side_weights(36, 17.0f, 36.0f);
  EXPECT_FLOAT_EQ(table[0], std::exp(-1.0f));
  EXPECT_FLOAT_EQ(table[17], std::exp(-2.0f));
  EXPECT_FLOAT_EQ(table[255], std::exp(-16.0f));
  const TapWeights w = esaw_tap_weights(100, 117, true, 100, true, 36, 17.0f, 36.0f);
  const float sum = (1.0f + table[17]) + table[0];
  EXPECT_EQ(w.minus, table[17] / sum);  // the same floats as the pass uses
  EXPECT_EQ(w.plus, table[0] / sum);
}

// Half storage rounds every pass's output, and only that: the same passes with a rounding step
// after each, and every stored value is a half.
TEST(EsawAggregate, HalfStorageRoundsEachPassOutput) {
  const ImageU8 guide = test::random_texture(21, 11, 8);
  CostVolume<float> costs(21, 11, SearchRange(0, 6));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(0.0f, 1.8f);
  for (float& c : costs.costs()) c = round_to_half(value(rng));
  EsawSettings settings;
  settings.iterations = 3;
  settings.half_storage = true;
  CostVolume<float> expected = costs, horizontal;
  for (int t = 1; t <= 3; ++t) {
    const int s = esaw_step(t, settings.step_base);
    esaw_pass(expected, horizontal, guide, s, PassDirection::Horizontal, settings.gamma_c, settings.gamma_p);
    round_to_half(horizontal);
    esaw_pass(horizontal, expected, guide, s, PassDirection::Vertical, settings.gamma_c, settings.gamma_p);
    round_to_half(expected);
  }
  const CostVolume<float> out = esaw_aggregate(costs, guide, settings);
  EXPECT_EQ(out.costs(), expected.costs());
  for (float c : out.costs()) ASSERT_EQ(c, round_to_half(c));
  settings.half_storage = false;
  EXPECT_NE(esaw_aggregate(costs, guide, settings).costs(), out.costs());  // rounding mattered
}

TEST(EsawPass, VerticalIsHorizontalTransposed) {
  const ImageU8 guide = test::random_texture(19, 13, 3);
  ImageU8 guide_t(13, 19);
  CostVolume<float> costs(19, 13, SearchRange(0, 3)), costs_t(13, 19, SearchRange(0, 3));
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> value(0.0f, 10.0f);
  for (int y = 0; y < 13; ++y) {
    for (int x = 0; x < 19; ++x) {
      guide_t.at(y, x) = guide.at(x, y);
      for (int k = 0; k < 3; ++k) costs_t.at(y, x, k) = costs.at(x, y, k) = value(rng);
    }
  }
  CostVolume<float> h, v;
  esaw_pass(costs, h, guide, 2, PassDirection::Horizontal, 10.0f, 20.0f);
  esaw_pass(costs_t, v, guide_t, 2, PassDirection::Vertical, 10.0f, 20.0f);
  for (int y = 0; y < 13; ++y) {
    for (int x = 0; x < 19; ++x) {
      for (int k = 0; k < 3; ++k) EXPECT_EQ(h.at(x, y, k), v.at(y, x, k));
    }
  }
}

// Per-pixel ranges: taps compare equal disparities; a neighbour without the disparity drops out.
TEST(EsawPass, PerPixelRangeDropsTapsWithoutTheDisparity) {
  const ImageU8 guide(3, 1, 90);
  ImageI16 base(3, 1);
  base.at(0, 0) = 0, base.at(1, 0) = 1, base.at(2, 0) = 0;
  CostVolume<float> costs(3, 1, SearchRange(base, 2));
  costs.at(0, 0, 0) = 10, costs.at(0, 0, 1) = 20;  // x = 0: d = 0, 1
  costs.at(1, 0, 0) = 30, costs.at(1, 0, 1) = 40;  // x = 1: d = 1, 2
  costs.at(2, 0, 0) = 50, costs.at(2, 0, 1) = 60;  // x = 2: d = 0, 1
  CostVolume<float> out;
  esaw_pass(costs, out, guide, 1, PassDirection::Horizontal, 17.0f, 36.0f);
  const double w = std::exp(-1.0 / 36);
  // x = 1, d = 1: both neighbours have d = 1 (their k = 1).
  EXPECT_NEAR(out.at(1, 0, 0), (w * 20 + 30 + w * 60) / (1 + 2 * w), 1e-4);
  // x = 1, d = 2: neither neighbour has it.
  EXPECT_EQ(out.at(1, 0, 1), 40.0f);
  // x = 0, d = 0: no left tap; the right neighbour (base 1) lacks d = 0.
  EXPECT_EQ(out.at(0, 0, 0), 10.0f);
  // x = 0, d = 1: the right neighbour's k = 0.
  EXPECT_NEAR(out.at(0, 0, 1), (20 + w * 30) / (1 + w), 1e-4);
}

TEST(EsawPass, RejectsBadInput) {
  const CostVolume<float> costs(4, 4, SearchRange(0, 2));
  CostVolume<float> out;
  EXPECT_THROW(esaw_pass(costs, out, ImageU8(5, 4), 1, PassDirection::Horizontal, 17, 36), InputError);
  EXPECT_THROW(esaw_pass(costs, out, ImageU8(4, 4), 0, PassDirection::Horizontal, 17, 36), InputError);
  EXPECT_THROW(esaw_pass(costs, out, ImageU8(4, 4), 1, PassDirection::Vertical, 0, 36), InputError);
  EsawSettings bad;
  bad.step_base = 0.5f;
  EXPECT_THROW(esaw_aggregate(costs, ImageU8(4, 4), bad), InputError);
}

TEST(EsawParams, ValidateNamesTheBadField) {
  StereoParams p;
  p.algorithm = "esaw";
  EXPECT_TRUE(p.validate().empty());
  p.esaw_iterations = 0;
  p.esaw_step_base = 0.5f;
  p.esaw_gamma_c = std::nanf("");
  p.ad_tau = 300;
  p.esmp_eta = -1;
  const auto problems = p.validate();
  EXPECT_TRUE(has_message(problems, "ESAW iterations must be in 1..16, got 0"));
  EXPECT_TRUE(has_message(problems, "ESAW step base must be in 1..4, got 0.5"));
  EXPECT_TRUE(has_message(problems, "ESAW gamma-c must be in 0.1..1000, got nan"));
  EXPECT_TRUE(has_message(problems, "truncation tau must be in 1..255, got 300"));
  EXPECT_TRUE(has_message(problems, "ESMP smoothness cap eta must be in 0..10, got -1"));
}

// Fraction of the interior [x0, x1) x [y0, y1) within 0.25 px of `expected`.
double fraction_at(const ImageF32& d, float expected, int x0, int x1, int y0, int y1) {
  int hits = 0, total = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x, ++total) {
      hits += is_valid_disparity(d.at(x, y)) && std::fabs(d.at(x, y) - expected) <= 0.25f;
    }
  }
  return static_cast<double>(hits) / total;
}

class ExponentialStep : public ::testing::TestWithParam<const char*> {};

TEST_P(ExponentialStep, ShiftedTextureGivesTheShiftInTheInterior) {
  for (int shift : {0, 5, 13}) {
    const auto pair = test::shifted_pair(112, 64, shift, 31, 1);
    StereoParams params;
    params.algorithm = GetParam();
    params.num_disparities = 24;
    const DisparityResult r = CpuEngine().compute(pair.left, pair.right, params);
    EXPECT_GT(fraction_at(r.disparity, shift, shift + 8, 104, 6, 58), 0.99)
        << GetParam() << " shift " << shift;
  }
}

INSTANTIATE_TEST_SUITE_P(Yu2009, ExponentialStep, ::testing::Values("esaw", "esmp"));

// ---- colour weights -----------------------------------------------------------------------------

TEST(ColourDistance, IsTheLargestChannelDifference) {
  EXPECT_EQ(colour_distance(Rgb8{10, 200, 30}, Rgb8{40, 180, 35}), 30);  // |R| 30, |G| 20, |B| 5
  EXPECT_EQ(colour_distance(Rgb8{40, 180, 35}, Rgb8{10, 200, 30}), 30);  // symmetric
  EXPECT_EQ(colour_distance(Rgb8{0, 0, 255}, Rgb8{0, 0, 0}), 255);
  EXPECT_EQ(colour_distance(Rgb8{7, 7, 7}, Rgb8{7, 7, 7}), 0);
  EXPECT_EQ(colour_distance(Rgb8{90, 90, 90}, Rgb8{61, 61, 61}), 29);  // gray pixels: |90 - 61|
}

TEST(ColourWeights, OnlyTheAdaptiveWeightAlgorithmsUseThem) {
  StereoParams p;
  p.algorithm = "esaw";
  EXPECT_TRUE(uses_colour_weights(p));  // on by default
  p.algorithm = "esmp";
  EXPECT_TRUE(uses_colour_weights(p));
  p.colour_weights = false;
  EXPECT_FALSE(uses_colour_weights(p));
  p.colour_weights = true;
  p.algorithm = "census-sgm";
  EXPECT_FALSE(uses_colour_weights(p));
}

// Two colours of equal luma: red-ish (v + 40, v - 20, v) and green-ish (v - 40, v + 20, v) both
// have to_gray v (77 * 40 - 150 * 20 = 80, and (256 v + 80 + 128) >> 8 = v; likewise
// (256 v - 80 + 128) >> 8 = v), while their colour distance is 80.
Rgb8 reddish(int v) { return Rgb8{uint8_t(v + 40), uint8_t(v - 20), uint8_t(v)}; }
Rgb8 greenish(int v) { return Rgb8{uint8_t(v - 40), uint8_t(v + 20), uint8_t(v)}; }

TEST(EsawPass, ColourGuideKeepsAnIsoluminantEdgeThatGrayBlurs) {
  // A row of 8: red-ish on x < 4, green-ish on x >= 4, all of luma 57; cost 0 left, 1 right.
  ImageRgb8 colour(8, 1);
  CostVolume<float> costs(8, 1, SearchRange(0, 1));
  for (int x = 0; x < 8; ++x) {
    colour.at(x, 0) = x < 4 ? reddish(57) : greenish(57);
    costs.at(x, 0, 0) = x < 4 ? 0.0f : 1.0f;
  }
  const ImageU8 gray = to_gray(colour);
  ASSERT_EQ(gray, ImageU8(8, 1, 57));  // gray sees no edge at all

  CostVolume<float> from_gray, from_colour;
  esaw_pass(costs, from_gray, gray, 1, PassDirection::Horizontal, 17.0f, 36.0f);
  esaw_pass(costs, from_colour, colour, 1, PassDirection::Horizontal, 17.0f, 36.0f);
  const double near = std::exp(-1.0 / 36), far = std::exp(-(80.0 / 17 + 1.0 / 36));
  // x = 3: taps x = 2 (cost 0) and x = 4 (cost 1, across the edge).
  EXPECT_NEAR(from_gray.at(3, 0, 0), near / (1 + 2 * near), 1e-6);    // 0.33: the edge blurs
  EXPECT_NEAR(from_colour.at(3, 0, 0), far / (1 + near + far), 1e-7);  // 0.0045: it stays
  EXPECT_NEAR(from_colour.at(4, 0, 0), (1 + near) / (1 + near + far), 1e-6);
  EXPECT_EQ(from_colour.at(1, 0, 0), 0.0f);
  EXPECT_NEAR(from_colour.at(6, 0, 0), 1.0, 1e-6);
  EXPECT_THROW(esaw_pass(costs, from_colour, ImageRgb8(7, 1), 1, PassDirection::Horizontal, 17, 36),
               InputError);
}

// Gray pixels (R = G = B) have colour distances equal to their gray differences: the colour
// guide then gives the gray guide's costs bit for bit, for ESAW and ESMP.
TEST(EsawAggregate, ColourGuideOfGrayPixelsEqualsTheGrayGuide) {
  const auto pair = test::shifted_pair(41, 23, 4, 7, 1);
  const CostVolume<float> costs =
      truncated_ad_cost_volume(pair.left, pair.right, SearchRange(0, 9), 0.15f, 12.0f);
  EsawSettings settings;
  settings.iterations = 5;
  const ImageRgb8 colour = to_rgb(pair.left);
  const CostVolume<float> gray_result = esaw_aggregate(costs, pair.left, settings);
  EXPECT_EQ(esaw_aggregate(costs, colour, settings).costs(), gray_result.costs());
  EXPECT_NE(gray_result.costs(), costs.costs());
  const MessageSettings messages{1.0f, 0.3f};
  EXPECT_EQ(esmp_aggregate(costs, colour, settings, messages).costs(),
            esmp_aggregate(costs, pair.left, settings, messages).costs());
}

// A colour pair with a known disparity: the left view's x < 48 is a red-ish foreground at
// disparity 10, the rest a green-ish background at disparity 3, both weakly textured with the
// same luma statistics, so the gray views show texture but no edge between them.
struct IsoluminantScene {
  ImageRgb8 left, right;
  static constexpr int kWidth = 96, kHeight = 40, kEdge = 48, kNear = 10, kFar = 3;
  static int truth(int x) { return x < kEdge ? kNear : kFar; }
};

IsoluminantScene isoluminant_scene() {
  using S = IsoluminantScene;
  const ImageU8 front = test::random_texture(S::kWidth + 16, S::kHeight, 41);
  const ImageU8 back = test::random_texture(S::kWidth + 16, S::kHeight, 42);
  const auto value = [](const ImageU8& texture, int x, int y) { return 100 + texture.at(x, y) * 24 / 256; };
  IsoluminantScene s{ImageRgb8(S::kWidth, S::kHeight), ImageRgb8(S::kWidth, S::kHeight)};
  for (int y = 0; y < S::kHeight; ++y) {
    for (int x = 0; x < S::kWidth; ++x) {
      s.left.at(x, y) = x < S::kEdge ? reddish(value(front, x + S::kNear, y)) : greenish(value(back, x + S::kNear, y));
      // The foreground covers right-view x < kEdge - kNear; the background shows elsewhere.
      s.right.at(x, y) = x < S::kEdge - S::kNear ? reddish(value(front, x + 2 * S::kNear, y))
                                                 : greenish(value(back, x + S::kNear + S::kFar, y));
    }
  }
  return s;
}

// Pixels of the columns [x0, x1) whose integer disparity is off by more than 0.5 px.
int wrong_pixels(const ImageF32& d, int x0, int x1) {
  int wrong = 0;
  for (int y = 0; y < d.height(); ++y) {
    for (int x = x0; x < x1; ++x) {
      wrong += !(std::fabs(d.at(x, y) - IsoluminantScene::truth(x)) <= 0.5f);
    }
  }
  return wrong;
}

class ColourWeightsEngine : public ::testing::TestWithParam<const char*> {};

TEST_P(ColourWeightsEngine, KeepTheIsoluminantDepthEdgeWhereGrayWeightsBlurIt) {
  const IsoluminantScene scene = isoluminant_scene();
  StereoParams params;
  params.algorithm = GetParam();
  params.num_disparities = 16;
  params.uniqueness = 0;  // the paper's pipeline: WTA and the median
  params.lr_check = false;
  params.fill_holes = false;
  params.subpixel = false;
  CpuEngine engine;
  const DisparityResult colour = engine.compute(scene.left, scene.right, params);
  const DisparityResult gray = engine.compute(to_gray(scene.left), to_gray(scene.right), params);
  params.colour_weights = false;
  const DisparityResult colour_off = engine.compute(scene.left, scene.right, params);
  EXPECT_EQ(colour_off.disparity_fixed, gray.disparity_fixed);  // the switch means gray weights

  // Columns 16..95: left of 16 the foreground's matches fall outside the right view.
  const int band_colour = wrong_pixels(colour.disparity, 36, 60);
  const int band_gray = wrong_pixels(gray.disparity, 36, 60);
  std::cout << "  " << GetParam() << ": wrong pixels within 12 px of the edge: colour " << band_colour
            << ", gray " << band_gray << " (of " << 24 * IsoluminantScene::kHeight << ")\n";
  EXPECT_LE(wrong_pixels(colour.disparity, 16, 96), 0) << "colour, whole interior";
  // Gray weights fatten the edge by about 4 px a row here (159 and 149 pixels); ask for 2.
  EXPECT_GE(band_gray, 2 * IsoluminantScene::kHeight) << "gray weights should fatten the edge";
}

INSTANTIATE_TEST_SUITE_P(Yu2009, ColourWeightsEngine, ::testing::Values("esaw", "esmp"));

// Every algorithm without adaptive weights, and ESAW with colour-weights off, gives from a colour
// pair exactly what it gives from the pair's gray views.
TEST(CpuEngineColour, OtherAlgorithmsEqualTheGrayViewsBitForBit) {
  const IsoluminantScene scene = isoluminant_scene();
  const ImageU8 left = to_gray(scene.left), right = to_gray(scene.right);
  CpuEngine engine;
  int compared = 0;
  for (const AlgorithmInfo& algorithm : algorithm_registry()) {
    StereoParams params;
    params.algorithm = algorithm.name;
    params.num_disparities = 16;
    if (algorithm.cost == MatchingCost::TruncatedAd) params.colour_weights = false;
    ASSERT_FALSE(uses_colour_weights(params)) << algorithm.name;
    EXPECT_EQ(engine.compute(scene.left, scene.right, params).disparity_fixed,
              engine.compute(left, right, params).disparity_fixed)
        << algorithm.name;
    ++compared;
  }
  EXPECT_GE(compared, 6);
  StereoParams census;  // census-sgm, the default, also through the pyramid
  census.num_disparities = 16;
  census.pyramid_levels = 1;
  EXPECT_EQ(engine.compute(scene.left, scene.right, census).disparity_fixed,
            engine.compute(left, right, census).disparity_fixed);
}

}  // namespace
}  // namespace sv
