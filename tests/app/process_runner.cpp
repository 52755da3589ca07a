#include "tests/app/process_runner.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "tests/support/shell_text.h"

namespace sv::test {
ProcessResult run_stereoview(const std::vector<std::string>& args, int timeout_s) {
  const char* binary = STEREOVIEW_BINARY;
  const std::string dir = make_temp_dir("process");
  // coreutils' timeout: exit code 124 after TERM, 137 when KILL was needed.
  std::string command = timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : "";
  command += shell_quote(binary);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " >" + shell_quote(dir + "/out") + " 2>" + shell_quote(dir + "/err") + " </dev/null";
  const int status = std::system(command.c_str());
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.timed_out = timeout_s > 0 && (result.exit_code == 124 || result.exit_code == 137);
  result.out = read_all(dir + "/out");
  result.err = read_all(dir + "/err");
  return result;
}

ProcessResult run_stereoview_controlled(const std::vector<std::string>& args,
                                        const ProcessControl& control) {
  const std::string dir = make_temp_dir("process");
  const std::string out = dir + "/out";
  const std::string err = dir + "/err";
  std::vector<std::string> argv_text = {STEREOVIEW_BINARY};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid == 0) {
    const int in_fd = open("/dev/null", O_RDONLY);
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (control.file_size_limit >= 0) {
      const rlimit limit{static_cast<rlim_t>(control.file_size_limit), RLIM_INFINITY};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  std::optional<Clock::time_point> seen, signalled;
  bool second_sent = false;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    struct stat info {};
    if (control.signal != 0 && !seen && stat(control.signal_when_exists.c_str(), &info) == 0)
      seen = Clock::now();
    if (seen && !signalled && seconds_since(*seen) >= control.signal_delay_s) {
      kill(pid, control.signal);
      signalled = Clock::now();
    }
    if (signalled && control.second_signal != 0 && !second_sent &&
        seconds_since(*signalled) >= control.second_signal_delay_s) {
      kill(pid, control.second_signal);
      second_sent = true;
    }
    if (seconds_since(start) > control.timeout_s) kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_all(out);
  result.err = read_all(err);
  return result;
}

std::string make_temp_dir(const std::string& name) {
  static int counter = 0;
  const std::string dir = ::testing::TempDir() + "/stereoview_" + name + "_" +
                          std::to_string(getpid()) + "_" + std::to_string(counter++);
  const std::string command = "rm -rf " + shell_quote(dir) + " && mkdir -p " + shell_quote(dir);
  if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  return dir;
}

}  // namespace sv::test
