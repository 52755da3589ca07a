// Batch mode (issue 6): `stereoview --headless --sbs FILE --record OUT` processes every frame of a
// generated video, writes a recording that decodes frame for frame, and exits 0; bad recording
// options exit with a reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "src/io/ffmpeg_video_reader.h"
#include "tests/app/process_runner.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

// A textured side-by-side video of `frames` frames: views 64x48, the right view the left one
// shifted by 4 px, so the engine has something to match.
std::string write_stereo_video(const std::string& dir, int frames) {
  std::vector<cv::Mat> packed;
  cv::RNG rng(7);
  for (int i = 0; i < frames; ++i) {
    cv::Mat texture(48, 72, CV_8UC3);
    rng.fill(texture, cv::RNG::UNIFORM, 0, 255);
    cv::GaussianBlur(texture, texture, cv::Size(3, 3), 0);
    cv::Mat frame(48, 128, CV_8UC3);
    // left(x) = texture(x), right(x) = texture(x + 4): a point at left x is at x - 4 on the right
    texture(cv::Rect(0, 0, 64, 48)).copyTo(frame(cv::Rect(0, 0, 64, 48)));
    texture(cv::Rect(4, 0, 64, 48)).copyTo(frame(cv::Rect(64, 0, 64, 48)));
    packed.push_back(frame);
  }
  const std::string path = dir + "/stereo.avi";
  test::write_mjpeg_avi(path, packed);
  return path;
}

TEST(RecordCli, BatchRunRecordsEveryFrameOfAVideoAndExitsZero) {
  const std::string dir = test::fresh_dir("batch");
  const std::string video = write_stereo_video(dir, 7);
  const std::string out = dir + "/d.mkv";
  const auto run = test::run_stereoview({"--headless", "--sbs", video, "--engine", "cpu",
                                         "--disparities", "16", "--record", out,
                                         "--record-format", "lossless16"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("recorded 7 frames to " + out), std::string::npos) << run.out;
  // Not a terminal: plain progress lines, the last one complete.
  EXPECT_NE(run.out.find("progress: 7/7 frames (100%)"), std::string::npos) << run.out;

  FfmpegVideoReader reader(out, FfmpegVideoReader::Pixels::Gray16);
  int frames = 0;
  int64_t four_px = 0;  // the video's views are 4 px apart: that disparity must dominate
  while (auto frame = reader.read()) {
    ++frames;
    for (uint16_t v : frame->gray16.pixels()) four_px += v >= 16 + 56 && v <= 16 + 72;  // 3.5..4.5
  }
  EXPECT_EQ(frames, 7);
  EXPECT_GT(four_px, 7 * 64 * 48 / 2);

  std::ifstream sidecar(out + ".json");
  const nlohmann::json doc = nlohmann::json::parse(sidecar);
  ASSERT_EQ(doc["frames"].size(), 7u);
  EXPECT_EQ(doc["frames"][6]["source_index"], 6);
  EXPECT_EQ(doc["calibration"], nullptr);  // a file without --calib has no geometry
}

TEST(RecordCli, RawRecordingOfTheSyntheticSceneReplaysThroughSbs) {
  const std::string dir = test::fresh_dir("replay");
  const auto record = test::run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48",
                                            "--disparities", "16", "--frames", "5", "--record",
                                            dir + "/pair.mp4", "--record-format", "raw"});
  ASSERT_EQ(record.exit_code, 0) << record.out << record.err;
  const auto replay = test::run_stereoview({"--headless", "--engine", "cpu", "--sbs",
                                            dir + "/pair.mp4", "--disparities", "16"});
  ASSERT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("done: 5 frames"), std::string::npos) << replay.out;
}

TEST(RecordCli, BadRecordingOptionsExitWithAReason) {
  const auto format = test::run_stereoview({"--record", "x.mp4", "--record-format", "gif"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.err.find("--record-format must be color, lossless16, raw or side-by-side"),
            std::string::npos);
  const auto orphan = test::run_stereoview({"--record-format", "raw"});
  EXPECT_EQ(orphan.exit_code, 2);
  EXPECT_NE(orphan.err.find("need --record FILE"), std::string::npos);

  // A folder cannot be made under a file (and root may write anywhere else).
  const std::string blocked = test::fresh_dir("blocked");
  std::ofstream(blocked + "/file") << "not a folder";
  const auto unwritable =
      test::run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48", "--disparities",
                            "16", "--frames", "2", "--record", blocked + "/file/x.mp4"});
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("error: recording to " + blocked +
                                "/file/x.mp4: cannot create the folder"),
            std::string::npos)
      << unwritable.err;
  const auto codec = test::run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48",
                                           "--frames", "1", "--record",
                                           test::fresh_dir("codec") + "/x.mp4", "--record-codec",
                                           "ffv1"});
  EXPECT_EQ(codec.exit_code, 1);
  EXPECT_NE(codec.err.find("cannot hold ffv1"), std::string::npos) << codec.err;
}

// Issue 17: the README's own commands record into folders that do not exist yet.
TEST(RecordCli, RecordingIntoAMissingFolderCreatesIt) {
  const std::string dir = test::fresh_dir("missing_folder");
  const auto run =
      test::run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48", "--disparities",
                            "16", "--frames", "3", "--record", dir + "/out/synthetic.mp4"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  FfmpegVideoReader reader(dir + "/out/synthetic.mp4", FfmpegVideoReader::Pixels::Rgb8);
  int frames = 0;
  while (reader.read()) ++frames;
  EXPECT_EQ(frames, 3);
}

// Issue 17: a recording that cannot work is refused before the first frame is computed (here the
// first frame cannot even be read, so a check made at it would report the source instead), and
// leaves neither a file nor a sidecar claiming one.
TEST(RecordCli, ARecordingThatCannotWorkIsRefusedBeforeTheFirstFrame) {
  const std::string dir = test::fresh_dir("refused_early");
  std::ofstream(dir + "/left_000.png") << "not a PNG";
  std::ofstream(dir + "/right_000.png") << "not a PNG";
  std::ofstream(dir + "/blocker") << "a file, so no folder can be made here";
  const auto refused = [&](const std::vector<std::string>& record_flags) {
    std::vector<std::string> args = {
        "--headless",           "--engine", "cpu", "--left", dir + "/left_%03d.png", "--right",
        dir + "/right_%03d.png"};
    args.insert(args.end(), record_flags.begin(), record_flags.end());
    const auto run = test::run_stereoview(args);
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    EXPECT_EQ(run.err.find("left_000.png"), std::string::npos) << "checked too late: " << run.err;
    return run.err;
  };
  EXPECT_NE(
      refused({"--record", dir + "/x.mp4", "--record-format", "lossless16"})
          .find(
              "lossless16 is stored as FFV1, which this container cannot hold; name the file .mkv"),
      std::string::npos);
  EXPECT_NE(refused({"--record", dir + "/x.mkv", "--record-codec", "no-such-codec"})
                .find("no video encoder"),
            std::string::npos);
  EXPECT_NE(refused({"--record", dir + "/x.png"})
                .find("only lossless16 can be written as a PNG sequence"),
            std::string::npos);
  EXPECT_NE(refused({"--record", dir + "/blocker/x.mkv"}).find("cannot create the folder"),
            std::string::npos);
  for (const char* name : {"x.mp4", "x.mp4.json", "x.mkv", "x.mkv.json", "x.png.json"}) {
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + name)) << name << " left behind";
  }
}

// Issue 24: the codec the program's own hint offers works from the command line.
TEST(RecordCli, MjpegRecordsAFileThatDecodes) {
  const std::string dir = test::fresh_dir("mjpeg");
  const auto run = test::run_stereoview({"--headless", "--engine", "cpu", "--size", "64x48",
                                         "--disparities", "16", "--frames", "4", "--record",
                                         dir + "/m.avi", "--record-codec", "mjpeg"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  FfmpegVideoReader reader(dir + "/m.avi", FfmpegVideoReader::Pixels::Rgb8);
  int frames = 0;
  while (reader.read()) ++frames;
  EXPECT_EQ(frames, 4);
}

}  // namespace
}  // namespace sv
