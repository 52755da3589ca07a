#pragma once

// An Xvfb server of a test's own (the viewer's tests, tests/support/viewer_harness.h):
// the first free display number, stopped by stop().

#include <fcntl.h>
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

// An Xvfb server of our own on the first free display number, killed at the end of the suite.
class XvfbServer {
 public:
  // Empty when it could not start; `why` then says why.
  bool start(std::string& why) {
    const std::string xvfb = find_in_path("Xvfb");
    if (xvfb.empty()) {
      why = "Xvfb is not installed (apt-get install xvfb)";
      return false;
    }
    for (int display = 90 + getpid() % 50; display < 400; ++display) {
      const std::string socket = "/tmp/.X11-unix/X" + std::to_string(display);
      const std::string lock = "/tmp/.X" + std::to_string(display) + "-lock";
      if (exists(socket) || exists(lock)) continue;
      const std::string name = ":" + std::to_string(display);
      // Room for the largest window a test opens (1900x1060).
      std::vector<std::string> args = {xvfb, name, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
      pid_t pid = 0;
      const int spawned = posix_spawn(&pid, xvfb.c_str(), &actions, nullptr, argv.data(), environ);
      posix_spawn_file_actions_destroy(&actions);
      if (spawned != 0) {
        why = "cannot start Xvfb";
        return false;
      }
      // Ready once its socket exists; give up on this number if it exits (display taken).
      for (int waited = 0; waited < 100; ++waited) {
        if (exists(socket)) {
          pid_ = pid;
          display_ = name;
          return true;
        }
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (kill(pid, SIGTERM) == 0) waitpid(pid, nullptr, 0);
    }
    why = "no free X display number for Xvfb";
    return false;
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
