#include "tests/app/process_runner.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace sv::test {
namespace {

std::string shell_quote(const std::string& s) {
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string read_all(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

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

std::string make_temp_dir(const std::string& name) {
  static int counter = 0;
  const std::string dir = ::testing::TempDir() + "/stereoview_" + name + "_" +
                          std::to_string(getpid()) + "_" + std::to_string(counter++);
  const std::string command = "rm -rf " + shell_quote(dir) + " && mkdir -p " + shell_quote(dir);
  if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  return dir;
}

}  // namespace sv::test
