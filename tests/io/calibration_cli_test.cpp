// The real stereoview binary with calibrations (issues 17 and 24): the two-file form in --help,
// a calibration holding NaN or Inf, a FIFO or a device as --calib, and the calib-ximea rig end
// to end through its two files (shared data).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <opencv2/core.hpp>

#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "tests/app/process_runner.h"

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

TEST(CalibrationCli, HelpNamesTheTwoFileForm) {
  const auto r = run_stereoview({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "--calib FILE[,FILE]")) << r.out;
  EXPECT_TRUE(contains(r.out, "intrinsics.yml,extrinsics.yml")) << r.out;
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
  EXPECT_TRUE(contains(r.err, "calib.yml': it is a FIFO, not a regular file")) << r.err;
  r = run_stereoview(with_run_flags(
      {"--left", dir + "/l.ppm", "--right", dir + "/r.ppm", "--calib", "/dev/zero"},
      dir + "/out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "'/dev/zero': it is a device")) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

// The calib-ximea rig: intrinsics.yml and extrinsics.yml as OpenCV's stereo_calib writes them,
// no image size.
TEST(CalibrationCli, TheXimeaRigRectifiesThroughItsTwoFiles) {
  const fs::path rig = shared_data_dir() / "calib-ximea";
  if (!fs::is_directory(rig)) GTEST_SKIP() << "no shared data at " << rig;
  const std::string dir = make_temp_dir("cli_ximea");
  const std::string pair = (rig / "intrinsics.yml").string() + "," + (rig / "extrinsics.yml").string();
  for (const std::string& calib : {rig.string(), pair}) {
    const auto r = run_stereoview({"--headless", "--left", (rig / "left07.jpg").string(), "--right",
                                   (rig / "right07.jpg").string(), "--calib", calib,
                                   "--disparities", "128", "--algorithm", "bm-sad", "--engine",
                                   "cpu", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "does not give the image size it was made for: taking the "
                                "source's 640x512"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "rectifying 640x512 with " + (rig / "intrinsics.yml").string() +
                                    " + " + (rig / "extrinsics.yml").string()))
        << r.err;
    EXPECT_TRUE(fs::exists(dir + "/disparity_000000.pfm"));
  }
}

}  // namespace
}  // namespace sv
