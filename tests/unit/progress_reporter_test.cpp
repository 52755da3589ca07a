#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "src/app/progress_reporter.h"

namespace sv {
namespace {

TEST(ProgressReporter, PlainLinesGiveCountPercentRateAndEta) {
  std::ostringstream out;
  ProgressReporter progress(out, false, 200, 0.0);  // interval 0: a line per update
  progress.update(50);
  progress.finish(200);
  const std::string text = out.str();
  EXPECT_NE(text.find("progress: 50/200 frames (25%), "), std::string::npos) << text;
  EXPECT_NE(text.find(" fps, ETA "), std::string::npos) << text;
  EXPECT_NE(text.find("progress: 200/200 frames (100%), "), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);  // nothing terminal-only in a log
  EXPECT_EQ(text.back(), '\n');
}

TEST(ProgressReporter, PlainLinesAreRateLimited) {
  std::ostringstream out;
  ProgressReporter progress(out, false, 1000, 60.0);
  for (int i = 1; i <= 500; ++i) progress.update(i);
  EXPECT_EQ(out.str(), "");  // within the first minute: no line yet
  progress.finish(1000);
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST(ProgressReporter, TerminalRedrawsOneLineWithABar) {
  std::ostringstream out;
  ProgressReporter progress(out, true, 10);
  progress.update(5);
  progress.finish(10);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("\r[###############...............] 5/10 frames", 0), 0u) << text;
  EXPECT_NE(text.find("\r[##############################] 10/10 frames"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);  // only the final line ends
}

TEST(ProgressReporter, UnknownTotalLeavesOutBarPercentAndEta) {
  std::ostringstream out;
  ProgressReporter progress(out, false, -1, 0.0);
  progress.update(12);
  EXPECT_EQ(out.str().rfind("progress: 12 frames, ", 0), 0u) << out.str();
  EXPECT_EQ(out.str().find("ETA"), std::string::npos);
  EXPECT_EQ(out.str().find('%'), std::string::npos);
}

}  // namespace
}  // namespace sv
