// The viewer's Calibrate window (issue 19) under Xvfb, on a board sequence recorded from the
// rendered views of a known rig (tests/support/board_renderer.h) as a side-by-side video: the
// corners are found, views are captured (by the script's capture, then automatically while the
// board is held still), the calibration runs on its worker thread while the views stay live, and
// Apply saves it and switches the running video to it, rectified, at once.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sv
