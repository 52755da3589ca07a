#pragma once

#include <string>
#include <vector>

namespace sv::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  bool timed_out = false;  // killed after the time limit
};

// Runs the stereoview binary (path compiled in by CMake) with `args`, waits,
// and returns its exit code and what it printed on stdout and stderr. With `timeout_s` > 0 the
// program is killed after that many seconds (for tests of inputs that used to hang).
ProcessResult run_stereoview(const std::vector<std::string>& args, int timeout_s = 0);

// A fresh empty folder under the test temp dir.
std::string make_temp_dir(const std::string& name);

}  // namespace sv::test
