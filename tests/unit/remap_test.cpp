// The bilinear remap's definition (src/core/remap.cpp) on values worked out by hand.
#include "src/core/remap.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sv {
namespace {

ImageF32 one_pixel_map(float value) { return ImageF32(1, 1, value); }

TEST(Remap, HalfwayBetweenFourPixels) {
  ImageU8 raw(2, 2);
  raw.at(0, 0) = 10, raw.at(1, 0) = 20, raw.at(0, 1) = 30, raw.at(1, 1) = 41;
  // Weights 8192 each: (8192 * 101 + 16384) >> 15 = 25 (25.75 truncated after the half).
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(0.5f), one_pixel_map(0.5f)).at(0, 0), 25);
  ImageF32 rawf(2, 2);
  rawf.at(0, 0) = 10, rawf.at(1, 0) = 20, rawf.at(0, 1) = 30, rawf.at(1, 1) = 41;
  EXPECT_EQ(remap_bilinear(rawf, one_pixel_map(0.5f), one_pixel_map(0.5f)).at(0, 0), 25.25f);
}

TEST(Remap, SixteenBitSumsRoundHalfToEven) {
  ImageU16 raw(2, 1);
  raw.at(0, 0) = 10, raw.at(1, 0) = 20;
  // fx = 8: 0.75 * 10 + 0.25 * 20 = 12.5, to even: 12; fx = 24: 17.5 -> 18.
  const ImageF32 y = one_pixel_map(0.0f);
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(0.25f), y).at(0, 0), 12);
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(0.75f), y).at(0, 0), 18);
}

TEST(Remap, PositionsAreQuantizedToOneThirtySecondTiesToEven) {
  ImageU16 raw(2, 1);
  raw.at(0, 0) = 0, raw.at(1, 0) = 32000;
  const ImageF32 y = one_pixel_map(0.0f);
  // 1/64 px is 0.5 / 32: to fraction 0. 3/64 is 1.5 / 32: to fraction 2 (32000 * 2 / 32).
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(1.0f / 64), y).at(0, 0), 0);
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(3.0f / 64), y).at(0, 0), 2000);
  // 0.01 px is 0.32 / 32: fraction 0.
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(0.01f), y).at(0, 0), 0);
}

TEST(Remap, OutsideSamplesAreTheBorderValue) {
  ImageU8 raw(2, 2, 200);
  ImageF32 rawf(2, 2, 5.0f);
  // Half a pixel left of the image: half the weight on the border (0).
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(-0.5f), one_pixel_map(0.0f)).at(0, 0), 100);
  EXPECT_TRUE(std::isnan(remap_bilinear(rawf, one_pixel_map(-0.5f), one_pixel_map(0.0f)).at(0, 0)));
  // Exactly on the last column: the right neighbour is outside with weight 0, which keeps the
  // 8-bit value but makes the float NaN (NaN * 0).
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(1.0f), one_pixel_map(0.0f)).at(0, 0), 200);
  EXPECT_TRUE(std::isnan(remap_bilinear(rawf, one_pixel_map(1.0f), one_pixel_map(0.0f)).at(0, 0)));
  // Inside: the exact pixel.
  EXPECT_EQ(remap_bilinear(rawf, one_pixel_map(0.0f), one_pixel_map(0.0f)).at(0, 0), 5.0f);
  // Non-finite map values: the border.
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(NAN), one_pixel_map(0.0f)).at(0, 0), 0);
  EXPECT_EQ(remap_bilinear(raw, one_pixel_map(0.0f), one_pixel_map(INFINITY)).at(0, 0), 0);
}

TEST(Remap, ColourChannelsAreRemappedOnTheirOwn) {
  ImageRgb8 raw(2, 1);
  raw.at(0, 0) = Rgb8{0, 100, 255};
  raw.at(1, 0) = Rgb8{255, 50, 1};
  const Rgb8 out = remap_bilinear(raw, one_pixel_map(0.5f), one_pixel_map(0.0f)).at(0, 0);
  // Weights 16384 each: (16384 * (a + b) + 16384) >> 15 = (a + b + 1) / 2.
  EXPECT_EQ(out, (Rgb8{128, 75, 128}));
}

TEST(Remap, TheResultHasTheMapsSize) {
  const ImageU8 raw(5, 4, 7);
  ImageF32 map_x(3, 6), map_y(3, 6);
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 3; ++x) {
      map_x.at(x, y) = static_cast<float>(x);
      map_y.at(x, y) = static_cast<float>(y);
    }
  }
  const ImageU8 out = remap_bilinear(raw, map_x, map_y);
  ASSERT_EQ(out.width(), 3);
  ASSERT_EQ(out.height(), 6);
  EXPECT_EQ(out.at(2, 3), 7);
  EXPECT_EQ(out.at(2, 4), 0);  // row 4 is past the raw image
}

}  // namespace
}  // namespace sv
