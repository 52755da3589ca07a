#include "tests/support/viewer_harness.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

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

}  // namespace sv::test
