#include <gtest/gtest.h>

#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/lr_check.h"
#include "src/core/median_filter.h"
#include "src/core/speckle_filter.h"

namespace sv {
namespace {

constexpr int I = kInvalidFixedDisparity;

// An image from fixed-point values given row by row (I for invalid).
ImageI16 image_from(int width, int height, const std::vector<int>& values) {
  ImageI16 img(width, height);
  for (int i = 0; i < width * height; ++i) img.data()[i] = static_cast<int16_t>(values[i]);
  return img;
}

std::vector<int> values_of(const ImageI16& img) {
  return std::vector<int>(img.pixels().begin(), img.pixels().end());
}

// ---- LR check -------------------------------------------------------------------------------

TEST(LrCheck, InvalidatesTheOccludedStrip) {
  // Background at 2 px, a foreground object at 4 px on left x 6..9. In the right view the
  // object covers xr 2..5, hiding the background that left x 4..5 would see: those two fail,
  // and left x 0..1 point outside the right image.
  const int w = 12;
  ImageI16 left(w, 2), right(w, 2);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < w; ++x) {
      left.at(x, y) = to_fixed_disparity(x >= 6 && x <= 9 ? 4 : 2);
      right.at(x, y) = to_fixed_disparity(x >= 2 && x <= 5 ? 4 : 2);
    }
  }
  lr_check(left, right, 1);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < w; ++x) {
      const bool expect_invalid = x <= 1 || x == 4 || x == 5;
      EXPECT_EQ(is_valid_fixed_disparity(left.at(x, y)), !expect_invalid) << "x " << x;
    }
  }
  EXPECT_EQ(left.at(7, 0), 64);
}

TEST(LrCheck, ToleranceAndRounding) {
  // Left x 4 holds 2 + 5/16 px: rounds to 2, compared with right x 2 (2 px): |37 - 32| = 5.
  ImageI16 right = image_from(6, 1, {I, I, 32, 40, 47, I});
  ImageI16 left = image_from(6, 1, {I, I, I, I, 37, I});
  ImageI16 strict = left;
  lr_check(left, right, 1);
  EXPECT_EQ(left.at(4, 0), 37);
  lr_check(strict, right, 0);
  EXPECT_EQ(strict.at(4, 0), I);
  // 40 (2.5 px) rounds half up to 3: compared with right x 2 -> 32, |8| <= 16 passes, and with
  // max_diff 0 it fails (x - 2 would have met 40 exactly).
  ImageI16 half = image_from(6, 1, {I, I, I, I, I, 40});
  lr_check(half, right, 0);
  EXPECT_EQ(half.at(5, 0), I);
  // Negative disparities use floor: -24 (-1.5 px) -> -1, -25 -> -2.
  ImageI16 neg_right = image_from(6, 1, {I, I, I, -24, -25, I});
  ImageI16 neg = image_from(6, 1, {I, I, -24, -25, I, I});
  lr_check(neg, neg_right, 0);
  EXPECT_EQ(values_of(neg), (std::vector<int>{I, I, -24, I, I, I}));  // -25 looks at x 5: invalid
  ImageI16 neg2 = image_from(6, 1, {I, I, -25, I, I, I});
  lr_check(neg2, neg_right, 0);
  EXPECT_EQ(neg2.at(2, 0), -25);
}

TEST(LrCheck, RejectsMismatchedSizes) {
  ImageI16 left(3, 2);
  EXPECT_THROW(lr_check(left, ImageI16(2, 3), 1), InputError);
}

// ---- Median -----------------------------------------------------------------------------------

TEST(MedianFilter, HandCaseWithInvalidNeighbours) {
  // px values; windows are clipped at the border and only valid values count, upper median.
  //   1 I 3      (0,0): {1,5} -> 5        (2,0): {3,5,2} -> 3       (1,1): {1,3,5,2,9,4} -> 4
  //   I 5 2      (2,1): {3,5,2,4} -> 4    (0,2): {5,9,4} -> 5       (1,2): {5,2,9,4} -> 5
  //   9 4 I
  const ImageI16 in = image_from(3, 3, {16, I, 48, I, 80, 32, 144, 64, I});
  EXPECT_EQ(values_of(median_filter(in, 3)), (std::vector<int>{80, I, 48, I, 64, 64, 80, 80, I}));
}

TEST(MedianFilter, FiveByFiveRemovesAnOutlierOnly) {
  ImageI16 in(7, 7, 160);
  in.at(3, 3) = 1600;
  in.at(0, 6) = I;
  ImageI16 expected(7, 7, 160);
  expected.at(0, 6) = I;
  EXPECT_EQ(median_filter(in, 5), expected);
}

TEST(MedianFilter, SizeOneIsACopyAndOtherSizesThrow) {
  const ImageI16 in = image_from(3, 1, {16, I, 320});
  EXPECT_EQ(median_filter(in, 1), in);
  EXPECT_EQ(median_filter(in, 0), in);
  EXPECT_THROW(median_filter(in, 4), InputError);
}

// ---- Speckles ---------------------------------------------------------------------------------

TEST(SpeckleFilter, RemovesSmallIslandKeepsLargeRegion) {
  // Background 5 px (76 pixels) with a 2x2 island at 20 px.
  ImageI16 img(10, 8, to_fixed_disparity(5));
  for (int y = 3; y <= 4; ++y) {
    for (int x = 6; x <= 7; ++x) img.at(x, y) = to_fixed_disparity(20);
  }
  ImageI16 kept = img;
  remove_speckles(kept, 4, 1);  // 4 pixels are not fewer than 4
  EXPECT_EQ(kept, img);

  ImageI16 filtered = img;
  remove_speckles(filtered, 5, 1);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 10; ++x) {
      const bool island = y >= 3 && y <= 4 && x >= 6 && x <= 7;
      EXPECT_EQ(filtered.at(x, y), island ? I : to_fixed_disparity(5)) << x << "," << y;
    }
  }
  // The background itself (76 pixels) goes once the bound exceeds it.
  remove_speckles(filtered, 77, 1);
  EXPECT_EQ(filtered, ImageI16(10, 8, I));
}

TEST(SpeckleFilter, NeighboursWithinTheDifferenceJoinOneRegion) {
  // A 1x3 strip of 6 px next to a 5 px field: with max_difference 1 (16 in fixed point) the strip
  // is part of the large region; with 0 it is its own small region.
  ImageI16 img(6, 4, to_fixed_disparity(5));
  for (int x = 1; x <= 3; ++x) img.at(x, 1) = to_fixed_disparity(6);
  ImageI16 joined = img;
  remove_speckles(joined, 10, 1);
  EXPECT_EQ(joined, img);
  ImageI16 split = img;
  remove_speckles(split, 10, 0);
  for (int x = 1; x <= 3; ++x) EXPECT_EQ(split.at(x, 1), I);
  EXPECT_EQ(split.at(0, 1), to_fixed_disparity(5));
}

TEST(SpeckleFilter, InvalidPixelsSeparateRegionsAndZeroIsANoOp) {
  // Two 2-pixel pieces of one disparity, split by an invalid column, 4-connected only.
  ImageI16 img = image_from(5, 2, {32, 32, I, 32, I,  //
                                   I, I, I, I, 32});   // (3,0) and (4,1) touch only diagonally
  ImageI16 unchanged = img;
  remove_speckles(unchanged, 0, 1);
  EXPECT_EQ(unchanged, img);
  remove_speckles(img, 2, 1);
  EXPECT_EQ(values_of(img), (std::vector<int>{32, 32, I, I, I, I, I, I, I, I}));
}

}  // namespace
}  // namespace sv
