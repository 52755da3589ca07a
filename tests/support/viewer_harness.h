#pragma once

// What the tests of the real viewer under Xvfb share (tests/app/viewer_*test.cpp): a suite with
// its own X server and folder, and the viewer run there with Mesa's software GL, its output
// captured. The viewer's path comes from STEREOVIEW_VIEWER_BINARY, which CMake compiles into
// each such test (and so into viewer_harness.cpp, listed among its sources).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/shell_text.h"
#include "tests/support/xvfb_server.h"

namespace sv::test {

struct ViewerRun {
  int exit_code = -1;  // 128 + signal when a signal ended it (137: killed after the time limit)
  std::string out;
  std::string err;
};

// A suite of viewer tests: one Xvfb for the suite and a fresh folder named after it; each test
// skips, saying why, when Xvfb cannot start.
class ViewerSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;

  // A file in the suite's folder.
  static std::string path(const std::string& name);
  static std::string write_file(const std::string& name, const std::string& text);
  // The viewer with exactly `args`, stdout and stderr into path("out") and path("err"); killed
  // after `timeout_s` (a hang fails the test instead of stalling the suite).
  static ViewerRun run_viewer_with(const std::vector<std::string>& args, int timeout_s = 60);

  static XvfbServer* server_;
  static std::string skip_reason_;
  static std::string dir_;
};

}  // namespace sv::test
