#include "src/core/confidence.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/param_table.h"
#include "src/core/synthetic_scene.h"

namespace sv {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int16_t kInvalid = kInvalidFixedDisparity;

template <typename T>
CostVolume<T> one_pixel(const std::vector<T>& costs) {
  CostVolume<T> v(1, 1, SearchRange(0, static_cast<int>(costs.size())));
  for (size_t k = 0; k < costs.size(); ++k) v.at(0, 0, static_cast<int>(k)) = costs[k];
  return v;
}

template <typename T>
std::pair<float, float> peaks_of(const std::vector<T>& costs) {
  const CostPeaks p = cost_peaks(one_pixel(costs));
  return {p.best.at(0, 0), p.runner_up.at(0, 0)};
}

TEST(CostPeaks, RunnerUpIsTheBestCandidateOutsideTheWinnersValley) {
  // Winner k 0 (10); k 1 is its own valley; the best of k 2..4 is 20.
  EXPECT_EQ(peaks_of<uint8_t>({10, 12, 30, 20, 50}), std::make_pair(10.0f, 20.0f));
  // Ties: the winner is the lower k, and an equal cost two steps away is the runner-up.
  EXPECT_EQ(peaks_of<uint16_t>({5, 9, 5, 7}), std::make_pair(5.0f, 5.0f));
  // A winner in the middle: both neighbours are excluded.
  EXPECT_EQ(peaks_of<float>({3.5f, 1.0f, 0.5f, 0.75f, 2.0f}), std::make_pair(0.5f, 2.0f));
}

TEST(CostPeaks, UnrealCostsAreNeitherWinnerNorRunnerUp) {
  constexpr uint32_t kOut = std::numeric_limits<uint32_t>::max();
  EXPECT_EQ(peaks_of<uint32_t>({kOut, 8, kOut, kOut, 40}), std::make_pair(8.0f, 40.0f));
  EXPECT_EQ(peaks_of<uint32_t>({kOut, 8, kOut, kOut}), std::make_pair(8.0f, kInf));
  EXPECT_EQ(peaks_of<uint32_t>({kOut, kOut}), std::make_pair(kInf, kInf));
  EXPECT_EQ(peaks_of<float>({kInf, 2.0f, 3.0f}), std::make_pair(2.0f, kInf));
  // Two candidates: nothing lies outside the winner's valley.
  EXPECT_EQ(peaks_of<uint8_t>({9, 3}), std::make_pair(3.0f, kInf));
}

TEST(TextureDeviation, MeanAbsoluteDeviationWithReplicatedBorders) {
  ImageU8 image(3, 3);
  for (int i = 0; i < 9; ++i) image.data()[i] = static_cast<uint8_t>(10 * i);
  const ImageF32 t = texture_deviation(image, 3, 3);
  // Centre: mean 40, deviations 40 30 20 10 0 10 20 30 40 -> 200 / 9.
  EXPECT_FLOAT_EQ(t.at(1, 1), 200.0f / 9.0f);
  // Corner (0, 0): window 0 0 10 / 0 0 10 / 30 30 40, mean 120 / 9; sum |9 I - 120| = 1080 -> / 81.
  EXPECT_FLOAT_EQ(t.at(0, 0), 1080.0f / 81.0f);
  EXPECT_FLOAT_EQ(texture_deviation(ImageU8(5, 4, 77), 3, 5).at(2, 2), 0.0f);
  // A 1x3 window sees only the row.
  EXPECT_FLOAT_EQ(texture_deviation(image, 1, 3).at(0, 1), 20.0f);  // column 0 30 60
  EXPECT_THROW(texture_deviation(image, 2, 3), InputError);
  EXPECT_THROW(texture_deviation(image, 3, 0), InputError);
}

// One row of `width` pixels with the given peaks and texture everywhere.
struct Row {
  ImageI16 disparity;
  CostPeaks peaks;
  ImageF32 texture;
  Row(int width, float best, float runner_up, float texture_value)
      : disparity(width, 1, kInvalid),
        peaks{ImageF32(width, 1, best), ImageF32(width, 1, runner_up)},
        texture(width, 1, texture_value) {}
};

ConfidenceSettings hand_settings() {
  ConfidenceSettings s;
  s.cost_ceiling = 100.0f;
  s.texture_saturation = 4.0f;
  s.lr_max_diff = 1;
  return s;
}

TEST(CombinedConfidence, ProductOfTheFourTermsWorkedByHand) {
  Row row(8, 20.0f, 40.0f, 2.0f);
  row.disparity.at(5, 0) = 3 * 16;  // points at right pixel 5 - 3 = 2
  ImageI16 right(8, 1, kInvalid);
  right.at(2, 0) = 3 * 16 - 8;  // half a pixel off: e = 8 of span 32
  const ImageF32 c =
      combined_confidence(row.disparity, row.peaks, row.texture, right, hand_settings());
  // PKR 1 - 20/40 = 0.5, MSM 1 - 20/100 = 0.8, FD 2/4 = 0.5, LR (32 - 8)/32 = 0.75.
  EXPECT_FLOAT_EQ(c.at(5, 0), 0.5f * 0.8f * 0.5f * 0.75f);
  for (int x = 0; x < 8; ++x) {
    if (x != 5) {
      EXPECT_EQ(c.at(x, 0), 0.0f) << "invalid disparity at " << x;
    }
  }
  // Without a right view the LR term is 1.
  EXPECT_FLOAT_EQ(
      combined_confidence(row.disparity, row.peaks, row.texture, ImageI16(), hand_settings())
          .at(5, 0),
      0.2f);
}

TEST(CombinedConfidence, LeftRightTermFollowsTheLrCheckGeometry) {
  Row row(8, 0.0f, kInf, 100.0f);       // PKR, MSM and FD all 1
  row.disparity.at(4, 0) = 2 * 16 + 7;  // rounds to 2: right pixel 2
  row.disparity.at(5, 0) = 2 * 16 + 8;  // halves round up: 3 -> right pixel 2
  row.disparity.at(1, 0) = 2 * 16;      // right pixel -1: outside
  row.disparity.at(7, 0) = 4 * 16;      // right pixel 3: invalid there
  ImageI16 right(8, 1, kInvalid);
  right.at(2, 0) = 2 * 16;
  auto settings = hand_settings();
  ImageF32 c = combined_confidence(row.disparity, row.peaks, row.texture, right, settings);
  EXPECT_FLOAT_EQ(c.at(4, 0), 25.0f / 32.0f);  // e = 7
  EXPECT_FLOAT_EQ(c.at(5, 0), 24.0f / 32.0f);  // e = 8
  EXPECT_EQ(c.at(1, 0), 0.0f);
  EXPECT_EQ(c.at(7, 0), 0.0f);
  // A wider tolerance widens the span: lr_max_diff 3 -> span 64.
  settings.lr_max_diff = 3;
  c = combined_confidence(row.disparity, row.peaks, row.texture, right, settings);
  EXPECT_FLOAT_EQ(c.at(5, 0), 56.0f / 64.0f);
  // e >= span gives 0.
  right.at(2, 0) = 2 * 16 + 8 - 64;
  EXPECT_EQ(combined_confidence(row.disparity, row.peaks, row.texture, right, settings).at(5, 0),
            0.0f);
}

TEST(CombinedConfidence, TermsClampIntoTheUnitInterval) {
  const auto one = [](float best, float runner_up, float texture) {
    Row row(1, best, runner_up, texture);
    row.disparity.at(0, 0) = 0;
    return combined_confidence(row.disparity, row.peaks, row.texture, ImageI16(), hand_settings())
        .at(0, 0);
  };
  EXPECT_FLOAT_EQ(one(0.0f, 10.0f, 4.0f), 1.0f);     // perfect, unique, textured
  EXPECT_FLOAT_EQ(one(0.0f, 10.0f, 40.0f), 1.0f);    // texture saturates
  EXPECT_FLOAT_EQ(one(0.0f, 0.0f, 4.0f), 0.0f);      // an exact tie at zero cost
  EXPECT_FLOAT_EQ(one(150.0f, 300.0f, 4.0f), 0.0f);  // cost above the ceiling
  EXPECT_FLOAT_EQ(one(10.0f, kInf, 4.0f), 0.9f);     // no competitor: PKR 1, MSM 0.9
  EXPECT_FLOAT_EQ(one(kInf, kInf, 4.0f), 0.0f);      // no real cost at all
  EXPECT_FLOAT_EQ(one(-0.5f, 1.0f, 4.0f), 1.0f);     // rounding below zero (ZNCC) stays at 1
  EXPECT_FLOAT_EQ(one(0.0f, 10.0f, 0.0f), 0.0f);     // flat: no feature density
}

TEST(CombinedConfidence, RejectsMismatchedInputs) {
  Row row(4, 1.0f, 2.0f, 1.0f);
  EXPECT_THROW(
      combined_confidence(row.disparity, row.peaks, ImageF32(3, 1), ImageI16(), hand_settings()),
      InputError);
  EXPECT_THROW(
      combined_confidence(row.disparity, row.peaks, row.texture, ImageI16(4, 2), hand_settings()),
      InputError);
  auto bad = hand_settings();
  bad.cost_ceiling = 0.0f;
  EXPECT_THROW(combined_confidence(row.disparity, row.peaks, row.texture, ImageI16(), bad),
               InputError);
}

TEST(ConfidenceThreshold, InvalidatesOnlyPixelsBelowIt) {
  ImageI16 d(4, 1, 32);
  ImageF32 c(4, 1);
  c.at(0, 0) = 0.0f;
  c.at(1, 0) = 0.24f;
  c.at(2, 0) = 0.25f;
  c.at(3, 0) = 1.0f;
  ImageI16 untouched = d;
  apply_confidence_threshold(untouched, c, 0.0f);  // off
  EXPECT_EQ(untouched, d);
  apply_confidence_threshold(d, c, 0.25f);
  EXPECT_EQ(d.at(0, 0), kInvalid);
  EXPECT_EQ(d.at(1, 0), kInvalid);
  EXPECT_EQ(d.at(2, 0), 32);
  EXPECT_EQ(d.at(3, 0), 32);
  EXPECT_THROW(apply_confidence_threshold(d, c, 1.5f), InputError);
  EXPECT_THROW(apply_confidence_threshold(d, c, std::nanf("")), InputError);
  EXPECT_THROW(apply_confidence_threshold(d, ImageF32(3, 1), 0.5f), InputError);
}

TEST(ConfidenceSettings, FollowTheAlgorithmsCostRangeAndWindow) {
  StereoParams p;  // census-sgm, 8 paths, census 9x7
  ConfidenceSettings s = confidence_settings(p);
  EXPECT_FLOAT_EQ(s.cost_ceiling, 64.0f * 8.0f);
  EXPECT_EQ(s.texture_window_width, 9);
  EXPECT_EQ(s.texture_window_height, 7);
  p.sgm_paths = 4;
  p.algorithm = "rank-sgm";
  p.rank_window = 7;
  s = confidence_settings(p);
  EXPECT_FLOAT_EQ(s.cost_ceiling, 64.0f * 4.0f);
  EXPECT_EQ(s.texture_window_width, 7);
  p.algorithm = "bm-sad";
  p.window = 5;
  p.lr_max_diff = 2;
  s = confidence_settings(p);
  EXPECT_FLOAT_EQ(s.cost_ceiling, 25.0f * 255.0f);
  EXPECT_EQ(s.texture_window_height, 5);
  EXPECT_EQ(s.lr_max_diff, 2);
  p.algorithm = "bm-zncc";
  EXPECT_FLOAT_EQ(confidence_settings(p).cost_ceiling, 2.0f);
}

TEST(ConfidenceParams, ParsedValidatedAndAskedFor) {
  StereoParams p;
  EXPECT_FALSE(wants_confidence(p));
  set_param(p, "confidence-threshold", "0.3");
  EXPECT_FLOAT_EQ(p.confidence_threshold, 0.3f);
  EXPECT_TRUE(wants_confidence(p));
  EXPECT_TRUE(p.validate().empty());
  p.confidence_threshold = 1.5f;
  EXPECT_EQ(p.validate().size(), 1u);
  p = StereoParams();
  set_param(p, "repair", "on");
  EXPECT_TRUE(p.repair && wants_confidence(p));
  p = StereoParams();
  set_param(p, "confidence", "true");
  EXPECT_TRUE(p.confidence && wants_confidence(p));
  EXPECT_THROW(set_param(p, "confidence", "maybe"), InputError);
}

// The synthetic scene through the CPU engine, with the checks' holes left open.
struct SceneRun {
  SyntheticFrame frame;
  StereoParams params;
  SceneRun() : frame(SyntheticScene({160, 120, 24, 3}).render(2)) {
    params.num_disparities = 24;
    params.fill_holes = false;
    params.median = 0;
  }
  DisparityResult run() const {
    return CpuEngine().compute(to_gray(frame.left), to_gray(frame.right), params);
  }
  // Bad-1 over the valid non-occluded pixels, and their share of the non-occluded pixels.
  std::pair<double, double> bad_rate_and_density(const DisparityResult& r) const {
    int kept = 0, bad = 0, total = 0;
    for (size_t i = 0; i < r.disparity.size(); ++i) {
      if (frame.nonoccluded_mask.data()[i] == 0) continue;
      ++total;
      const float d = r.disparity.data()[i];
      if (!is_valid_disparity(d)) continue;
      ++kept;
      if (std::fabs(d - frame.ground_truth.data()[i]) > 1.0f) ++bad;
    }
    return {static_cast<double>(bad) / kept, static_cast<double>(kept) / total};
  }
};

TEST(CpuEngineConfidence, EmptyUnlessAskedForAndZeroWhereNoMatch) {
  SceneRun scene;
  EXPECT_TRUE(scene.run().confidence.empty());
  scene.params.confidence = true;
  const DisparityResult r = scene.run();
  ASSERT_TRUE(r.confidence.same_size(r.disparity_fixed));
  int invalid = 0;
  double sum = 0.0;
  for (size_t i = 0; i < r.confidence.size(); ++i) {
    const float c = r.confidence.data()[i];
    ASSERT_TRUE(c >= 0.0f && c <= 1.0f) << c;
    sum += c;
    if (!is_valid_fixed_disparity(r.disparity_fixed.data()[i])) {
      ++invalid;
      EXPECT_EQ(c, 0.0f);
    }
  }
  EXPECT_GT(invalid, 0);                      // the LR check rejected the occlusions
  EXPECT_GT(sum / r.confidence.size(), 0.1);  // a textured scene is mostly confident
  // Computing the confidence alone does not change the disparities.
  scene.params.confidence = false;
  EXPECT_EQ(scene.run().disparity_fixed, r.disparity_fixed);
}

TEST(CpuEngineConfidence, ThresholdKeepsOnlyConfidentPixelsAndCutsTheBadRate) {
  SceneRun scene;
  scene.params.confidence = true;
  const DisparityResult all = scene.run();
  scene.params.confidence_threshold = 0.15f;
  const DisparityResult kept = scene.run();
  EXPECT_EQ(kept.confidence, all.confidence);
  for (size_t i = 0; i < kept.disparity_fixed.size(); ++i) {
    const bool confident = all.confidence.data()[i] >= 0.15f;
    EXPECT_EQ(kept.disparity_fixed.data()[i],
              confident ? all.disparity_fixed.data()[i] : kInvalidFixedDisparity);
  }
  const auto [bad_all, density_all] = scene.bad_rate_and_density(all);
  const auto [bad_kept, density_kept] = scene.bad_rate_and_density(kept);
  EXPECT_LT(density_kept, density_all);
  EXPECT_GT(density_kept, 0.3);
  EXPECT_LT(bad_kept, bad_all * 0.8) << "bad-1 " << bad_all << " -> " << bad_kept;
}

TEST(CpuEngineConfidence, RepairFillsGapsAndCutsErrorsCountingHoles) {
  SceneRun scene;
  scene.params.confidence = true;
  const DisparityResult plain = scene.run();
  scene.params.repair = true;
  const DisparityResult repaired = scene.run();
  const auto [bad_plain, density_plain] = scene.bad_rate_and_density(plain);
  const auto [bad_repaired, density_repaired] = scene.bad_rate_and_density(repaired);
  EXPECT_GT(density_repaired, density_plain + 0.01);
  // Middlebury's rate (a hole is an error) falls; the filled pixels are a little less reliable
  // than the ones the checks kept (measured 1.7 % -> 2.0 % bad), not wildly so.
  const auto with_holes = [](double bad, double density) { return 1.0 - density * (1.0 - bad); };
  EXPECT_LT(with_holes(bad_repaired, density_repaired), with_holes(bad_plain, density_plain));
  EXPECT_LT(bad_repaired, bad_plain * 1.5) << "bad-1 " << bad_plain << " -> " << bad_repaired;
  // Repaired pixels gained confidence; none lost any.
  int raised = 0;
  for (size_t i = 0; i < plain.confidence.size(); ++i) {
    EXPECT_GE(repaired.confidence.data()[i], plain.confidence.data()[i]);
    raised += repaired.confidence.data()[i] > plain.confidence.data()[i];
  }
  EXPECT_GT(raised, 0);
}

}  // namespace
}  // namespace sv
