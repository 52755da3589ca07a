#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_aggregation.h"
#include "src/core/esmp_messages.h"
#include "src/core/half_float.h"

namespace sv {
namespace {

// Equation 13 read literally: M(d) = min over d' of C(d') + min(c |d - d'|, eta).
std::vector<double> brute_force_message(const std::vector<float>& c, double slope, double cap) {
  std::vector<double> m(c.size());
  for (size_t d = 0; d < c.size(); ++d) {
    double best = INFINITY;
    for (size_t e = 0; e < c.size(); ++e) {
      const double distance = std::abs(static_cast<double>(d) - static_cast<double>(e));
      best = std::min(best, c[e] + std::min(slope * distance, cap));
    }
    m[d] = best;
  }
  return m;
}

TEST(CostToMessage, HandChecked) {
  std::vector<float> m = {5, 0, 5, 5, 5};
  cost_to_message(m.data(), 5, MessageSettings{1.0f, 2.5f});
  EXPECT_EQ(m, (std::vector<float>{1, 0, 1, 2, 2.5f}));  // cone from d = 1, capped at 0 + 2.5

  std::vector<float> two_minima = {0, 9, 9, 9, 9, 9, 3};
  cost_to_message(two_minima.data(), 7, MessageSettings{2.0f, 100.0f});
  EXPECT_EQ(two_minima, (std::vector<float>{0, 2, 4, 6, 7, 5, 3}));  // cones from 0 and 3

  std::vector<float> one = {4};
  cost_to_message(one.data(), 1, MessageSettings{1.0f, 0.0f});
  EXPECT_EQ(one[0], 4.0f);
  cost_to_message(one.data(), 0, MessageSettings{});  // no candidates: nothing to do
}

TEST(CostToMessage, EqualsTheBruteForceMinimumOnRandomInputs) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> count(1, 70);
  std::uniform_real_distribution<float> cost(0.0f, 5.0f);
  const float slopes[] = {0.0f, 0.3f, 1.0f, 2.5f};
  const float caps[] = {0.0f, 0.7f, 3.0f, 100.0f};
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<float> m(count(rng));
    for (float& v : m) v = cost(rng);
    const MessageSettings s{slopes[trial % 4], caps[(trial / 4) % 4]};
    const std::vector<double> expected = brute_force_message(m, s.slope, s.cap);
    cost_to_message(m.data(), static_cast<int>(m.size()), s);
    for (size_t d = 0; d < m.size(); ++d) {
      ASSERT_NEAR(m[d], expected[d], 1e-4) << "trial " << trial << " d " << d;
    }
  }
}

// With dyadic values every sum is exact, so the fast algorithm must equal the brute force exactly.
TEST(CostToMessage, ExactOnDyadicInputs) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> eighths(0, 200);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> m(1 + trial % 64);
    for (float& v : m) v = eighths(rng) / 8.0f;
    const MessageSettings s{0.25f * (trial % 9), 0.5f * (trial % 13)};
    const std::vector<double> expected = brute_force_message(m, s.slope, s.cap);
    cost_to_message(m.data(), static_cast<int>(m.size()), s);
    for (size_t d = 0; d < m.size(); ++d) ASSERT_EQ(m[d], expected[d]) << "trial " << trial;
  }
}

TEST(CostToMessage, VolumeRejectsBadSmoothness) {
  CostVolume<float> v(2, 2, SearchRange(0, 3));
  EXPECT_THROW(cost_to_message(v, MessageSettings{-1.0f, 1.0f}), InputError);
  EXPECT_THROW(cost_to_message(v, MessageSettings{1.0f, NAN}), InputError);
}

// One ESMP iteration is message, horizontal pass, message, vertical pass (eqs. 13-16).
TEST(EsmpAggregate, OneIterationIsMessagePassMessagePass) {
  const int w = 9, h = 7, n = 6;
  ImageU8 guide(w, h);
  CostVolume<float> costs(w, h, SearchRange(0, n));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(0.0f, 3.0f);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      guide.at(x, y) = static_cast<uint8_t>(rng() % 256);
      for (int k = 0; k < n; ++k) costs.at(x, y, k) = value(rng);
    }
  }
  EsawSettings esaw;
  esaw.iterations = 1;
  const MessageSettings messages{0.5f, 1.25f};
  CostVolume<float> expected = costs, horizontal;
  cost_to_message(expected, messages);
  esaw_pass(expected, horizontal, guide, 1, PassDirection::Horizontal, esaw.gamma_c, esaw.gamma_p);
  cost_to_message(horizontal, messages);
  esaw_pass(horizontal, expected, guide, 1, PassDirection::Vertical, esaw.gamma_c, esaw.gamma_p);
  EXPECT_EQ(esmp_aggregate(costs, guide, esaw, messages).costs(), expected.costs());

  // Half storage: each of the four stored volumes rounded to half.
  for (float& c : costs.costs()) c = round_to_half(c);
  esaw.half_storage = true;
  expected = costs;
  cost_to_message(expected, messages);
  round_to_half(expected);
  esaw_pass(expected, horizontal, guide, 1, PassDirection::Horizontal, esaw.gamma_c, esaw.gamma_p);
  round_to_half(horizontal);
  cost_to_message(horizontal, messages);
  round_to_half(horizontal);
  esaw_pass(horizontal, expected, guide, 1, PassDirection::Vertical, esaw.gamma_c, esaw.gamma_p);
  round_to_half(expected);
  EXPECT_EQ(esmp_aggregate(costs, guide, esaw, messages).costs(), expected.costs());
}

// A pixel whose own costs favour d = 1 while its two neighbours favour d = 0 and d = 2 (the
// paper's figure 6 situation, along a row): aggregating costs picks a neighbour's disparity,
// aggregating messages the smooth middle one.
TEST(EsmpAggregate, MessagesFavourTheSmoothSolution) {
  const ImageU8 guide(3, 1, 100);
  CostVolume<float> costs(3, 1, SearchRange(0, 3));
  const float rows[3][3] = {{0, 9, 9}, {9, 3, 9}, {9, 9, 0}};
  for (int x = 0; x < 3; ++x) {
    for (int k = 0; k < 3; ++k) costs.at(x, 0, k) = rows[x][k];
  }
  EsawSettings esaw;
  esaw.iterations = 1;
  auto winner = [](const CostVolume<float>& c) {
    const float* p = c.pixel(1, 0);
    return static_cast<int>(std::min_element(p, p + 3) - p);
  };
  const CostVolume<float> plain = esaw_aggregate(costs, guide, esaw);
  const CostVolume<float> smooth = esmp_aggregate(costs, guide, esaw, MessageSettings{1.0f, 9.0f});
  EXPECT_NE(winner(plain), 1);
  EXPECT_EQ(winner(smooth), 1);
}

}  // namespace
}  // namespace sv
