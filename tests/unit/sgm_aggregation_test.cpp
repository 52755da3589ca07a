#include "src/core/sgm_aggregation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/core/winner_takes_all.h"

namespace sv {
namespace {

// Builds a volume from per-pixel cost lists given row by row.
CostVolume<uint8_t> volume_from(int width, int height, SearchRange range,
                                const std::vector<std::vector<int>>& pixel_costs) {
  CostVolume<uint8_t> v(width, height, std::move(range));
  for (int i = 0; i < width * height; ++i) {
    for (int k = 0; k < v.count(); ++k) {
      v.at(i % width, i / width, k) = static_cast<uint8_t>(pixel_costs[i][k]);
    }
  }
  return v;
}

std::vector<int> pixel_sums(const CostVolume<uint16_t>& s, int x, int y) {
  return std::vector<int>(s.pixel(x, y), s.pixel(x, y) + s.count());
}

CostVolume<uint8_t> random_volume(int width, int height, SearchRange range, unsigned seed) {
  CostVolume<uint8_t> v(width, height, std::move(range));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> cost(0, 64);
  for (auto& c : v.costs()) c = static_cast<uint8_t>(cost(rng));
  return v;
}

ImageU8 random_image(int width, int height, unsigned seed) {
  ImageU8 img(width, height);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 255);
  for (auto& p : img.pixels()) p = static_cast<uint8_t>(value(rng));
  return img;
}

// A literal transcription of the definition, one full L volume per direction, used to check
// the streaming implementation on random inputs.
std::vector<int> reference_sgm(const CostVolume<uint8_t>& c, const ImageU8& left,
                               const SgmSettings& s) {
  const int w = c.width(), h = c.height(), n = c.count();
  const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  std::vector<int> sum(static_cast<size_t>(w) * h * n, 0);
  for (int r = 0; r < s.paths; ++r) {
    const int dx = dirs[r][0], dy = dirs[r][1];
    std::vector<int> L(sum.size(), 0);
    auto idx = [&](int x, int y, int k) { return (static_cast<size_t>(y) * w + x) * n + k; };
    for (int yi = 0; yi < h; ++yi) {
      const int y = dy >= 0 ? yi : h - 1 - yi;
      for (int xi = 0; xi < w; ++xi) {
        const int x = dx >= 0 ? xi : w - 1 - xi;
        const int qx = x - dx, qy = y - dy;
        const bool first = qx < 0 || qx >= w || qy < 0 || qy >= h;
        int qmin = 1 << 30;
        if (!first) {
          for (int i = 0; i < n; ++i) qmin = std::min(qmin, L[idx(qx, qy, i)]);
        }
        int p2 = s.p2;
        if (!first && s.adaptive_p2) {
          const int step = std::abs(left.at(x, y) - left.at(qx, qy));
          p2 = std::max(s.p1, s.p2 * s.p2_edge_scale / (s.p2_edge_scale + step));
        }
        for (int k = 0; k < n; ++k) {
          int value = c.at(x, y, k);
          if (!first) {
            const int d = c.range().base(x, y) + k;
            auto lq = [&](int dq) {
              const int i = dq - c.range().base(qx, qy);
              return i >= 0 && i < n ? L[idx(qx, qy, i)] : (1 << 29);
            };
            const int m = std::min({lq(d), lq(d - 1) + s.p1, lq(d + 1) + s.p1, qmin + p2});
            value += m - qmin;
          }
          L[idx(x, y, k)] = value;
          sum[idx(x, y, k)] += value;
        }
      }
    }
  }
  return sum;
}

std::vector<int> as_ints(const CostVolume<uint16_t>& s) {
  return std::vector<int>(s.costs().begin(), s.costs().end());
}

TEST(SgmAggregation, HandCaseOneRowFourPaths) {
  // L->R: p0 = C = [1 5 9]; p1 = [6 4 12]; p2 = [10 8 2].
  // R->L: p2 = C = [8 8 0]; p1 = [11 4 7]; p0 = [3 5 11].
  // Up and down paths are one pixel long: L = C each. S = LR + RL + 2C.
  const auto costs = volume_from(3, 1, SearchRange(0, 3), {{1, 5, 9}, {6, 2, 7}, {8, 8, 0}});
  SgmSettings s;
  s.paths = 4;
  s.p1 = 2;
  s.p2 = 5;
  const auto sum = sgm_aggregate(costs, ImageU8(), s);
  EXPECT_EQ(pixel_sums(sum, 0, 0), (std::vector<int>{6, 20, 38}));
  EXPECT_EQ(pixel_sums(sum, 1, 0), (std::vector<int>{29, 12, 33}));
  EXPECT_EQ(pixel_sums(sum, 2, 0), (std::vector<int>{34, 32, 2}));
}

TEST(SgmAggregation, PerPixelRangeComparesEqualDisparities) {
  // Bases 0, 1, 5 with 2 candidates each: p0 holds d 0..1, p1 d 1..2, p2 d 5..6. P1 2, P2 5.
  // L->R: p0 = [3 1] (min 1); p1: d1 = 4 + min(Lq(1)=1, Lq(0)+2=5, 1+5) - 1 = 4,
  //   d2 = 6 + min(Lq(1)+2=3, 6) - 1 = 8; p2 shares no disparity with p1: L = C + P2 = [5 7].
  // R->L: p2 = [0 2]; p1 = C + P2 = [9 11] (min 9); p0: d0 = 3 + min(Lq(1)+2=11, 14) - 9 = 5,
  //   d1 = 1 + min(Lq(1)=9, Lq(2)+2=13, 14) - 9 = 1.
  ImageI16 base(3, 1);
  base.at(0, 0) = 0;
  base.at(1, 0) = 1;
  base.at(2, 0) = 5;
  const auto costs = volume_from(3, 1, SearchRange(base, 2), {{3, 1}, {4, 6}, {0, 2}});
  SgmSettings s;
  s.paths = 4;
  s.p1 = 2;
  s.p2 = 5;
  const auto sum = sgm_aggregate(costs, ImageU8(), s);
  EXPECT_EQ(pixel_sums(sum, 0, 0), (std::vector<int>{14, 4}));
  EXPECT_EQ(pixel_sums(sum, 1, 0), (std::vector<int>{21, 31}));
  EXPECT_EQ(pixel_sums(sum, 2, 0), (std::vector<int>{5, 13}));
  EXPECT_TRUE(sum.range().per_pixel_base() == base);
}

TEST(SgmAggregation, AdaptiveP2LowersPenaltyAcrossEdges) {
  // p0 = [0 9 9], p1 = [9 9 0]; S(p1, d2) = L_LR(p1, 2) + L_RL(p1, 2) + 2 C = L_LR(p1, 2)
  //   = 0 + min(Lq(2)=9, Lq(1)+P1=11, 0+P2') - 0 = min(9, P2').
  const auto costs = volume_from(2, 1, SearchRange(0, 3), {{0, 9, 9}, {9, 9, 0}});
  SgmSettings s;
  s.paths = 4;
  s.p1 = 2;
  s.p2 = 10;
  ImageU8 left(2, 1);
  left.at(1, 0) = 16;
  EXPECT_EQ(sgm_aggregate(costs, left, s).at(1, 0, 2), 9);  // fixed P2 = 10
  s.adaptive_p2 = true;
  s.p2_edge_scale = 16;  // P2' = 10 * 16 / (16 + 16) = 5
  EXPECT_EQ(sgm_aggregate(costs, left, s).at(1, 0, 2), 5);
  s.p2_edge_scale = 24;  // P2' = 240 / 40 = 6
  EXPECT_EQ(sgm_aggregate(costs, left, s).at(1, 0, 2), 6);
  left.at(1, 0) = 255;
  s.p2_edge_scale = 1;  // 10 / 256 = 0, floored at P1 = 2
  EXPECT_EQ(sgm_aggregate(costs, left, s).at(1, 0, 2), 2);
}

TEST(SgmAggregation, MatchesLiteralDefinitionOnRandomInputs) {
  const int w = 13, h = 9;
  ImageI16 base(w, h);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> b(-3, 3);
  for (auto& v : base.pixels()) v = static_cast<int16_t>(b(rng));
  const ImageU8 left = random_image(w, h, 11);
  for (int paths : {4, 8}) {
    for (bool adaptive : {false, true}) {
      SgmSettings s;
      s.paths = paths;
      s.p1 = 5;
      s.p2 = 40;
      s.adaptive_p2 = adaptive;
      s.p2_edge_scale = 10;
      for (const SearchRange& range : {SearchRange(2, 6), SearchRange(base, 6)}) {
        const auto costs = random_volume(w, h, range, 3);
        EXPECT_EQ(as_ints(sgm_aggregate(costs, left, s)), reference_sgm(costs, left, s))
            << paths << " paths, adaptive " << adaptive << ", uniform " << range.is_uniform();
      }
    }
  }
}

TEST(SgmAggregation, ZeroPenaltiesKeepTheRawWinner) {
  // With P1 = P2 = 0 the min term equals the previous minimum, so every L_r = C and S = paths*C.
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto costs = random_volume(21, 17, SearchRange(-4, 12), seed);
    for (int paths : {4, 8}) {
      SgmSettings s;
      s.paths = paths;
      s.p1 = 0;
      s.p2 = 0;
      const auto sum = sgm_aggregate(costs, ImageU8(), s);
      for (size_t i = 0; i < sum.costs().size(); ++i) {
        ASSERT_EQ(sum.costs()[i], paths * costs.costs()[i]);
      }
      WtaSettings wta;
      wta.subpixel = false;
      EXPECT_EQ(winner_takes_all(sum, wta), winner_takes_all(costs, wta));
    }
  }
}

TEST(SgmAggregation, UniformPerPixelBaseEqualsUniformRange) {
  const auto uniform = random_volume(19, 11, SearchRange(3, 9), 5);
  CostVolume<uint8_t> per_pixel(19, 11, SearchRange(ImageI16(19, 11, 3), 9));
  per_pixel.costs() = uniform.costs();
  const ImageU8 left = random_image(19, 11, 6);
  SgmSettings s;
  s.adaptive_p2 = true;
  EXPECT_EQ(as_ints(sgm_aggregate(per_pixel, left, s)), as_ints(sgm_aggregate(uniform, left, s)));
}

TEST(SgmAggregation, DiagonalsAddRawCostsOnOnePixelHighOrWideImages) {
  // On a single row (or column) every diagonal path is one pixel long, so 8 paths add 4 C.
  for (auto size : {std::pair<int, int>{23, 1}, std::pair<int, int>{1, 23}}) {
    const auto costs = random_volume(size.first, size.second, SearchRange(0, 10), 9);
    SgmSettings s;
    s.paths = 4;
    const auto four = sgm_aggregate(costs, ImageU8(), s);
    s.paths = 8;
    const auto eight = sgm_aggregate(costs, ImageU8(), s);
    for (size_t i = 0; i < costs.costs().size(); ++i) {
      ASSERT_EQ(eight.costs()[i], four.costs()[i] + 4 * costs.costs()[i]);
    }
  }
}

TEST(SgmAggregation, SameResultForAnyWorkerCount) {
  ImageI16 base(41, 29);
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> b(0, 8);
  for (auto& v : base.pixels()) v = static_cast<int16_t>(b(rng));
  const auto costs = random_volume(41, 29, SearchRange(base, 16), 4);
  const ImageU8 left = random_image(41, 29, 8);
  SgmSettings s;
  s.adaptive_p2 = true;
  set_worker_count(1);
  const auto one = sgm_aggregate(costs, left, s);
  set_worker_count(4);
  const auto four = sgm_aggregate(costs, left, s);
  set_worker_count(0);
  EXPECT_EQ(as_ints(one), as_ints(four));
}

TEST(SgmAggregation, RejectsBadSettings) {
  const auto costs = random_volume(4, 3, SearchRange(0, 4), 1);
  SgmSettings s;
  s.paths = 6;
  EXPECT_THROW(sgm_aggregate(costs, ImageU8(), s), InputError);
  s = SgmSettings();
  s.p2 = 256;
  EXPECT_THROW(sgm_aggregate(costs, ImageU8(), s), InputError);
  s = SgmSettings();
  s.adaptive_p2 = true;
  EXPECT_THROW(sgm_aggregate(costs, ImageU8(3, 3), s), InputError);
  s.p2_edge_scale = 0;
  EXPECT_THROW(sgm_aggregate(costs, ImageU8(4, 3), s), InputError);
}

}  // namespace
}  // namespace sv
