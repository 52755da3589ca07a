#pragma once

// An Xvfb server of a test's own (the viewer's tests, tests/support/viewer_harness.h):
// a free display number that Xvfb chooses, stopped by stop().

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace sv::test {

inline std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

inline bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// An Xvfb server of our own on a free display number, killed at the end of the suite.
class XvfbServer {
 public:
  // Empty when it could not start; `why` then says why.
  // Xvfb picks the display number itself (-displayfd) and writes it once it accepts clients:
  // choosing a free number here raced with the suites ctest runs beside this one (a server that
  // lost the race exited while the winner's socket made it look ready, and that winner's suite
  // later took the display away mid-test).
  bool start(std::string& why) {
    const std::string xvfb = find_in_path("Xvfb");
    if (xvfb.empty()) {
      why = "Xvfb is not installed (apt-get install xvfb)";
      return false;
    }
    int ready[2];
    if (pipe(ready) != 0) {
      why = "cannot make a pipe for Xvfb";
      return false;
    }
    // Room for the largest window a test opens (1900x1060).
    std::vector<std::string> args = {xvfb, "-displayfd", std::to_string(ready[1]), "-screen", "0",
                                     "1920x1080x24", "-nolisten", "tcp"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, ready[0]);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, xvfb.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(ready[1]);
    if (spawned != 0) {
      close(ready[0]);
      why = "cannot start Xvfb";
      return false;
    }
    // The number and a newline, or end of file if it fails; at most 20 s on a loaded machine.
    std::string number;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{ready[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char c = 0;
      if (read(ready[0], &c, 1) != 1 || c == '\n') break;
      number += c;
    }
    close(ready[0]);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) {
      if (kill(pid, SIGTERM) == 0) waitpid(pid, nullptr, 0);
      why = "Xvfb did not start (no display number within 20 s)";
      return false;
    }
    pid_ = pid;
    display_ = ":" + number;
    return true;
  }

  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
      pid_ = 0;
    }
  }

  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = 0;
  std::string display_;
};

}  // namespace sv::test
