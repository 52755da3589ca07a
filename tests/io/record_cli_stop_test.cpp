// How a recording made by the stereoview CLI ends (issue 24): a full disk or a file size limit
// stops the run with the count of the frames that decode, a failing source and Ctrl-C / SIGTERM
// leave a finished file whose sidecar says why, and the exit code says what happened (1 for an
// error, 130 for SIGINT, 143 for SIGTERM). In every case the frames the sidecar lists are exactly
// the frames a decoder reads back.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "src/core/image_formats.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/png_io.h"
#include "src/io/recording_encoder.h"
#include "tests/app/process_runner.h"
#include "tests/io/io_test_support.h"
#include "tests/io/small_disk.h"

namespace sv {
namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Frames a reader gets back from a recording: a video decoded with FFmpeg, or the files of a
// 16-bit PNG sequence read one after the other until one is missing.
int64_t frames_read_back(const std::string& path) {
  if (path.size() > 4 && path.substr(path.size() - 4) == ".png") {
    int64_t n = 0;
    while (std::filesystem::exists(png_sequence_frame_path(path, n))) {
      read_image_u16(png_sequence_frame_path(path, n));  // whole, or this throws
      ++n;
    }
    return n;
  }
  FfmpegVideoReader reader(path, FfmpegVideoReader::Pixels::Rgb8);
  int64_t n = 0;
  while (reader.read()) ++n;
  return n;
}

// The synthetic scene for `frames` frames into `file` as `format`.
std::vector<std::string> synthetic_run(const std::string& file, const std::string& format,
                                       int frames) {
  return {"--headless", "--engine", "cpu",
          "--size",     "64x48",    "--disparities",
          "16",         "--frames", std::to_string(frames),
          "--record",   file,       "--record-format",
          format};
}

// "kept N frames in FILE" or "recorded N frames to FILE": N, else -1.
int64_t frames_reported(const std::string& out) {
  for (const std::string prefix : {"kept ", "recorded "}) {
    const size_t at = out.find(prefix);
    if (at != std::string::npos) return std::atoll(out.c_str() + at + prefix.size());
  }
  return -1;
}

// The run's count, the sidecar's and the file's must all be the same.
void expect_counts_agree(const test::ProcessResult& run, const std::string& file,
                         const std::string& sidecar_path) {
  const int64_t reported = frames_reported(run.out);
  ASSERT_TRUE(std::filesystem::exists(sidecar_path)) << run.out << run.err;
  const nlohmann::json sidecar = read_json(sidecar_path);
  EXPECT_EQ(sidecar["frame_count"], reported) << run.out;
  EXPECT_EQ(sidecar["frames"].size(), static_cast<size_t>(reported));
  EXPECT_EQ(frames_read_back(file), reported)
      << "the frames printed, listed and decoded must agree";
  EXPECT_GT(reported, 0) << run.out << run.err;
}

struct StopCase {
  std::string name;
  std::string format;
  std::string file;
};

std::string stop_case_name(const ::testing::TestParamInfo<StopCase>& info) {
  return info.param.name;
}
void PrintTo(const StopCase& c, std::ostream* os) { *os << c.name; }

class CliRecordingOnAFullDisk : public ::testing::TestWithParam<StopCase> {};
class CliRecordingUnderAFileSizeLimit : public ::testing::TestWithParam<StopCase> {};

// The limit is set in the child, which keeps SIGXFSZ's default (death): only stereoview's own
// handling turns it into a reported error.
TEST_P(CliRecordingUnderAFileSizeLimit, AFileSizeLimitStopsTheRunWithTheFramesThatDecode) {
  const StopCase& c = GetParam();
  const std::string dir = test::fresh_dir("cli_limit_" + c.name);
  test::ProcessControl control;
  control.file_size_limit = 32 * 1024;
  const auto run =
      test::run_stereoview_controlled(synthetic_run(dir + "/" + c.file, c.format, 400), control);
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("File too large"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("kept "), std::string::npos) << run.out;
  expect_counts_agree(run, dir + "/" + c.file, dir + "/" + c.file + ".json");
  const nlohmann::json sidecar = read_json(dir + "/" + c.file + ".json");
  EXPECT_EQ(sidecar["stop_reason"], "recording error");
  EXPECT_NE(sidecar["error"].get<std::string>().find("File too large"), std::string::npos);
}

TEST_P(CliRecordingOnAFullDisk, AFullDiskStopsTheRunWithTheFramesThatDecode) {
  const StopCase& c = GetParam();
  const std::string dir = test::fresh_dir("cli_disk_" + c.name);
  test::FullDiskSetup setup;
  setup.small_disk_dir = dir + "/disk";
  setup.small_disk_bytes = 96 * 1024;
  setup.copy_to = dir + "/copy";
  std::filesystem::create_directories(setup.small_disk_dir);
  const std::string file = setup.small_disk_dir + "/" + c.file;
  test::ProcessResult run;
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    const auto child = test::run_stereoview_controlled(synthetic_run(file, c.format, 400), {});
    return std::to_string(child.exit_code) + "\n" + child.out + "\f" + child.err;
  });
  if (!outcome.skipped.empty()) GTEST_SKIP() << "no small disk: " << outcome.skipped;
  ASSERT_FALSE(outcome.crashed);
  const size_t newline = outcome.report.find('\n');
  const size_t split = outcome.report.find('\f');
  ASSERT_NE(split, std::string::npos) << outcome.report;
  run.exit_code = std::atoi(outcome.report.c_str());
  run.out = outcome.report.substr(newline + 1, split - newline - 1);
  run.err = outcome.report.substr(split + 1);
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("No space left on device"), std::string::npos) << run.err;
  // The messages name the small disk's path; the files are checked in their copy.
  expect_counts_agree(run, dir + "/copy/" + c.file, dir + "/copy/" + c.file + ".json");
}

INSTANTIATE_TEST_SUITE_P(Formats, CliRecordingOnAFullDisk,
                         ::testing::Values(StopCase{"ColorMp4", "color", "c.mp4"},
                                           StopCase{"Lossless16Mkv", "lossless16", "d.mkv"},
                                           StopCase{"Lossless16Png", "lossless16", "d.png"},
                                           StopCase{"RawMp4", "raw", "pair.mp4"}),
                         stop_case_name);
// A sequence's files are each far below a useful file size limit.
INSTANTIATE_TEST_SUITE_P(Formats, CliRecordingUnderAFileSizeLimit,
                         ::testing::Values(StopCase{"ColorMp4", "color", "c.mp4"},
                                           StopCase{"Lossless16Mkv", "lossless16", "d.mkv"},
                                           StopCase{"RawMp4", "raw", "pair.mp4"}),
                         stop_case_name);

// Ctrl-C or SIGTERM in the middle of an endless run: the queued frames are written, the file
// and sidecar finished, and the exit code says which signal it was.
void expect_clean_stop_by(int signal, const std::string& name, int exit_code) {
  const std::string dir = test::fresh_dir("cli_" + name);
  const std::string file = dir + "/c.mp4";
  test::ProcessControl control;
  control.signal = signal;
  control.signal_when_exists = file + ".json";  // written after the first frame
  control.signal_delay_s = 0.3;
  const auto run = test::run_stereoview_controlled(synthetic_run(file, "color", 1000000), control);
  EXPECT_EQ(run.exit_code, exit_code) << run.out << run.err;
  EXPECT_NE(run.err.find("interrupted by " + name), std::string::npos) << run.err;
  expect_counts_agree(run, file, file + ".json");
  const nlohmann::json sidecar = read_json(file + ".json");
  EXPECT_EQ(sidecar["finished"], true);
  EXPECT_EQ(sidecar["complete"], true);
  EXPECT_EQ(sidecar["stop_reason"], "interrupted by " + name);
  EXPECT_EQ(sidecar["error"], "");
  EXPECT_FALSE(std::filesystem::exists(file + ".json.reserve"));
}

TEST(CliRecordingStop, CtrlCFinishesTheRecordingAndExits130) {
  expect_clean_stop_by(SIGINT, "SIGINT", 130);
}

TEST(CliRecordingStop, SigtermFinishesTheRecordingAndExits143) {
  expect_clean_stop_by(SIGTERM, "SIGTERM", 143);
}

// A damaged third image: the run stops with the source's error, and the recording holds the two
// frames before it, with a sidecar that says the source failed (not "complete").
TEST(CliRecordingStop, ASourceThatFailsMidRunLeavesASidecarSayingWhy) {
  const std::string dir = test::fresh_dir("cli_source_error");
  cv::RNG rng(3);
  for (int i = 0; i < 5; ++i) {
    cv::Mat texture(48, 72, CV_8UC1);
    rng.fill(texture, cv::RNG::UNIFORM, 0, 255);
    char name[64];
    std::snprintf(name, sizeof name, "/left_%03d.png", i);
    cv::imwrite(dir + name, texture(cv::Rect(0, 0, 64, 48)));
    std::snprintf(name, sizeof name, "/right_%03d.png", i);
    cv::imwrite(dir + name, texture(cv::Rect(4, 0, 64, 48)));
  }
  std::ofstream(dir + "/left_002.png", std::ios::trunc) << "not a PNG";
  const std::string file = dir + "/d.mkv";
  const auto run = test::run_stereoview(
      {"--headless", "--engine", "cpu", "--disparities", "16", "--left", dir + "/left_%03d.png",
       "--right", dir + "/right_%03d.png", "--record", file, "--record-format", "lossless16"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("left_002.png"), std::string::npos) << run.err;
  const nlohmann::json sidecar = read_json(file + ".json");
  EXPECT_EQ(sidecar["finished"], true);
  EXPECT_EQ(sidecar["complete"], false);
  EXPECT_EQ(sidecar["stop_reason"], "source error");
  EXPECT_NE(sidecar["error"].get<std::string>().find("left_002.png"), std::string::npos)
      << sidecar["error"];
  EXPECT_EQ(sidecar["frame_count"], 2);
  FfmpegVideoReader reader(file, FfmpegVideoReader::Pixels::Gray16);
  int frames = 0;
  while (reader.read()) ++frames;
  EXPECT_EQ(frames, 2);
}

}  // namespace
}  // namespace sv
