#include "src/core/evaluation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {
namespace {

constexpr float kUnknown = std::numeric_limits<float>::infinity();

ImageF32 make_f32(int w, int h, std::initializer_list<float> values) {
  ImageF32 image(w, h);
  size_t i = 0;
  for (float v : values) image.data()[i++] = v;
  return image;
}

ImageU8 make_u8(int w, int h, std::initializer_list<int> values) {
  ImageU8 image(w, h);
  size_t i = 0;
  for (int v : values) image.data()[i++] = static_cast<uint8_t>(v);
  return image;
}

// 4x2 case worked out by hand. Ground truth (row 0 / row 1):
//   10 10 10  ?      20 20 20 20        (? = unknown)
// Estimate:
//   10 10.75 12 5    20  -  15 21       (- = invalid)
// Absolute errors over the 7 known pixels: 0, 0.75, 2, | 0, invalid, 5, 1.
ImageF32 truth_4x2() { return make_f32(4, 2, {10, 10, 10, kUnknown, 20, 20, 20, 20}); }
ImageF32 estimate_4x2() {
  return make_f32(4, 2, {10, 10.75f, 12, 5, 20, kInvalidDisparity, 15, 21});
}

// Without an occlusion mask there is no nonocc region: it would only repeat "all" (KITTI's
// disp_occ_0 alone once showed a nonocc column equal to all).
TEST(Evaluation, WithoutMasksOnlyAllIsReportedOverEveryKnownPixel) {
  const DisparityEvaluation ev = evaluate_disparity(estimate_4x2(), truth_4x2(), {});
  ASSERT_EQ(ev.regions.size(), 1u);
  EXPECT_EQ(ev.regions[0].region, "all");
  EXPECT_EQ(ev.find("nonocc"), nullptr);
  EXPECT_EQ(ev.find("disc"), nullptr);
  for (const RegionErrors& r : ev.regions) {
    EXPECT_EQ(r.pixels, 7);
    EXPECT_NEAR(r.bad_0_5, 100.0 * 5 / 7, 1e-9);  // 0.75, 2, invalid, 5, 1
    EXPECT_NEAR(r.bad_1, 100.0 * 3 / 7, 1e-9);    // 2, invalid, 5 (exactly 1 is not bad)
    EXPECT_NEAR(r.bad_2, 100.0 * 2 / 7, 1e-9);    // invalid, 5 (exactly 2 is not bad)
    EXPECT_NEAR(r.bad_4, 100.0 * 2 / 7, 1e-9);
    EXPECT_NEAR(r.avg_abs_error, 8.75 / 6, 1e-9);  // invalid estimate left out
    EXPECT_NEAR(r.bad_1_kept, 100.0 * 2 / 6, 1e-9);   // 2 and 5 among the 6 valid estimates
  }
  EXPECT_NEAR(ev.density, 100.0 * 6 / 7, 1e-9);
}

TEST(Evaluation, MasksSelectTheirRegionsAndOnly255Counts) {
  EvaluationMasks masks;
  // nonocc drops (2,1) with 0 and (3,1) with 128; (3,0) is excluded anyway (unknown truth).
  masks.nonocc = make_u8(4, 2, {255, 255, 255, 255, 255, 255, 0, 128});
  // all drops only (0,0).
  masks.all = make_u8(4, 2, {0, 255, 255, 255, 255, 255, 255, 255});
  // disc: (2,0) and (1,1); 128 at (0,0) is "other non-occluded" and not counted.
  masks.disc = make_u8(4, 2, {128, 0, 255, 0, 0, 255, 0, 0});
  const DisparityEvaluation ev = evaluate_disparity(estimate_4x2(), truth_4x2(), masks);
  ASSERT_EQ(ev.regions.size(), 3u);

  const RegionErrors* nonocc = ev.find("nonocc");
  ASSERT_NE(nonocc, nullptr);
  EXPECT_EQ(nonocc->pixels, 5);  // errors 0, 0.75, 2, 0, invalid
  EXPECT_NEAR(nonocc->bad_0_5, 60.0, 1e-9);
  EXPECT_NEAR(nonocc->bad_1, 40.0, 1e-9);
  EXPECT_NEAR(nonocc->bad_2, 20.0, 1e-9);
  EXPECT_NEAR(nonocc->bad_4, 20.0, 1e-9);
  EXPECT_NEAR(nonocc->avg_abs_error, 2.75 / 4, 1e-9);

  const RegionErrors* all = ev.find("all");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->pixels, 6);  // errors 0.75, 2, 0, invalid, 5, 1
  EXPECT_NEAR(all->bad_0_5, 100.0 * 5 / 6, 1e-9);
  EXPECT_NEAR(all->bad_1, 100.0 * 3 / 6, 1e-9);
  EXPECT_NEAR(all->bad_2, 100.0 * 2 / 6, 1e-9);
  EXPECT_NEAR(all->avg_abs_error, 8.75 / 5, 1e-9);

  const RegionErrors* disc = ev.find("disc");
  ASSERT_NE(disc, nullptr);
  EXPECT_EQ(disc->pixels, 2);  // errors 2, invalid
  EXPECT_NEAR(disc->bad_0_5, 100.0, 1e-9);
  EXPECT_NEAR(disc->bad_1, 100.0, 1e-9);
  EXPECT_NEAR(disc->bad_2, 50.0, 1e-9);
  EXPECT_NEAR(disc->bad_4, 50.0, 1e-9);
  EXPECT_NEAR(disc->avg_abs_error, 2.0, 1e-9);

  // Density ignores the masks: 6 valid of 7 known.
  EXPECT_NEAR(ev.density, 100.0 * 6 / 7, 1e-9);
}

TEST(Evaluation, PerfectEstimateHasNoErrorsAndFullDensity) {
  const ImageF32 truth = truth_4x2();
  const DisparityEvaluation ev = evaluate_disparity(truth, truth, {});
  for (const RegionErrors& r : ev.regions) {
    EXPECT_EQ(r.pixels, 7);
    EXPECT_EQ(r.bad_0_5, 0.0);
    EXPECT_EQ(r.bad_4, 0.0);
    EXPECT_EQ(r.avg_abs_error, 0.0);
  }
  EXPECT_EQ(ev.density, 100.0);
}

TEST(Evaluation, EveryNonFiniteEstimateIsInvalid) {
  const ImageF32 truth = make_f32(3, 1, {1, 2, 3});
  const ImageF32 estimate = make_f32(
      3, 1, {-kUnknown, std::numeric_limits<float>::quiet_NaN(), 3.25f});
  const DisparityEvaluation ev = evaluate_disparity(estimate, truth, {});
  EXPECT_NEAR(ev.find("all")->bad_4, 100.0 * 2 / 3, 1e-9);
  EXPECT_NEAR(ev.find("all")->bad_0_5, 100.0 * 2 / 3, 1e-9);  // 0.25 is within 0.5
  EXPECT_NEAR(ev.find("all")->avg_abs_error, 0.25, 1e-9);
  EXPECT_NEAR(ev.density, 100.0 / 3, 1e-9);
}

TEST(Evaluation, NoKnownTruthGivesEmptyRegions) {
  const ImageF32 truth(2, 2, kUnknown);
  const DisparityEvaluation ev = evaluate_disparity(ImageF32(2, 2, 1.0f), truth, {});
  EXPECT_EQ(ev.find("all")->pixels, 0);
  EXPECT_EQ(ev.find("all")->bad_1, 0.0);
  EXPECT_EQ(ev.density, 0.0);
}

TEST(Evaluation, SizeMismatchesAreInputErrors) {
  EXPECT_THROW(evaluate_disparity(ImageF32(4, 3), truth_4x2(), {}), InputError);
  EvaluationMasks masks;
  masks.disc = ImageU8(2, 2, 255);
  try {
    evaluate_disparity(estimate_4x2(), truth_4x2(), masks);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("disc"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sv
