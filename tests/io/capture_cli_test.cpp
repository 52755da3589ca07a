// The real stereoview binary on sources the test generates: a side-by-side video gives one
// disparity per frame, two videos of different lengths stop at the shorter, image patterns,
// a calibration for another size, a missing file, two sources at once, --list-cameras.
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>

#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "src/io/mat_image.h"
#include "tests/app/process_runner.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using test::make_temp_dir;
using test::run_stereoview;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

SyntheticFrame scene_frame(int index) {
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 16;
  return SyntheticScene(config).render(index);
}

cv::Mat side_by_side(const SyntheticFrame& f) {
  cv::Mat packed;
  cv::hconcat(bgr_mat_from_rgb(f.left), bgr_mat_from_rgb(f.right), packed);
  return packed;
}

std::vector<std::string> run_args(const std::string& out, std::vector<std::string> source) {
  source.insert(source.end(), {"--headless", "--disparities", "16", "--algorithm", "bm-sad",
                               "--engine", "cpu", "--out", out});
  return source;
}

TEST(CaptureCli, SideBySideVideoGivesOneDisparityPerFrame) {
  const std::string dir = make_temp_dir("cli_sbs");
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(side_by_side(scene_frame(i)));
  test::write_mjpeg_avi(dir + "/sbs.avi", frames);
  const auto r = run_stereoview(run_args(dir, {"--sbs", dir + "/sbs.avi"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "side-by-side")) << r.out;
  EXPECT_TRUE(contains(r.out, "done: 4 frames")) << r.out;
  for (int i = 0; i < 4; ++i) {
    const ImageF32 d = read_pfm(dir + "/disparity_00000" + std::to_string(i) + ".pfm");
    EXPECT_TRUE(d.same_size(96, 64)) << i;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/disparity_000004.pfm"));

  // --frames limits a file; --tb reads the same views stacked.
  std::vector<cv::Mat> stacked;
  for (int i = 0; i < 3; ++i) {
    cv::Mat tb;
    cv::vconcat(bgr_mat_from_rgb(scene_frame(i).left), bgr_mat_from_rgb(scene_frame(i).right), tb);
    stacked.push_back(tb);
  }
  test::write_mjpeg_avi(dir + "/tb.avi", stacked);
  const auto limited = run_stereoview(run_args(dir + "/tb_out", {"--tb", dir + "/tb.avi", "--frames", "2"}));
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_TRUE(contains(limited.out, "done: 2 frames")) << limited.out;
}

// Issue 24 item 6: a valid negative range (converging cameras) failed on every non-synthetic
// source with "synthetic scene: max_disparity -32 must be at least 1".
TEST(CaptureCli, NegativeRangeWorksWithVideosAndDatasets) {
  const std::string dir = make_temp_dir("cli_negative_range");
  // Views swapped: the disparities are negative.
  const SyntheticFrame f = scene_frame(0);
  cv::Mat packed;
  cv::hconcat(bgr_mat_from_rgb(f.right), bgr_mat_from_rgb(f.left), packed);
  test::write_mjpeg_avi(dir + "/sbs.avi", {packed, packed});
  std::filesystem::create_directories(dir + "/pair");
  cv::imwrite(dir + "/pair/im2.png", bgr_mat_from_rgb(f.right));
  cv::imwrite(dir + "/pair/im6.png", bgr_mat_from_rgb(f.left));
  cv::imwrite(dir + "/pair/disp2.png", cv::Mat(64, 96, CV_8UC1, cv::Scalar(40)));
  for (const std::vector<std::string>& source :
       {std::vector<std::string>{"--sbs", dir + "/sbs.avi"},
        std::vector<std::string>{"--dataset", dir + "/pair"}}) {
    std::vector<std::string> args = source;
    args.insert(args.end(), {"--headless", "--engine", "cpu", "--min-disparity", "-64",
                             "--disparities", "32"});
    const auto r = run_stereoview(args);
    EXPECT_EQ(r.exit_code, 0) << source[0] << ": " << r.err;
    EXPECT_FALSE(contains(r.err, "synthetic scene")) << r.err;
  }
}

TEST(CaptureCli, VideosOfDifferentLengthsStopAtTheShorter) {
  const std::string dir = make_temp_dir("cli_videos");
  std::vector<cv::Mat> left, right;
  for (int i = 0; i < 5; ++i) left.push_back(bgr_mat_from_rgb(scene_frame(i).left));
  for (int i = 0; i < 3; ++i) right.push_back(bgr_mat_from_rgb(scene_frame(i).right));
  test::write_mjpeg_avi(dir + "/left.avi", left);
  test::write_mjpeg_avi(dir + "/right.avi", right);
  const auto r = run_stereoview(run_args(dir, {"--left", dir + "/left.avi", "--right", dir + "/right.avi"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 3 frames")) << r.out;
  EXPECT_TRUE(contains(r.err, "left video has 5 frames, right video 3")) << r.err;
}

TEST(CaptureCli, ImagePatternsAndLooping) {
  const std::string dir = make_temp_dir("cli_pattern");
  for (int i = 0; i < 3; ++i) {
    const SyntheticFrame f = scene_frame(i);
    cv::imwrite(dir + "/l_0" + std::to_string(i) + ".png", bgr_mat_from_rgb(f.left));
    cv::imwrite(dir + "/r_0" + std::to_string(i) + ".png", bgr_mat_from_rgb(f.right));
  }
  auto r = run_stereoview(run_args(dir, {"--left", dir + "/l_%02d.png", "--right", dir + "/r_%02d.png"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 3 frames")) << r.out;
  r = run_stereoview(run_args(dir + "/loop", {"--left", dir + "/l_%02d.png", "--right",
                                               dir + "/r_%02d.png", "--loop", "--frames", "7"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 7 frames")) << r.out;
}

// Issue 47: two videos at 30 and 10 fps get a one-line note on how their frames are paired.
TEST(CaptureCli, VideosOfDifferentRatesAreNotedOnce) {
  const std::string dir = make_temp_dir("cli_rates");
  std::vector<cv::Mat> left, right;
  for (int i = 0; i < 3; ++i) left.push_back(bgr_mat_from_rgb(scene_frame(i).left));
  for (int i = 0; i < 3; ++i) right.push_back(bgr_mat_from_rgb(scene_frame(i).right));
  test::write_mjpeg_avi(dir + "/left.avi", left, 30.0);
  test::write_mjpeg_avi(dir + "/right.avi", right, 10.0);
  const auto r =
      run_stereoview(run_args(dir, {"--left", dir + "/left.avi", "--right", dir + "/right.avi"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 3 frames")) << r.out;
  EXPECT_TRUE(contains(r.err,
                       "left video runs at 30 fps, right video at 10 fps: frames are "
                       "paired by index (frame n with frame n), not by time\n"))
      << r.err;
}

// Issue 47: a truncated video played with --loop is told of once, not on every pass, and
// FFmpeg's own log lines ("[mjpeg @ 0x...] ...") stay off stderr.
TEST(CaptureCli, ATruncatedLoopedVideoIsToldOfOnceWithoutFfmpegsLog) {
  const std::string dir = make_temp_dir("cli_truncated");
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 10; ++i) {
    cv::Mat frame = side_by_side(scene_frame(i));
    cv::Mat noise = frame(cv::Rect(96, 0, 96, 64));
    cv::randu(noise, 0, 255);  // large frames: the cut falls among them, not in the headers
    frames.push_back(frame);
  }
  test::write_mjpeg_avi(dir + "/full.avi", frames);
  std::filesystem::copy_file(dir + "/full.avi", dir + "/cut.avi");
  std::filesystem::resize_file(dir + "/cut.avi",
                               std::filesystem::file_size(dir + "/full.avi") * 6 / 10 + 3);
  const auto r =
      run_stereoview(run_args(dir, {"--sbs", dir + "/cut.avi", "--loop", "--frames", "25"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 25 frames")) << r.out;
  size_t told = 0;
  for (size_t at = r.err.find("frames it announces"); at != std::string::npos;
       at = r.err.find("frames it announces", at + 1)) {
    ++told;
  }
  EXPECT_EQ(told, 1u) << r.err;
  EXPECT_FALSE(contains(r.err, " @ 0x")) << r.err;
}

TEST(CaptureCli, MissingFileIsARuntimeErrorNamingIt) {
  auto r = run_stereoview({"--headless", "--sbs", "/nonexistent/stereo.avi"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "/nonexistent/stereo.avi': no such file")) << r.err;
  r = run_stereoview({"--headless", "--left", "/nonexistent/l.mp4", "--right", "/nonexistent/r.mp4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "/nonexistent/l.mp4")) << r.err;
}

TEST(CaptureCli, CalibrationForAnotherSizeIsRefusedWithBothSizes) {
  const std::string dir = make_temp_dir("cli_calib");
  const SyntheticFrame f = scene_frame(0);
  write_ppm(dir + "/l.ppm", f.left);
  write_ppm(dir + "/r.ppm", f.right);
  {
    cv::FileStorage fs(dir + "/calib.yaml", cv::FileStorage::WRITE);
    fs << "image_width" << 100 << "image_height" << 70 << "K1" << cv::Mat::eye(3, 3, CV_64F)
       << "D1" << cv::Mat::zeros(1, 5, CV_64F) << "K2" << cv::Mat::eye(3, 3, CV_64F) << "D2"
       << cv::Mat::zeros(1, 5, CV_64F) << "R" << cv::Mat::eye(3, 3, CV_64F) << "T"
       << cv::Mat(cv::Vec3d(-0.1, 0, 0));
  }
  const auto r = run_stereoview(run_args(dir, {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm",
                                               "--calib", dir + "/calib.yaml"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "100x70")) << r.err;
  EXPECT_TRUE(contains(r.err, "96x64")) << r.err;
}

TEST(CaptureCli, SourceFlagsAreChecked) {
  auto r = run_stereoview({"--sbs", "a.avi", "--camera", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "one source at a time: got --sbs, --camera")) << r.err;
  r = run_stereoview({"--camera", "0", "1", "2"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_stereoview({"--camera-format", "h264"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "MJPG or YUYV")) << r.err;
  r = run_stereoview({"--headless", "--camera", "250"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "/dev/video250 does not exist")) << r.err;
  r = run_stereoview({"--headless", "--uvc", "banana"});
  EXPECT_EQ(r.exit_code, 2);  // a usage error (issue 47)
  EXPECT_TRUE(contains(r.err, "VID:PID")) << r.err;
}

TEST(CaptureCli, ListCamerasAlwaysAnswers) {
  const auto r = run_stereoview({"--list-cameras"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "no cameras found") || contains(r.out, "V4L2 cameras")) << r.out;
  EXPECT_TRUE(contains(r.out, "UVC")) << r.out;
}

}  // namespace
}  // namespace sv
