// The rank transform and rank cost (Banz 2011) on hand-checked cases, and rank-SGM on a shifted
// texture.
#include <gtest/gtest.h>

#include <cstdlib>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/rank_transform.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

TEST(RankTransform, CountsDarkerNeighboursInsideTheImage) {
  // 3x3 image, values row-major 1..9; window 3.
  ImageU8 image(3, 3);
  for (int i = 0; i < 9; ++i) image.data()[i] = static_cast<uint8_t>(i + 1);
  const ImageU8 ranks = rank_transform(image, 3);
  // Centre 5: 1, 2, 3, 4 are darker. Corner (0, 0) = 1: nothing darker. Corner (2, 2) = 9: its
  // window holds 5, 6, 8 (and itself): 3 darker; positions outside the image are not counted.
  EXPECT_EQ(ranks.at(1, 1), 4);
  EXPECT_EQ(ranks.at(0, 0), 0);
  EXPECT_EQ(ranks.at(2, 2), 3);
  // (1, 0) = 2: window {1, 2, 3, 4, 5, 6}: only 1 is darker.
  EXPECT_EQ(ranks.at(1, 0), 1);
  // Equal values are not darker (strict comparison).
  EXPECT_EQ(rank_transform(ImageU8(5, 4, 7), 3), ImageU8(5, 4, 0));
}

TEST(RankTransform, TheLargestWindowCountsEveryDarkerPixel) {
  ImageU8 image(15, 15, 10);
  image.at(7, 7) = 200;
  EXPECT_EQ(rank_transform(image, 15).at(7, 7), 224);  // every other pixel of the 15x15 window
  EXPECT_THROW(rank_transform(image, 4), InputError);
  EXPECT_THROW(rank_transform(image, 17), InputError);
}

TEST(RankCost, ScalesTheRankDifferenceOntoTheCensusRange) {
  // 9x9: n = 80. Difference 80 -> 64, 0 -> 0, 1 -> (64 + 40) / 80 = 1, 5 -> (320 + 40) / 80 = 4.
  EXPECT_EQ(rank_cost(80, 0, 9), 64);
  EXPECT_EQ(rank_cost(3, 3, 9), 0);
  EXPECT_EQ(rank_cost(10, 11, 9), 1);
  EXPECT_EQ(rank_cost(0, 5, 9), 4);
  // 3x3: n = 8, difference 3 -> (192 + 4) / 8 = 24.
  EXPECT_EQ(rank_cost(4, 1, 3), 24);
}

TEST(RankCost, OutsideCandidatesCostTheMaximum) {
  ImageU8 ranks(4, 1, 0);
  ranks.at(2, 0) = 8;
  const CostVolume<uint8_t> costs = rank_cost_volume(ranks, ranks, 3, SearchRange(0, 3));
  EXPECT_EQ(costs.at(0, 0, 1), 64);  // x - 1 < 0
  EXPECT_EQ(costs.at(2, 0, 0), 0);   // 8 vs 8
  EXPECT_EQ(costs.at(2, 0, 1), 64);  // 8 vs 0: difference n
  EXPECT_EQ(costs.at(3, 0, 1), 64);  // 0 vs 8
  EXPECT_THROW(rank_cost_volume(ranks, ImageU8(3, 1), 3, SearchRange(0, 3)), InputError);
}

TEST(RankSgm, FindsTheShiftOfATexture) {
  const test::ShiftedPair pair = test::shifted_pair(120, 60, 7, 11);
  StereoParams params;
  params.algorithm = "rank-sgm";
  params.num_disparities = 16;
  const DisparityResult result = CpuEngine().compute(pair.left, pair.right, params);
  int right = 0, total = 0;
  for (int y = 5; y < 55; ++y) {
    for (int x = 30; x < 110; ++x) {
      ++total;
      right += std::abs(result.disparity_fixed.at(x, y) - 7 * kDisparityScale) <= kDisparityScale / 4;
    }
  }
  EXPECT_GT(right, total * 95 / 100);
}

}  // namespace
}  // namespace sv
