// Every test program's files go under one folder of its own, removed when all its tests pass.
// Tests write recordings, videos and scenes under ::testing::TempDir() or the system's temporary
// folder and leave them there; over a suite of a thousand tests that grew /tmp by about 55 MB a
// run, and on a machine with little disk a full /tmp fails later builds. Linked into every test
// program (tests/CMakeLists.txt): before the first test it makes $TMPDIR/stereoview_tests_XXXXXX
// and points TEST_TMPDIR (gtest's TempDir) and TMPDIR (std::filesystem, mkstemp, the programs the
// tests start) at it; after the last, it removes it, or keeps it and says where when a test failed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

class ScratchRoot : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/stereoview_tests_XXXXXX";
    if (!::mkdtemp(pattern.data())) {
      std::fprintf(stderr, "scratch_root: cannot make %s; tests write to the default folder\n",
                   pattern.c_str());
      return;
    }
    root_ = pattern;
    ::setenv("TEST_TMPDIR", root_.c_str(), 1);
    ::setenv("TMPDIR", root_.c_str(), 1);
  }

  void TearDown() override {
    if (root_.empty()) return;
    if (!::testing::UnitTest::GetInstance()->Passed()) {
      std::fprintf(stderr, "scratch_root: a test failed; its files are kept in %s\n", root_.c_str());
      return;
    }
    std::error_code ignored;  // a file a test left open on a busy mount is not a test failure
    std::filesystem::remove_all(root_, ignored);
  }

 private:
  std::string root_;
};

// gtest owns and deletes the environment.
[[maybe_unused]] ::testing::Environment* const kScratchRoot =
    ::testing::AddGlobalTestEnvironment(new ScratchRoot);

}  // namespace
