// The real stereoview binary with calibrations and swapped views (issues 17 and 24): the
// two-file form and --swap-views in --help, a calibration holding NaN or Inf, a FIFO or a device
// as --calib, a pair named the wrong way round (the notice, and --swap-views putting it right,
// for image pairs and a side-by-side video), and two real rigs (shared data): calib-ximea end to
// end through its two files, EuRoC frames named against their calibration.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "src/io/mat_image.h"
#include "tests/app/process_runner.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::make_temp_dir;
using test::run_stereoview;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

fs::path shared_data_dir() {
  if (const char* v = std::getenv("STEREO_DATA_DIR")) return v;
  return STEREO_DATA_DIR_DEFAULT;
}

SyntheticFrame scene_frame(int index) {
  SyntheticSceneConfig config;
  config.width = 320;
  config.height = 240;
  config.max_disparity = 32;
  return SyntheticScene(config).render(index);
}

std::vector<std::string> with_run_flags(std::vector<std::string> args, const std::string& out) {
  args.insert(args.end(), {"--headless", "--disparities", "32", "--algorithm", "bm-sad",
                           "--engine", "cpu", "--out", out});
  return args;
}

// The rig of the issue's report, with one value spoiled.
std::string write_calibration(const std::string& path, double k1_fx, double t_z) {
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  fs << "image_width" << 320 << "image_height" << 240
     << "K1" << cv::Mat(cv::Matx33d(k1_fx, 0, 160, 0, 300, 120, 0, 0, 1)) << "D1"
     << cv::Mat::zeros(1, 5, CV_64F) << "K2" << cv::Mat(cv::Matx33d(300, 0, 160, 0, 300, 120, 0, 0, 1))
     << "D2" << cv::Mat::zeros(1, 5, CV_64F) << "R" << cv::Mat::eye(3, 3, CV_64F) << "T"
     << cv::Mat(cv::Vec3d(-0.1, 0, t_z));
  return path;
}

TEST(CalibrationCli, HelpNamesTheTwoFileFormAndSwapViews) {
  const auto r = run_stereoview({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "--calib FILE[,FILE]")) << r.out;
  EXPECT_TRUE(contains(r.out, "intrinsics.yml,extrinsics.yml")) << r.out;
  EXPECT_TRUE(contains(r.out, "--swap-views")) << r.out;
}

TEST(CalibrationCli, ACalibrationHoldingNanOrInfIsRefusedNamingTheEntry) {
  const std::string dir = make_temp_dir("cli_calib_nan");
  const SyntheticFrame f = scene_frame(0);
  write_ppm(dir + "/l.ppm", f.left);
  write_ppm(dir + "/r.ppm", f.right);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib",
       write_calibration(dir + "/nan.yaml", nan, 0.0)},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.err, "nan.yaml': K1 holds NaN (row 1, column 1)")) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/disparity_000000.pfm"));
  r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib",
       write_calibration(dir + "/inf.yaml", 300, inf)},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.err, "inf.yaml': T holds an infinity (row 3, column 1)")) << r.err;
  r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib",
       write_calibration(dir + "/zero.yaml", 0, 0.0)},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.err, "zero.yaml': K1 has no positive focal length")) << r.err;
}

TEST(CalibrationCli, AFifoOrADeviceAsCalibrationEndsTheRunAtOnce) {
  const std::string dir = make_temp_dir("cli_calib_fifo");
  const SyntheticFrame f = scene_frame(0);
  write_ppm(dir + "/l.ppm", f.left);
  write_ppm(dir + "/r.ppm", f.right);
  ASSERT_EQ(mkfifo((dir + "/calib.yml").c_str(), 0600), 0);
  const auto started = std::chrono::steady_clock::now();
  auto r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib", dir + "/calib.yml"},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "calib.yml': a FIFO (named pipe), not a regular file")) << r.err;
  r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib", "/dev/zero"},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "'/dev/zero': a character device")) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

bool same_disparities(const std::string& a, const std::string& b) {
  const ImageF32 x = read_pfm(a), y = read_pfm(b);
  if (!x.same_size(y.width(), y.height()) || x.empty()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    const float p = x.data()[i], q = y.data()[i];
    if (!(p == q || (std::isinf(p) && std::isinf(q)))) return false;
  }
  return true;
}

TEST(CalibrationCli, APairNamedTheWrongWayRoundIsNoticedAndSwapViewsPutsItRight) {
  const std::string dir = make_temp_dir("cli_swapped");
  const SyntheticFrame f = scene_frame(5);
  cv::imwrite(dir + "/left.png", bgr_mat_from_rgb(f.left));
  cv::imwrite(dir + "/right.png", bgr_mat_from_rgb(f.right));

  auto r = run_stereoview(with_run_flags({"--left", dir + "/left.png", "--right", dir + "/right.png"},
                                         dir + "/named"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "swap")) << r.err;

  r = run_stereoview(with_run_flags({"--left", dir + "/right.png", "--right", dir + "/left.png"},
                                    dir + "/wrong"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "note: the views look swapped: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "add --swap-views")) << r.err;

  r = run_stereoview(with_run_flags({"--left", dir + "/right.png", "--right", dir + "/left.png",
                                     "--swap-views"},
                                    dir + "/swapped"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "views swapped")) << r.out;
  EXPECT_FALSE(contains(r.err, "look swapped")) << r.err;
  EXPECT_TRUE(same_disparities(dir + "/swapped/disparity_000000.pfm",
                               dir + "/named/disparity_000000.pfm"));
  EXPECT_FALSE(same_disparities(dir + "/wrong/disparity_000000.pfm",
                                dir + "/named/disparity_000000.pfm"));

  // A side-by-side video with its halves the wrong way round, likewise.
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 2; ++i) {
    const SyntheticFrame g = scene_frame(i);
    cv::Mat packed;
    cv::hconcat(bgr_mat_from_rgb(g.right), bgr_mat_from_rgb(g.left), packed);
    frames.push_back(packed);
  }
  test::write_mjpeg_avi(dir + "/sbs.avi", frames);
  r = run_stereoview(with_run_flags({"--sbs", dir + "/sbs.avi"}, dir + "/sbs"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "the views look swapped")) << r.err;
  r = run_stereoview(with_run_flags({"--sbs", dir + "/sbs.avi", "--swap-views"}, dir + "/sbs_swapped"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "look swapped")) << r.err;
  EXPECT_TRUE(contains(r.out, "done: 2 frames")) << r.out;
}

TEST(CalibrationCli, SwapViewsNeedsViewsToSwap) {
  auto r = run_stereoview({"--headless", "--swap-views"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--swap-views applies to files, datasets and cameras")) << r.err;
  r = run_stereoview({"eval", "--dataset", "somewhere", "--swap-views"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "not to eval or bench")) << r.err;
}

// The share of pixels whose disparity lies in lo..hi and agrees within 1 px with the pixel
// below: a surface seen in that range, not streaks of mismatches.
double share_on_surfaces_between(const ImageF32& d, float lo, float hi) {
  size_t in = 0;
  for (int y = 0; y + 1 < d.height(); ++y) {
    for (int x = 0; x < d.width(); ++x) {
      const float v = d.at(x, y);
      in += v >= lo && v <= hi && std::fabs(v - d.at(x, y + 1)) <= 1.0f;
    }
  }
  return static_cast<double>(in) / static_cast<double>(d.size());
}

// The calib-ximea rig: intrinsics.yml and extrinsics.yml as OpenCV's stereo_calib writes them,
// no image size, and views named left that come from the right camera (the chessboard lies at
// 60..97 px once the views are in order).
TEST(CalibrationCli, TheXimeaRigRectifiesThroughItsTwoFiles) {
  const fs::path rig = shared_data_dir() / "calib-ximea";
  if (!fs::is_directory(rig)) GTEST_SKIP() << "no shared data at " << rig;
  const std::string dir = make_temp_dir("cli_ximea");
  const std::string left = (rig / "left07.jpg").string(), right = (rig / "right07.jpg").string();
  const std::vector<std::string> run = {"--headless", "--disparities", "128", "--engine", "cpu"};

  std::vector<std::string> named = {"--left", left, "--right", right, "--calib", rig.string(),
                                    "--out", dir + "/named"};
  named.insert(named.end(), run.begin(), run.end());
  auto r = run_stereoview(named);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "does not give the image size it was made for: taking the "
                              "source's 640x512"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "rectifying 640x512 with " + (rig / "intrinsics.yml").string() +
                                  " + " + (rig / "extrinsics.yml").string()))
      << r.err;
  EXPECT_TRUE(contains(r.err, "the views look swapped")) << r.err;

  std::vector<std::string> swapped = {"--left", left, "--right", right, "--calib",
                                      (rig / "intrinsics.yml").string() + "," +
                                          (rig / "extrinsics.yml").string(),
                                      "--swap-views", "--out", dir + "/swapped"};
  swapped.insert(swapped.end(), run.begin(), run.end());
  r = run_stereoview(swapped);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "look swapped")) << r.err;
  EXPECT_TRUE(contains(r.err, "camera 2 rectifies the left view")) << r.err;

  const double board_named =
      share_on_surfaces_between(read_pfm(dir + "/named/disparity_000000.pfm"), 55, 105);
  const double board_swapped =
      share_on_surfaces_between(read_pfm(dir + "/swapped/disparity_000000.pfm"), 55, 105);
  RecordProperty("board_named", std::to_string(board_named));
  RecordProperty("board_swapped", std::to_string(board_swapped));
  // About 0.20 against 0.06 (the board covers a quarter of the view).
  EXPECT_GT(board_swapped, 0.12) << "named " << board_named;
  EXPECT_GT(board_swapped, 2.5 * board_named);
}

// EuRoC's frames named against their calibration (the Baumer rig's case): each camera's maps
// warp the other camera's view; the notice names --swap-views, which puts it right.
TEST(CalibrationCli, FramesNamedAgainstTheirCalibrationAreNoticed) {
  const fs::path euroc = shared_data_dir() / "euroc-v1-01-easy";
  if (!fs::is_directory(euroc)) GTEST_SKIP() << "no shared data at " << euroc;
  const std::string dir = make_temp_dir("cli_euroc");
  std::vector<std::string> args = {"--left", (euroc / "frames/right_0.png").string(), "--right",
                                   (euroc / "frames/left_0.png").string(), "--calib",
                                   (euroc / "stereo_calibration.yaml").string()};
  auto r = run_stereoview(with_run_flags(args, dir + "/against"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "the views look swapped")) << r.err;
  EXPECT_TRUE(contains(r.err, "add --swap-views")) << r.err;
  args.push_back("--swap-views");
  r = run_stereoview(with_run_flags(args, dir + "/swapped"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "look swapped")) << r.err;
  EXPECT_TRUE(contains(r.err, "its camera 1 rectifies the left view (named right)")) << r.err;
}

}  // namespace
}  // namespace sv
