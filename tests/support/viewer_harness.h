#pragma once

// What the tests of the real viewer under Xvfb share (tests/app/viewer_*test.cpp): a suite with
// its own X server and folder, and the viewer run there with Mesa's software GL, its output
// captured. The viewer's path comes from STEREOVIEW_VIEWER_BINARY, which CMake compiles into
// each such test (and so into viewer_harness.cpp, listed among its sources).

#include <gtest/gtest.h>

#include <sys/types.h>

#include <memory>
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


 public:
  // The viewer started with `args` and left running, for a test that drives it (the mouse
  // through ViewerInput) while it runs; stdout and stderr into path("out") and path("err").
  class Running {
   public:
    Running(const std::string& display, const std::string& dir, const std::vector<std::string>& args);
    ~Running();  // kills it if it still runs
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
    // Waits until its stderr holds `text` (in a log line) after the place where the last wait
    // found its text; false when it exited first or `timeout_s` passed.
    bool wait_for_log(const std::string& text, double timeout_s);
    // Waits for it to exit (killing it after `timeout_s`) and returns what it printed.
    ViewerRun finish(double timeout_s);

   private:
    pid_t pid_ = -1;
    int status_ = 0;
    std::string dir_;
    size_t seen_ = 0;  // stderr up to here was searched by an earlier wait
  };

 protected:
  static std::unique_ptr<Running> start_viewer(const std::vector<std::string>& args) {
    return std::make_unique<Running>(server_->display(), dir_, args);
  }

  static XvfbServer* server_;
  static std::string skip_reason_;
  static std::string dir_;
};

}  // namespace sv::test
