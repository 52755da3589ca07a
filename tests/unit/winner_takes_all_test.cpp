#include "src/core/winner_takes_all.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {
namespace {

// One-pixel volume holding `costs` as the candidates of disparities base, base + 1, ...
template <typename T>
CostVolume<T> one_pixel(const std::vector<T>& costs, int base = 0) {
  CostVolume<T> v(1, 1, SearchRange(base, static_cast<int>(costs.size())));
  for (size_t k = 0; k < costs.size(); ++k) v.at(0, 0, static_cast<int>(k)) = costs[k];
  return v;
}

template <typename T>
int wta_one(const std::vector<T>& costs, const WtaSettings& s, int base = 0) {
  return winner_takes_all(one_pixel(costs, base), s).at(0, 0);
}

WtaSettings whole_pixels(int uniqueness = 0) {
  WtaSettings s;
  s.subpixel = false;
  s.uniqueness = uniqueness;
  return s;
}

constexpr int kInvalid = kInvalidFixedDisparity;

TEST(WinnerTakesAll, LowestCostWinsAndTiesGoToTheLowerDisparity) {
  EXPECT_EQ(wta_one<uint8_t>({5, 3, 4, 9}, whole_pixels()), 1 * 16);
  EXPECT_EQ(wta_one<uint8_t>({5, 3, 4, 3, 9}, whole_pixels(), 2), (2 + 1) * 16);
  EXPECT_EQ(wta_one<uint16_t>({7, 7, 7}, whole_pixels(), -5), -5 * 16);
}

TEST(WinnerTakesAll, UniquenessRejectsNearTiesFartherThanOnePixel) {
  // best 10 at k 0, runner-up 11 at k 2: rejected when 11 * (100 - u) < 1000, i.e. u > 9.
  const std::vector<uint8_t> near_tie = {10, 20, 11, 30};
  EXPECT_EQ(wta_one(near_tie, whole_pixels(0)), 0);
  EXPECT_EQ(wta_one(near_tie, whole_pixels(9)), 0);  // 11 * 91 = 1001, not < 1000
  EXPECT_EQ(wta_one(near_tie, whole_pixels(10)), kInvalid);  // 990 < 1000
  // A neighbour 1 px away never counts, however close.
  EXPECT_EQ(wta_one<uint8_t>({10, 10, 30, 30}, whole_pixels(50)), 0);
  // u = 0 rejects nothing, even an exact tie far away (which picks the lower disparity).
  EXPECT_EQ(wta_one<uint8_t>({10, 30, 30, 10}, whole_pixels(0)), 0);
  EXPECT_EQ(wta_one<uint8_t>({10, 30, 30, 10}, whole_pixels(1)), kInvalid);
}

TEST(WinnerTakesAll, UniquenessDoesNotOverflowOnLargeCosts) {
  // 4e9 * 50 = 2e11 < 3e9 * 100 = 3e11: rejected; 32-bit products would wrap.
  const std::vector<uint32_t> costs = {3000000000u, 3500000000u, 4000000000u};
  EXPECT_EQ(wta_one(costs, whole_pixels(50)), kInvalid);
  EXPECT_EQ(wta_one(costs, whole_pixels(20)), 0);  // 4e9 * 80 = 3.2e11, not < 3e11
}

TEST(WinnerTakesAll, SubpixelParabolaRoundedToSixteenths) {
  WtaSettings s;
  // Symmetric: vertex on the winner.
  EXPECT_EQ(wta_one<uint8_t>({9, 4, 9, 20}, s), 16);
  // c0 4, cm 10, cp 6: denom 8, offset 16 * 4 / 16 = 4 (toward the cheaper side, k + 1).
  EXPECT_EQ(wta_one<uint8_t>({10, 4, 6, 20}, s), 16 + 4);
  // cm 6, cp 10: the mirror image.
  EXPECT_EQ(wta_one<uint8_t>({6, 4, 10, 20}, s), 16 - 4);
  // cm 9, cp 6: denom 7, 8 * 3 / 7 = 3.43 -> 3.
  EXPECT_EQ(wta_one<uint16_t>({9, 4, 6}, s), 16 + 3);
  // cm 17, cp 15, c0 0: denom 32, 8 * 2 / 32 = 0.5 -> 1 (half away from zero); mirrored -> -1.
  EXPECT_EQ(wta_one<uint32_t>({17, 0, 15}, s), 16 + 1);
  EXPECT_EQ(wta_one<uint32_t>({15, 0, 17}, s), 16 - 1);
  // With a per-pixel base the offset is added to the winner's disparity.
  EXPECT_EQ(wta_one<uint8_t>({10, 4, 6, 20}, s, 7), (7 + 1) * 16 + 4);
}

TEST(WinnerTakesAll, NoSubpixelAtTheRangeEndsOrBesideMissingCosts) {
  WtaSettings s;
  EXPECT_EQ(wta_one<uint8_t>({1, 5, 9}, s), 0);
  EXPECT_EQ(wta_one<uint8_t>({9, 5, 1}, s), 2 * 16);
  const uint32_t outside = std::numeric_limits<uint32_t>::max();
  EXPECT_EQ(wta_one<uint32_t>({outside, 4, 6}, s), 16);
  EXPECT_EQ(wta_one<uint32_t>({6, 4, outside}, s), 16);
  EXPECT_EQ(wta_one<uint32_t>({6, 4, 5}, s), 16 + 3);  // 8 * 1 / 3 = 2.67 -> 3, for contrast
}

TEST(WinnerTakesAll, MissingOrTooExpensiveBestIsInvalid) {
  WtaSettings s;
  s.max_cost = 3.5;
  EXPECT_EQ(wta_one<uint8_t>({9, 4, 9}, s), kInvalid);
  s.max_cost = 4;  // best > max_cost rejects; equal passes
  EXPECT_EQ(wta_one<uint8_t>({9, 4, 9}, s), 16);
  const uint32_t outside = std::numeric_limits<uint32_t>::max();
  EXPECT_EQ(wta_one<uint32_t>({outside, outside}, WtaSettings()), kInvalid);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(wta_one<float>({inf, inf}, WtaSettings()), kInvalid);
}

TEST(WinnerTakesAll, FloatCosts) {
  WtaSettings s;
  // c0 0.125, cm 1, cp 0.5: denom 1.25, 16 * 0.5 / 2.5 = 3.2 -> 3.
  EXPECT_EQ(wta_one<float>({1.0f, 0.125f, 0.5f}, s), 16 + 3);
  // 16 * -0.5 / 2.5 = -3.2 -> -3.
  EXPECT_EQ(wta_one<float>({0.5f, 0.125f, 1.0f}, s), 16 - 3);
  // c0 0, cm 0.75, cp 0.25: denom 1, 16 * 0.5 / 2 = 4.
  EXPECT_EQ(wta_one<float>({0.75f, 0.0f, 0.25f}, s, 3), 4 * 16 + 4);
  // Uniqueness: 0.52 * 90 = 46.8 < 0.5 * 100.
  EXPECT_EQ(wta_one<float>({0.5f, 1.0f, 0.52f}, whole_pixels(10)), kInvalid);
  EXPECT_EQ(wta_one<float>({0.5f, 1.0f, 0.52f}, whole_pixels(3)), 0);
}

TEST(WinnerTakesAll, WholeImageUsesEachPixelsBase) {
  ImageI16 base(3, 2);
  for (int i = 0; i < 6; ++i) base.data()[i] = static_cast<int16_t>(i - 2);
  CostVolume<uint8_t> v(3, 2, SearchRange(base, 3), 50);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) v.at(x, y, (x + y) % 3) = 1;
  }
  const ImageI16 d = winner_takes_all(v, whole_pixels());
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) EXPECT_EQ(d.at(x, y), (base.at(x, y) + (x + y) % 3) * 16);
  }
}

TEST(WinnerTakesAll, RejectsUniquenessOutOfRange) {
  EXPECT_THROW(wta_one<uint8_t>({1, 2}, whole_pixels(100)), InputError);
  EXPECT_THROW(wta_one<uint8_t>({1, 2}, whole_pixels(-1)), InputError);
}

TEST(RightViewDisparity, BackwardMatchingHandCase) {
  // One row, d in {0, 1}. Offers (right pixel <- disparity: cost):
  //   x0: xr0 <- 0: 5 (d 1 falls outside);   x1: xr1 <- 0: 2, xr0 <- 1: 3;
  //   x2: xr2 <- 0: 4, xr1 <- 1: 2;          x3: xr3 <- 0: 7, xr2 <- 1: 0.
  // xr0: min(5, 3) -> 1; xr1: tie 2 / 2 -> the smaller d 0; xr2: min(4, 0) -> 1; xr3 -> 0.
  CostVolume<uint8_t> v(4, 1, SearchRange(0, 2));
  const int costs[4][2] = {{5, 1}, {2, 3}, {4, 2}, {7, 0}};
  for (int x = 0; x < 4; ++x) {
    for (int k = 0; k < 2; ++k) v.at(x, 0, k) = static_cast<uint8_t>(costs[x][k]);
  }
  const ImageI16 right = right_view_disparity(v);
  EXPECT_EQ(right.at(0, 0), 16);
  EXPECT_EQ(right.at(1, 0), 0);
  EXPECT_EQ(right.at(2, 0), 16);
  EXPECT_EQ(right.at(3, 0), 0);
}

TEST(RightViewDisparity, UnreachedRightPixelsAreInvalid) {
  // d = 1 only: right pixel xr is offered by x = xr + 1, so the last right pixel gets nothing.
  CostVolume<float> v(3, 2, SearchRange(1, 1), 0.5f);
  const ImageI16 right = right_view_disparity(v);
  for (int y = 0; y < 2; ++y) {
    EXPECT_EQ(right.at(0, y), 16);
    EXPECT_EQ(right.at(1, y), 16);
    EXPECT_EQ(right.at(2, y), kInvalid);
  }
}

}  // namespace
}  // namespace sv
