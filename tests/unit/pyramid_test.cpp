#include <gtest/gtest.h>

#include "src/core/disparity.h"
#include "src/core/pyramid.h"

namespace sv {
namespace {

TEST(Pyramid, DownsampleAveragesTwoByTwoRoundingHalfUp) {
  ImageU8 image(3, 3);
  // 1 2 | 9        -> (1+2+3+5+2)/4 = 3 ; right column replicates: (9+9+7+7+2)/4 = 8
  // 3 5 | 7        bottom row replicates: (4+6+4+6+2)/4 = 5 ; corner (8*4+2)/4 = 8
  // 4 6 | 8
  const uint8_t values[] = {1, 2, 9, 3, 5, 7, 4, 6, 8};
  std::copy(values, values + 9, image.data());
  const ImageU8 half = downsample_2x2(image);
  ASSERT_EQ(half.width(), 2);
  ASSERT_EQ(half.height(), 2);
  EXPECT_EQ(half.at(0, 0), 3);
  EXPECT_EQ(half.at(1, 0), 8);
  EXPECT_EQ(half.at(0, 1), 5);
  EXPECT_EQ(half.at(1, 1), 8);
}

TEST(Pyramid, BuildKeepsTheOriginalAtLevelZero) {
  ImageU8 image(37, 21, 7);
  const auto levels = build_pyramid(image, 3);
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[0], image);
  EXPECT_EQ(levels[1].width(), 19);
  EXPECT_EQ(levels[2].width(), 10);
  EXPECT_EQ(levels[3].width(), 5);
  EXPECT_EQ(levels[3].height(), 3);
  EXPECT_EQ(levels[3].at(4, 2), 7);
}

TEST(Pyramid, CoarseRangeCoversTheFullRangeOutward) {
  // [0, 64) at level 2: disparities 0..63 -> 0..15.75 -> 0..16
  const SearchRange r = coarse_search_range(0, 64, 2);
  EXPECT_EQ(r.uniform_base(), 0);
  EXPECT_EQ(r.count(), 17);
  // [-5, 10) at level 1: -5..9 -> -2.5..4.5 -> -3..5
  const SearchRange n = coarse_search_range(-5, 15, 1);
  EXPECT_EQ(n.uniform_base(), -3);
  EXPECT_EQ(n.count(), 9);
}

TEST(Pyramid, RefinementCentresOnTheDoubledEstimate) {
  ImageI16 coarse(2, 1);
  coarse.at(0, 0) = to_fixed_disparity(5);          // -> 10 at the finer level
  coarse.at(1, 0) = static_cast<int16_t>(5 * 16 + 4);  // 5.25 -> 10.5 -> rounds to 11
  const SearchRange r = refine_search_range(coarse, 4, 2, 2, 0, 64, 0);
  EXPECT_EQ(r.count(), 5);
  EXPECT_EQ(r.base(0, 0), 8);
  EXPECT_EQ(r.base(1, 1), 8);
  EXPECT_EQ(r.base(2, 0), 9);
  EXPECT_EQ(r.base(3, 1), 9);
}

TEST(Pyramid, RefinementStaysInsideTheFullRange) {
  ImageI16 coarse(2, 1);
  coarse.at(0, 0) = to_fixed_disparity(0);
  coarse.at(1, 0) = to_fixed_disparity(40);  // beyond the range: clamps to the top
  const SearchRange r = refine_search_range(coarse, 4, 1, 3, 0, 64, 0);
  EXPECT_EQ(r.count(), 7);
  EXPECT_EQ(r.base(0, 0), 0);        // 0 - 3 clamps to 0
  EXPECT_EQ(r.base(3, 0), 63 - 6);  // last window ends at 63
}

TEST(Pyramid, InvalidCoarsePixelsBorrowTheNearestValidOne) {
  ImageI16 coarse(3, 1, kInvalidFixedDisparity);
  coarse.at(2, 0) = to_fixed_disparity(4);
  const SearchRange r = refine_search_range(coarse, 6, 1, 1, 0, 32, 0);
  for (int x = 0; x < 6; ++x) EXPECT_EQ(r.base(x, 0), 7) << x;

  ImageI16 empty(3, 1, kInvalidFixedDisparity);
  const SearchRange c = refine_search_range(empty, 6, 1, 1, 0, 32, 0);
  EXPECT_EQ(c.base(0, 0), 15 - 1);  // range centre (0 + 31) / 2 = 15
}

}  // namespace
}  // namespace sv
