#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
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
  EXPECT_FLOAT_EQ(costs.at(0, 0, 1), 5.0f);  // right pixel -1: outside, lambda * tau
  EXPECT_FLOAT_EQ(costs.at(1, 0, 0), 5.0f);  // |50 - 90| = 40, truncated at 10
  EXPECT_FLOAT_EQ(costs.at(1, 0, 1), 5.0f);  // |50 - 13| = 37
  EXPECT_FLOAT_EQ(costs.at(2, 0, 1), 5.0f);  // |200 - 90| = 110
  EXPECT_FLOAT_EQ(costs.at(2, 0, 0), 5.0f);  // |200 - 0|
  ImageU8 close(3, 1, 52);
  EXPECT_FLOAT_EQ(truncated_ad_cost_volume(left, close, SearchRange(-1, 1), 2.0f, 10.0f).at(0, 0, 0),
                  2.0f * 10.0f);  // x - d = 1: |10 - 52| = 42 -> 10
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

}  // namespace
}  // namespace sv
