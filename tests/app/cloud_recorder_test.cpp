// The 3D view's live recording (ui/cloud_recorder.h): one whole PLY per added cloud, named by the
// frame's index; clouds pushed out of a full queue are counted, never lost silently; a failed
// write stops it with the reason.
#include "ui/cloud_recorder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/io/small_disk.h"

namespace sv {
namespace {

std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/cloud_recorder_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

long ply_vertex_count(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  long count = -1;
  while (std::getline(in, line) && line != "end_header") {
    std::sscanf(line.c_str(), "element vertex %ld", &count);
  }
  return count;
}

// A cloud of `shown` visible points among `shown + 3` vertices.
std::vector<CloudVertex> cloud(int shown) {
  std::vector<CloudVertex> v(static_cast<size_t>(shown), CloudVertex{1, 2, 3, 4, 5, 6, 255});
  v.insert(v.begin(), 3, CloudVertex{0, 0, 0, 0, 0, 0, 0});
  return v;
}

TEST(CloudRecorder, WritesEveryCloudAsAWholeFile) {
  const std::string dir = fresh_dir("whole") + "/a/b";  // folders are created
  CloudRecorder recorder(dir);
  recorder.add(5, cloud(10), "metres");
  recorder.add(6, cloud(20), "metres");
  recorder.add(9, cloud(30), "pixels");
  recorder.finish();
  const CloudRecorder::Status s = recorder.status();
  EXPECT_EQ(s.written, 3);
  EXPECT_EQ(s.dropped, 0);
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(ply_vertex_count(dir + "/cloud_000005.ply"), 10);
  EXPECT_EQ(ply_vertex_count(dir + "/cloud_000006.ply"), 20);
  EXPECT_EQ(ply_vertex_count(dir + "/cloud_000009.ply"), 30);
  recorder.add(10, cloud(1), "metres");  // after finish(): ignored
  EXPECT_FALSE(std::filesystem::exists(dir + "/cloud_000010.ply"));
}

TEST(CloudRecorder, CloudsPushedOutAreCountedNotLost) {
  const std::string dir = fresh_dir("drops");
  CloudRecorder recorder(dir);
  constexpr int kAdded = 40;
  for (int i = 0; i < kAdded; ++i) recorder.add(i, cloud(200000), "metres");
  recorder.finish();
  const CloudRecorder::Status s = recorder.status();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files += entry.path().extension() == ".ply" ? 1 : 0;
  }
  EXPECT_EQ(s.written, files);
  EXPECT_EQ(s.written + s.dropped, kAdded);  // every cloud written or counted
  EXPECT_GE(s.written, static_cast<int64_t>(CloudRecorder::kQueued));
}

TEST(CloudRecorder, AFailedWriteStopsItWithTheReason) {
  const std::string dir = fresh_dir("full");
  std::filesystem::create_directories(dir);
  test::FullDiskSetup setup;
  setup.file_size_limit = 4096;
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    CloudRecorder recorder(dir);
    recorder.add(0, cloud(10), "metres");  // fits
    recorder.add(1, cloud(5000), "metres");  // does not
    recorder.finish();
    const CloudRecorder::Status s = recorder.status();
    return std::to_string(s.written) + " " + s.error;
  });
  ASSERT_TRUE(outcome.skipped.empty()) << outcome.skipped;
  EXPECT_FALSE(outcome.crashed);
  EXPECT_EQ(outcome.report.rfind("1 cannot write " + dir + "/cloud_000001.ply", 0), 0u) << outcome.report;
  EXPECT_NE(outcome.report.find("File too large"), std::string::npos) << outcome.report;
  EXPECT_EQ(ply_vertex_count(dir + "/cloud_000000.ply"), 10);
  EXPECT_FALSE(std::filesystem::exists(dir + "/cloud_000001.ply"));
}

TEST(CloudRecorder, AFolderThatCannotBeMadeIsAClearError) {
  const std::string dir = fresh_dir("file");
  std::ofstream(dir) << "a file, not a folder";
  try {
    CloudRecorder recorder(dir + "/sub");
    ADD_FAILURE() << "a folder under a file was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sv
