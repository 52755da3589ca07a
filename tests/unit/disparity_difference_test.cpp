// The A/B difference (issue 22): equal disparities differ nowhere, different ones are counted
// pixel by pixel (|A - B| beyond the tolerance, A alone, B alone), and the drawn image gives
// each kind its own colour.
#include "src/core/disparity_difference.h"

#include <gtest/gtest.h>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"

namespace sv {
namespace {

ImageF32 ramp(int w, int h) {
  ImageF32 d(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) d.at(x, y) = 0.25f * static_cast<float>((x + 3 * y) % 97);
  }
  return d;
}

TEST(DisparityDifference, EqualDisparitiesDifferNowhere) {
  // The synthetic scene's ground truth, occluded pixels invalid: both kinds of pixel.
  SyntheticSceneConfig config;
  config.width = 97;
  config.height = 61;
  config.max_disparity = 24;
  const SyntheticFrame frame = SyntheticScene(config).render(0);
  ImageF32 truth = frame.ground_truth;
  for (size_t i = 0; i < truth.size(); ++i) {
    if (frame.nonoccluded_mask.data()[i] == 0) truth.data()[i] = kInvalidDisparity;
  }
  const DisparityDifference diff = disparity_difference(truth, truth);
  EXPECT_EQ(diff.counts.changed(), 0);
  EXPECT_EQ(diff.counts.differ, 0);
  EXPECT_EQ(diff.counts.only_a, 0);
  EXPECT_EQ(diff.counts.only_b, 0);
  EXPECT_EQ(diff.counts.pixels, 97 * 61);
  EXPECT_EQ(diff.counts.equal + diff.counts.both_invalid, 97 * 61);
  EXPECT_GT(diff.counts.equal, 0);
  EXPECT_GT(diff.counts.both_invalid, 0);
  EXPECT_EQ(diff.counts.max_abs, 0.0);
  const ImageRgb8 shown = colorize_difference(diff, 4.0f);
  for (size_t i = 0; i < shown.size(); ++i) {
    const bool valid = is_valid_disparity(truth.data()[i]);
    ASSERT_EQ(shown.data()[i], valid ? kDifferenceEqualColor : kDifferenceBothInvalidColor) << i;
  }
}

TEST(DisparityDifference, CountsEachChangedPixelExactly) {
  const int w = 40, h = 30;
  const ImageF32 a = ramp(w, h);
  ImageF32 b = a;
  // 7 pixels moved by 2 px, 5 by exactly the tolerance (not counted), 3 only in A, 4 only in B.
  for (int i = 0; i < 7; ++i) b.at(i, 1) += 2.0f;
  for (int i = 0; i < 5; ++i) b.at(i, 2) -= 0.5f;
  for (int i = 0; i < 3; ++i) b.at(10 + i, 3) = kInvalidDisparity;
  ImageF32 a2 = a;
  for (int i = 0; i < 4; ++i) a2.at(20 + i, 4) = kInvalidDisparity;
  // And 2 invalid on both sides.
  a2.at(0, 5) = b.at(0, 5) = kInvalidDisparity;
  a2.at(1, 5) = b.at(1, 5) = kInvalidDisparity;

  const DisparityDifference diff = disparity_difference(a2, b, 0.5f);
  EXPECT_EQ(diff.counts.differ, 7);
  EXPECT_EQ(diff.counts.only_a, 3);
  EXPECT_EQ(diff.counts.only_b, 4);
  EXPECT_EQ(diff.counts.both_invalid, 2);
  EXPECT_EQ(diff.counts.equal, w * h - 7 - 3 - 4 - 2);
  EXPECT_EQ(diff.counts.changed(), 14);
  EXPECT_FLOAT_EQ(diff.magnitude.at(3, 1), 2.0f);
  EXPECT_FLOAT_EQ(diff.magnitude.at(3, 2), 0.5f);
  EXPECT_EQ(diff.magnitude.at(11, 3), 0.0f);  // only A: no magnitude
  EXPECT_DOUBLE_EQ(diff.counts.max_abs, 2.0);
  const double both_valid = diff.counts.equal + diff.counts.differ;
  EXPECT_NEAR(diff.counts.mean_abs, (7 * 2.0 + 5 * 0.5) / both_valid, 1e-12);
  EXPECT_EQ(static_cast<DifferenceKind>(diff.kind.at(12, 3)), DifferenceKind::OnlyA);
  EXPECT_EQ(static_cast<DifferenceKind>(diff.kind.at(21, 4)), DifferenceKind::OnlyB);

  // A zero tolerance counts the half-pixel changes too.
  EXPECT_EQ(disparity_difference(a2, b).counts.differ, 12);

  const ImageRgb8 shown = colorize_difference(diff, 2.0f);
  EXPECT_EQ(shown.at(0, 1), kDifferenceLargeColor);  // |A - B| = full scale
  EXPECT_EQ(shown.at(0, 2), kDifferenceEqualColor);  // within the tolerance
  EXPECT_EQ(shown.at(10, 3), kDifferenceOnlyAColor);
  EXPECT_EQ(shown.at(20, 4), kDifferenceOnlyBColor);
  EXPECT_EQ(shown.at(0, 5), kDifferenceBothInvalidColor);
  EXPECT_EQ(shown.at(30, 20), kDifferenceEqualColor);
  // Half the full scale lies half way along the ramp.
  const ImageRgb8 half = colorize_difference(diff, 4.0f);
  EXPECT_EQ(half.at(0, 1).g, 128);
}

TEST(DisparityDifference, FixedPointHoldsTheMagnitudeWhereBothAreValid) {
  ImageF32 a(4, 1), b(4, 1);
  a.at(0, 0) = 10.0f, b.at(0, 0) = 12.5625f;  // differ by 2 + 9/16 px
  a.at(1, 0) = 7.0f, b.at(1, 0) = 7.0f;       // equal
  a.at(2, 0) = 3.0f, b.at(2, 0) = kInvalidDisparity;
  a.at(3, 0) = kInvalidDisparity, b.at(3, 0) = kInvalidDisparity;
  const ImageI16 fixed = difference_fixed(disparity_difference(a, b));
  EXPECT_EQ(fixed.at(0, 0), 41);
  EXPECT_EQ(fixed.at(1, 0), 0);
  EXPECT_EQ(fixed.at(2, 0), kInvalidFixedDisparity);
  EXPECT_EQ(fixed.at(3, 0), kInvalidFixedDisparity);
}

TEST(DisparityDifference, MismatchedSizesAndBadTolerancesAreInputErrors) {
  EXPECT_THROW(disparity_difference(ImageF32(4, 3), ImageF32(3, 4)), InputError);
  EXPECT_THROW(disparity_difference(ImageF32(4, 3), ImageF32(4, 3), -1.0f), InputError);
  EXPECT_THROW(disparity_difference(ImageF32(4, 3), ImageF32(4, 3), kInvalidDisparity), InputError);
  // Empty images compare to nothing, without a fault.
  EXPECT_EQ(disparity_difference(ImageF32(), ImageF32()).counts.pixels, 0);
}

}  // namespace
}  // namespace sv
