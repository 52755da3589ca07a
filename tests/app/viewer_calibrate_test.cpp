// The viewer's Calibrate window (issue 19) under Xvfb, on a board sequence recorded from the
// rendered views of a known rig (tests/support/board_renderer.h) as a side-by-side video: the
// corners are found, views are captured (by the script's capture, then automatically while the
// board is held still), the calibration runs on its worker thread while the views stay live, and
// Apply saves it and switches the running video to it, rectified, at once.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <sstream>
#include <string>

#include "src/io/png_io.h"
#include "src/io/stereo_calibration.h"
#include "tests/support/viewer_harness.h"
#include "tests/support/board_renderer.h"

namespace sv {
namespace {

using test::read_all;

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Eight board poses, each held for `hold` frames, side by side, 10 frames per second.
void write_board_video(const std::string& path, int hold) {
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = parse_board_spec("chessboard:9x6", 0.03, 0);
  const test::BoardTexture texture = test::make_board_texture(board);
  cv::VideoWriter writer(path, cv::CAP_FFMPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10.0,
                         cv::Size(2 * rig.size.width, rig.size.height), true);
  ASSERT_TRUE(writer.isOpened());
  writer.set(cv::VIDEOWRITER_PROP_QUALITY, 100);
  for (int k = 0; k < 8; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, 8), 1.0, k);
    cv::Mat packed, bgr;
    cv::hconcat(cv::Mat(rig.size, CV_8UC1, const_cast<uint8_t*>(pair.left.data())),
                cv::Mat(rig.size, CV_8UC1, const_cast<uint8_t*>(pair.right.data())), packed);
    cv::cvtColor(packed, bgr, cv::COLOR_GRAY2BGR);
    for (int i = 0; i < hold; ++i) writer.write(bgr);
  }
}

// `count` board poses as an image sequence, dir/left_%02d.png and dir/right_%02d.png.
void write_board_sequence(const std::string& dir, int count) {
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = parse_board_spec("chessboard:9x6", 0.03, 0);
  const test::BoardTexture texture = test::make_board_texture(board);
  std::filesystem::create_directories(dir);
  for (int k = 0; k < count; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, count), 1.0, k);
    char name[32];
    std::snprintf(name, sizeof name, "/left_%02d.png", k);
    write_png(dir + name, pair.left);
    std::snprintf(name, sizeof name, "/right_%02d.png", k);
    write_png(dir + name, pair.right);
  }
}

class ViewerCalibrate : public test::ViewerSuite {};

TEST_F(ViewerCalibrate, FindsCornersCapturesCalibratesAndAppliesOnARecordedBoard) {
  write_board_video(path("board.avi"), 6);
  std::ofstream(path("calibrate.script"))
      << "at frame 1 calibrate open chessboard:9x6 0.03\n"
         "at frame 2 calibrate auto off\n"
         "at frame 6 calibrate capture\n"
         "at frame 8 calibrate auto on\n"
         "at frame 49 calibrate run\n"
         "at frame 50 calibrate apply " + path("rig.yaml") + "\n";
  const std::string shot = path("calibrate.png");
  const test::ViewerRun run = run_viewer_with(
      {"--sbs", path("board.avi"), "--loop", "--engine", "cpu", "--algorithm", "bm-sad",
       "--disparities", "16", "--window-size", "1280x720", "--script", path("calibrate.script"),
       "--frames", "64", "--screenshot", shot},
      120);
  const std::string& err = run.err;
  ASSERT_EQ(run.exit_code, 0) << err;
  // Corners found and captured: the first by the script's capture, then automatically.
  EXPECT_NE(err.find("calibrate: looking for a chessboard:9x6 board"), std::string::npos) << err;
  EXPECT_NE(err.find("calibrate: captured view 1 (frame "), std::string::npos) << err;
  EXPECT_GE(count_of(err, "calibrate: captured view"), 5u) << err;
  // Calibrated on the worker thread, saved and applied to the running video.
  EXPECT_NE(err.find("calibrate: done: RMS"), std::string::npos) << err;
  EXPECT_NE(err.find("calibrate: applied " + path("rig.yaml")), std::string::npos) << err;
  EXPECT_EQ(err.find("error:"), std::string::npos) << err;
  // Applied, the rectified views are the preview: nothing more is captured from them.
  const size_t applied = err.find("calibrate: applied");
  EXPECT_EQ(err.find("calibrate: captured view", applied), std::string::npos) << err;
  const StereoCalibration c = load_stereo_calibration(path("rig.yaml"));
  EXPECT_NEAR(c.K1[0], 420.0, 4.2);
  EXPECT_NEAR(std::fabs(c.T[0]), 0.06, 0.0006);
  const ImageRgb8 image = read_image_rgb(shot);
  EXPECT_EQ(image.width(), 1280);
}

// Image pairs are stills, not frames of a moving board (issue 39): auto capture takes each pair
// once, none is skipped while the detector is busy (the file waits for it, though only the
// newest result is shown), the run goes on until the last pair was looked at, and the script's
// run calibrates on them all.
TEST_F(ViewerCalibrate, AutoCaptureTakesEveryPairOfAnImageSequenceOnce) {
  write_board_sequence(path("stills"), 8);
  std::ofstream(path("stills.script")) << "at frame 1 calibrate open chessboard:9x6 0.03\n"
                                          "at frame 1 calibrate run\n"
                                          "at frame 1 calibrate apply " + path("stills.yaml") + "\n";
  const test::ViewerRun run = run_viewer_with(
      {"--left", path("stills/left_%02d.png"), "--right", path("stills/right_%02d.png"), "--engine",
       "cpu", "--algorithm", "bm-sad", "--disparities", "16", "--script", path("stills.script"),
       "--frames", "100"},
      120);
  const std::string& err = run.err;
  ASSERT_EQ(run.exit_code, 0) << err;
  EXPECT_EQ(count_of(err, "calibrate: captured view"), 8u) << err;
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(count_of(err, " (frame " + std::to_string(k) + ")\n"), 1u) << k << "\n" << err;
  }
  EXPECT_NE(err.find("calibrate: done: RMS"), std::string::npos) << err;
  EXPECT_NE(err.find("calibrate: applied " + path("stills.yaml")), std::string::npos) << err;
  const StereoCalibration c = load_stereo_calibration(path("stills.yaml"));
  EXPECT_NEAR(c.K1[0], 420.0, 4.2);
}

// Looping, the same pairs come again (40 shown frames: at least 13 rounds): each is captured once.
TEST_F(ViewerCalibrate, ALoopingSequenceIsCapturedOncePerPair) {
  write_board_sequence(path("loop"), 3);
  std::ofstream(path("loop.script")) << "at frame 1 calibrate open chessboard:9x6 0.03\n";
  const test::ViewerRun run = run_viewer_with(
      {"--left", path("loop/left_%02d.png"), "--right", path("loop/right_%02d.png"), "--loop",
       "--engine", "cpu", "--algorithm", "bm-sad", "--disparities", "16", "--script",
       path("loop.script"), "--frames", "40"},
      120);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_of(run.err, "calibrate: captured view"), 3u) << run.err;
}

// A scripted calibration that fails (one pair: too few views) fails the run, with the reason.
TEST_F(ViewerCalibrate, AFailedScriptedCalibrationExitsWithTheReason) {
  write_board_sequence(path("one"), 1);
  std::ofstream(path("one.script")) << "at frame 1 calibrate open chessboard:9x6 0.03\n"
                                       "at frame 1 calibrate run\n";
  const test::ViewerRun run = run_viewer_with(
      {"--left", path("one/left_00.png"), "--right", path("one/right_00.png"), "--engine", "cpu",
       "--algorithm", "bm-sad", "--disparities", "16", "--script", path("one.script"), "--frames",
       "10"},
      120);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("stereoview-viewer: script: calibrate run failed: 1 usable view of 1"),
            std::string::npos)
      << run.err;
}

// The README's calibration pairs (shared data), as a user opens them in the viewer: all 14.
TEST_F(ViewerCalibrate, CalibratesFromTheSharedChessboardPairs) {
  const char* env = std::getenv("STEREO_DATA_DIR");
  const std::string data = std::string(env ? env : STEREO_DATA_DIR_DEFAULT) + "/calib-chessboard-opencv";
  if (!std::filesystem::exists(data + "/left14.jpg")) GTEST_SKIP() << "no " << data;
  std::ofstream(path("opencv.script")) << "at frame 1 calibrate open chessboard:9x6 0.025\n"
                                          "at frame 1 calibrate run\n";
  const test::ViewerRun run = run_viewer_with(
      {"--left", data + "/left%02d.jpg", "--right", data + "/right%02d.jpg", "--engine", "cpu",
       "--algorithm", "bm-sad", "--disparities", "16", "--script", path("opencv.script"), "--frames",
       "100"},
      120);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_of(run.err, "calibrate: captured view"), 14u) << run.err;
  EXPECT_NE(run.err.find("calibrate: done: RMS"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace sv
