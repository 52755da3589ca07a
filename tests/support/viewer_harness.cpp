#include "tests/support/viewer_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace sv::test {

XvfbServer* ViewerSuite::server_ = nullptr;
std::string ViewerSuite::skip_reason_;
std::string ViewerSuite::dir_;

void ViewerSuite::SetUpTestSuite() {
  server_ = new XvfbServer;
  if (!server_->start(skip_reason_)) {
    delete server_;
    server_ = nullptr;
  }
  const ::testing::TestSuite* suite = ::testing::UnitTest::GetInstance()->current_test_suite();
  dir_ = ::testing::TempDir() + "/stereoview_" + (suite ? suite->name() : "viewer") + "_" +
         std::to_string(getpid());
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

void ViewerSuite::TearDownTestSuite() {
  if (server_) server_->stop();
  delete server_;
  server_ = nullptr;
}

void ViewerSuite::SetUp() {
  if (!server_) GTEST_SKIP() << "no X server for the viewer: " << skip_reason_;
}

std::string ViewerSuite::path(const std::string& name) { return dir_ + "/" + name; }

std::string ViewerSuite::write_file(const std::string& name, const std::string& text) {
  std::ofstream(path(name)) << text;
  return path(name);
}

ViewerRun ViewerSuite::run_viewer_with(const std::vector<std::string>& args, int timeout_s) {
  std::string command = "DISPLAY=" + server_->display() + " LIBGL_ALWAYS_SOFTWARE=1 timeout -s KILL " +
                        std::to_string(timeout_s) + " " + shell_quote(STEREOVIEW_VIEWER_BINARY);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " >" + shell_quote(path("out")) + " 2>" + shell_quote(path("err")) + " </dev/null";
  const int status = std::system(command.c_str());
  ViewerRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_all(path("out"));
  run.err = read_all(path("err"));
  return run;
}

ViewerSuite::Running::Running(const std::string& display, const std::string& dir,
                              const std::vector<std::string>& args)
    : dir_(dir) {
  std::vector<std::string> argv_text = {STEREOVIEW_VIEWER_BINARY};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = {"DISPLAY=" + display, "LIBGL_ALWAYS_SOFTWARE=1"};
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("DISPLAY=", 0) != 0 && entry.rfind("LIBGL_ALWAYS_SOFTWARE=", 0) != 0) {
      env_text.push_back(entry);
    }
  }
  std::vector<char*> env;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, (dir + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (dir + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), env.data()) != 0) {
    pid_ = -1;
    status_ = 127 << 8;  // as a shell says for a program it cannot start
  }
  posix_spawn_file_actions_destroy(&actions);
}

ViewerSuite::Running::~Running() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

bool ViewerSuite::Running::wait_for_log(const std::string& text, double timeout_s) {
  auto found = [&] {
    const size_t at = read_all(dir_ + "/err").find(text, seen_);
    if (at == std::string::npos) return false;
    seen_ = at + text.size();
    return true;
  };
  const auto start = std::chrono::steady_clock::now();
  while (pid_ > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < timeout_s) {
    if (found()) return true;
    if (waitpid(pid_, &status_, WNOHANG) == pid_) {
      pid_ = -1;
      return found();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

ViewerRun ViewerSuite::Running::finish(double timeout_s) {
  const auto start = std::chrono::steady_clock::now();
  while (pid_ > 0 && waitpid(pid_, &status_, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status_, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  ViewerRun run;
  run.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
  run.out = read_all(dir_ + "/out");
  run.err = read_all(dir_ + "/err");
  return run;
}

}  // namespace sv::test
