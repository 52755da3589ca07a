#pragma once

#include <gtest/gtest.h>

#include "src/core/pixel_costs.h"

namespace sv::test {

// Every field of two engines' probes of one pixel, exactly.
inline void expect_same_probe(const PixelCosts& a, const PixelCosts& b) {
  EXPECT_EQ(a.pixel.x, b.pixel.x);
  EXPECT_EQ(a.pixel.y, b.pixel.y);
  EXPECT_EQ(a.unavailable, b.unavailable);
  EXPECT_EQ(a.base, b.base);
  EXPECT_EQ(a.matching, b.matching);
  EXPECT_EQ(a.aggregated, b.aggregated);
  EXPECT_EQ(a.matching_name, b.matching_name);
  EXPECT_EQ(a.aggregated_name, b.aggregated_name);
  const PixelSelection& s = a.selection;
  const PixelSelection& t = b.selection;
  EXPECT_EQ(s.best, t.best);
  EXPECT_EQ(s.second, t.second);
  EXPECT_EQ(s.best_cost, t.best_cost);
  EXPECT_EQ(s.second_cost, t.second_cost);
  EXPECT_EQ(s.uniqueness_ratio, t.uniqueness_ratio);
  EXPECT_EQ(s.fit.fitted, t.fit.fitted);
  EXPECT_EQ(s.fit.before, t.fit.before);
  EXPECT_EQ(s.fit.at, t.fit.at);
  EXPECT_EQ(s.fit.after, t.fit.after);
  EXPECT_EQ(s.fit.vertex, t.fit.vertex);
  EXPECT_EQ(s.fit.offset, t.fit.offset);
  EXPECT_EQ(s.disparity, t.disparity);
  EXPECT_EQ(s.reason, t.reason);
  EXPECT_EQ(a.uniqueness, b.uniqueness);
  EXPECT_EQ(a.final_disparity, b.final_disparity);
  EXPECT_EQ(a.reason, b.reason);
}

}  // namespace sv::test
