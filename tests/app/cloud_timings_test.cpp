// The 3D view's times (ui/cloud_timings.h): medians over the last kWindow frames per part, and
// the line the Timings window and a screenshot's log show.
#include "ui/cloud_timings.h"

#include <gtest/gtest.h>

namespace sv {
namespace {

TEST(CloudTimings, MediansOverTheRecentFramesIgnoreARareSlowOne) {
  CloudTimings t;
  EXPECT_FALSE(t.median(CloudTimings::Part::Build));
  for (const double ms : {4.0, 5.0, 100.0, 6.0}) t.add(CloudTimings::Part::Build, ms);
  EXPECT_DOUBLE_EQ(*t.median(CloudTimings::Part::Build), 5.5);
  t.add(CloudTimings::Part::Build, 7.0);
  EXPECT_DOUBLE_EQ(*t.median(CloudTimings::Part::Build), 6.0);
  // Only the last kWindow count: the early samples go.
  for (size_t i = 0; i < CloudTimings::kWindow; ++i) t.add(CloudTimings::Part::Build, 2.0);
  EXPECT_EQ(t.samples(CloudTimings::Part::Build), CloudTimings::kWindow);
  EXPECT_DOUBLE_EQ(*t.median(CloudTimings::Part::Build), 2.0);
  t.clear();
  EXPECT_EQ(t.samples(CloudTimings::Part::Build), 0u);
}

TEST(CloudTimings, TextNamesThePartsMeasured) {
  CloudTimings t;
  EXPECT_EQ(t.text(10, "host upload"), "10 points, host upload: no frame timed yet");
  t.add(CloudTimings::Part::Build, 10.2);
  t.add(CloudTimings::Part::Draw, 15.0);
  t.add(CloudTimings::Part::Draw, 17.0);
  EXPECT_EQ(t.text(921600, "host upload"),
            "921600 points, host upload: build 10.20 ms, draw 16.00 ms (GL), medians of the last 2 "
            "frames");
}

}  // namespace
}  // namespace sv
