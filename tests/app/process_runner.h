#pragma once

#include <string>
#include <vector>

namespace sv::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the stereoview binary (path compiled in by CMake) with `args`, waits,
// and returns its exit code and what it printed on stdout and stderr.
ProcessResult run_stereoview(const std::vector<std::string>& args);

// A fresh empty folder under the test temp dir.
std::string make_temp_dir(const std::string& name);

}  // namespace sv::test
