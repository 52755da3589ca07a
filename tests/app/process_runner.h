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

// What run_stereoview_controlled does to the process besides running it.
struct ProcessControl {
  long long file_size_limit = -1;  // RLIMIT_FSIZE of the process, in bytes; -1: none
  // Sent once the file `signal_when_exists` exists and `signal_delay_s` more have passed; a
  // second signal (the same, or `second_signal`) follows `second_signal_delay_s` after the first.
  int signal = 0;
  std::string signal_when_exists;
  double signal_delay_s = 0.0;
  int second_signal = 0;
  double second_signal_delay_s = 0.0;
  double timeout_s = 60.0;  // then SIGKILL (exit code 137)
};

// Like run_stereoview, but started by fork and exec so the test controls the process: a file
// size limit set in it (its signal dispositions left as they are, SIGXFSZ killing by default),
// signals sent to it. The exit code is 128 + signal when a signal ended it.
ProcessResult run_stereoview_controlled(const std::vector<std::string>& args,
                                        const ProcessControl& control);

// A fresh empty folder under the test temp dir.
std::string make_temp_dir(const std::string& name);

}  // namespace sv::test
