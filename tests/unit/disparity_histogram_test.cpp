// The disparity histogram and the time-smoothed automatic colour range of the viewer.
#include "src/core/disparity_histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {
namespace {

TEST(Histogram, BinsEndsAndPercentiles) {
  ImageF32 v(6, 1);
  v.at(0, 0) = 0.0f, v.at(1, 0) = 0.99f, v.at(2, 0) = 1.0f, v.at(3, 0) = 4.0f;
  v.at(4, 0) = 5.0f, v.at(5, 0) = kInvalidDisparity;
  const Histogram h = make_histogram(v, ValueRange{0.0f, 4.0f}, 4);
  EXPECT_EQ(h.counts, (std::vector<uint64_t>{2, 1, 0, 1}));  // 4.0 goes into the last bin
  EXPECT_EQ(h.above, 1u);
  EXPECT_EQ(h.below, 0u);
  EXPECT_EQ(h.invalid, 1u);
  EXPECT_EQ(h.valid(), 5u);
  EXPECT_FLOAT_EQ(h.bin_width(), 1.0f);
  EXPECT_FLOAT_EQ(h.percentile(0.2), 0.5f);  // 1 of 5: half way through bin 0 (2 values)
  EXPECT_FLOAT_EQ(h.percentile(0.0), 0.0f);
  EXPECT_FLOAT_EQ(h.percentile(1.0), 4.0f);  // above counts at hi
  EXPECT_THROW(make_histogram(v, ValueRange{1.0f, 1.0f}, 4), InputError);
  EXPECT_THROW(make_histogram(v, ValueRange{0.0f, 1.0f}, 0), InputError);
  EXPECT_FLOAT_EQ(valid_range(v, ValueRange{}).hi, 5.0f);
  EXPECT_FLOAT_EQ(valid_range(ImageF32(2, 2, kInvalidDisparity), ValueRange{3, 9}).lo, 3.0f);
}

TEST(RangeSmoother, FollowsExponentiallyAndStopsJumps) {
  RangeSmoother smoother(0.5);
  ValueRange r = smoother.update(ValueRange{0.0f, 10.0f}, 0.0);
  EXPECT_FLOAT_EQ(r.hi, 10.0f);  // the first is taken as it is
  // One time constant later the range has gone 1 - 1/e of the way.
  r = smoother.update(ValueRange{0.0f, 20.0f}, 0.5);
  EXPECT_NEAR(r.hi, 10.0 + 10.0 * (1.0 - std::exp(-1.0)), 1e-4);
  // A one-frame outlier (1/30 s) moves the range by under 7 % of the jump.
  RangeSmoother steady(0.5);
  steady.update(ValueRange{0.0f, 10.0f}, 0.0);
  r = steady.update(ValueRange{0.0f, 40.0f}, 1.0 / 30.0);
  EXPECT_LT(r.hi, 12.0f);
  r = steady.update(ValueRange{0.0f, 10.0f}, 1.0 / 30.0);
  EXPECT_LT(r.hi, 12.0f);
  // It settles on a range that stays.
  for (int i = 0; i < 300; ++i) r = steady.update(ValueRange{2.0f, 30.0f}, 1.0 / 30.0);
  EXPECT_NEAR(r.lo, 2.0, 1e-3);
  EXPECT_NEAR(r.hi, 30.0, 1e-3);
  steady.reset();
  EXPECT_FLOAT_EQ(steady.update(ValueRange{5.0f, 6.0f}, 1.0).lo, 5.0f);
}

}  // namespace
}  // namespace sv
