// `stereoview calibrate` (issue 19), the real binary on rendered board views: image globs and a
// side-by-side video give a calibration that --calib reads (a fisheye one as fisheye); an
// existing calibration is kept without --force; no board, too few views, a board of another size
// and an image size that changes are refused with one line and exit code 1, malformed command
// lines with code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "src/io/depth_geometry.h"
#include "src/io/stereo_calibration.h"
#include "tests/app/process_runner.h"
#include "tests/io/io_test_support.h"
#include "tests/support/board_renderer.h"

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::run_stereoview;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

cv::Mat mat_of(const ImageU8& image) {
  return cv::Mat(image.height(), image.width(), CV_8UC1, const_cast<uint8_t*>(image.data())).clone();
}

BoardSpec board_9x6() { return parse_board_spec("chessboard:9x6", 0.03, 0); }

// `count` rendered pairs of a `board` as DIR/left_K.png and DIR/right_K.png.
std::string write_views(const std::string& name, int count, const BoardSpec& board = board_9x6(),
                        const test::SyntheticRig& rig = test::pinhole_rig(),
                        double distance = 0.45) {
  const std::string dir = test::make_temp_dir(name);
  const test::BoardTexture texture = test::make_board_texture(board);
  for (int k = 0; k < count; ++k) {
    const auto pair =
        test::render_pair(rig, texture, test::board_pose(board, k, count, distance), 1.0, k);
    cv::imwrite(dir + "/left_" + std::to_string(k) + ".png", mat_of(pair.left));
    cv::imwrite(dir + "/right_" + std::to_string(k) + ".png", mat_of(pair.right));
  }
  return dir;
}

std::vector<std::string> calibrate_args(const std::string& dir, const std::string& output) {
  return {"calibrate", "--left", dir + "/left_*.png", "--right", dir + "/right_*.png", "--board",
          "chessboard:9x6", "--square", "0.03", "--output", output};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CalibrateCli, ImageGlobsGiveACalibrationThatCalibReadsAndAReportBesideIt) {
  const std::string dir = write_views("calibrate_globs", 6);
  const std::string output = dir + "/rig.yaml";
  const auto r = run_stereoview(calibrate_args(dir, output));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "reprojection error (RMS)")) << r.out;
  EXPECT_TRUE(contains(r.out, "epipolar error (vertical offset")) << r.out;
  const StereoCalibration c = load_stereo_calibration(output);
  EXPECT_EQ(c.width, 480);
  EXPECT_NEAR(c.K1[0], 420.0, 2.1);
  EXPECT_NEAR(std::fabs(c.T[0]), 0.06, 0.0003);
  ASSERT_TRUE(c.translation_unit);  // --square is in metres, so T is (issue 39)
  EXPECT_EQ(*c.translation_unit, LengthUnit::kMetre);
  EXPECT_TRUE(contains(read_text(dir + "/rig.report.txt"), "coverage of the image"));
  // Named as the help and the calibration page say (issue 39: they said FILE.report.txt,
  // rig.yaml.report.txt).
  const std::string naming = "NAME.report.txt for NAME.yaml";
  EXPECT_TRUE(contains(run_stereoview({"calibrate", "--help"}).out, naming));
  std::string readme =
      read_text(std::string(STEREOVIEW_SOURCE_DIR) + "/docs/sources-and-calibration.md");
  std::replace(readme.begin(), readme.end(), '\n', ' ');
  readme.erase(std::unique(readme.begin(), readme.end(), [](char a, char b) { return a == ' ' && b == ' '; }),
               readme.end());
  EXPECT_TRUE(contains(readme, "(`NAME.report.txt` for `NAME.yaml`)"));
  // The viewer's --calib takes it as it is.
  const auto run = run_stereoview({"--headless", "--left", dir + "/left_0.png", "--right",
                                   dir + "/right_0.png", "--calib", output, "--disparities", "32",
                                   "--algorithm", "bm-sad", "--engine", "cpu"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

// The file says distortion_model: fisheye, and --calib rectifies it with the fisheye model (the
// one the ROS / Kalibr / ASL / ZED readers give), not as a pinhole.
TEST(CalibrateCli, AFisheyeCalibrationIsRectifiedAsFisheyeByCalib) {
  // Boards near enough to cover a third of the images, as k1..k4 need.
  const std::string dir = write_views("calibrate_fisheye", 8, board_9x6(), test::fisheye_rig(), 0.3);
  const std::string output = dir + "/rig.yaml";
  std::vector<std::string> args = calibrate_args(dir, output);
  args.insert(args.end(), {"--model", "fisheye"});
  const auto r = run_stereoview(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(read_text(output), "distortion_model: fisheye")) << read_text(output);
  const StereoCalibration c = load_stereo_calibration(output);
  EXPECT_EQ(c.distortion_model, DistortionModel::kFisheye);
  EXPECT_EQ(c.D1.size(), 4u);
  const auto run = run_stereoview({"--headless", "--left", dir + "/left_0.png", "--right",
                                   dir + "/right_0.png", "--calib", output, "--disparities", "32",
                                   "--algorithm", "bm-sad", "--engine", "cpu"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out + run.err, "(fisheye model, balance 0)")) << run.out << run.err;
}

// A board measured in millimetres: T comes out in them and the file says so (issue 39), so
// depth from it is in metres all the same.
TEST(CalibrateCli, TheFileStatesTheUnitTheSquareWasGivenIn) {
  const std::string dir = write_views("calibrate_unit", 6);
  const std::string output = dir + "/rig.yaml";
  std::vector<std::string> args = calibrate_args(dir, output);
  *std::find(args.begin(), args.end(), "0.03") = "30";
  args.insert(args.end(), {"--calib-unit", "mm"});
  const auto r = run_stereoview(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(read_text(output), "translation_unit: mm")) << read_text(output);
  const StereoCalibration c = load_stereo_calibration(output);
  EXPECT_NEAR(std::fabs(c.T[0]), 60.0, 0.3);
  const DepthGeometry depth = rectified_depth_geometry(c, std::nullopt, c.width, c.height, 0.0, false);
  ASSERT_TRUE(depth.geometry) << depth.warning;
  EXPECT_NEAR(depth.geometry->baseline, 0.06, 0.0003);
}

TEST(CalibrateCli, AnExistingCalibrationIsKeptWithoutForce) {
  const std::string dir = write_views("calibrate_force", 5);
  const std::string output = dir + "/rig.yaml";
  { std::ofstream(output) << "mine\n"; }
  auto r = run_stereoview(calibrate_args(dir, output));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "exists: not overwriting a calibration (add --force")) << r.err;
  EXPECT_EQ(read_text(output), "mine\n");
  EXPECT_FALSE(fs::exists(dir + "/rig.report.txt"));
  auto args = calibrate_args(dir, output);
  args.push_back("--force");
  r = run_stereoview(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NO_THROW(load_stereo_calibration(output));
}

TEST(CalibrateCli, BadViewsAreRefusedWithOneLineAndNothingWritten) {
  // No board at all.
  const std::string blank = test::make_temp_dir("calibrate_blank");
  for (int k = 0; k < 5; ++k) {
    cv::imwrite(blank + "/left_" + std::to_string(k) + ".png", cv::Mat(120, 160, CV_8UC1, cv::Scalar(90)));
    cv::imwrite(blank + "/right_" + std::to_string(k) + ".png", cv::Mat(120, 160, CV_8UC1, cv::Scalar(90)));
  }
  auto r = run_stereoview(calibrate_args(blank, blank + "/out.yaml"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "0 usable views of 5")) << r.err;
  EXPECT_TRUE(contains(r.err, "board not found in either view: 5")) << r.err;
  EXPECT_FALSE(fs::exists(blank + "/out.yaml"));

  // A ChArUco board not found: the hint names squares and the dictionary.
  r = run_stereoview({"calibrate", "--left", blank + "/left_*.png", "--right", blank + "/right_*.png",
                      "--board", "charuco:5x7:4X4_50", "--square", "0.03", "--marker", "0.02",
                      "--output", blank + "/out.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "(is the board 5x7 squares with DICT_4X4_50 markers?)")) << r.err;

  // Too few views.
  const std::string few = write_views("calibrate_few", 3);
  r = run_stereoview(calibrate_args(few, few + "/out.yaml"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "3 usable views of 3")) << r.err;
  EXPECT_TRUE(contains(r.err, "needs at least 5")) << r.err;
  EXPECT_FALSE(fs::exists(few + "/out.yaml"));

  // A board of another size than --board says.
  const std::string other = write_views("calibrate_other_board", 2, parse_board_spec("chessboard:6x4", 0.03, 0));
  r = run_stereoview(calibrate_args(other, other + "/out.yaml"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "is the board 9x6 inner corners?")) << r.err;

  // An image size that changes.
  const std::string sizes = write_views("calibrate_sizes", 2);
  cv::imwrite(sizes + "/left_2.png", cv::Mat(240, 320, CV_8UC1, cv::Scalar(90)));
  cv::imwrite(sizes + "/right_2.png", cv::Mat(240, 320, CV_8UC1, cv::Scalar(90)));
  r = run_stereoview(calibrate_args(sizes, sizes + "/out.yaml"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "left_2.png / right_2.png is 320x240 but the views before it are "
                              "480x360: a calibration holds for one image size")) << r.err;

  // Lists of different lengths.
  fs::remove(sizes + "/right_2.png");
  r = run_stereoview(calibrate_args(sizes, sizes + "/out.yaml"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "names 3 files but --right")) << r.err;
}

TEST(CalibrateCli, MalformedCommandLinesAreUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"calibrate", "--left", "a*.png"},
           {"calibrate", "--left", "a*.png", "--right", "b*.png", "--board", "chess:9x6"},
           {"calibrate", "--left", "a*.png", "--right", "b*.png", "--square", "-1"},
           {"calibrate", "--left", "a*.png", "--right", "b*.png", "--bogus"},
           {"calibrate", "--left", "a*.png", "--right", "b*.png", "--calib-unit", "inch"},
           {"calibrate"}}) {
    const auto r = run_stereoview(args);
    EXPECT_NE(r.exit_code, 0) << args.back();
    EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
  }
  EXPECT_EQ(run_stereoview({"calibrate", "--left", "a*.png"}).exit_code, 2);
  EXPECT_EQ(run_stereoview({"calibrate", "--bogus", "1"}).exit_code, 2);
  const auto help = run_stereoview({"calibrate", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--board charuco:COLSxROWS:DICT")) << help.out;
  EXPECT_TRUE(contains(run_stereoview({"--help"}).out, "stereoview calibrate"));
}

TEST(CalibrateCli, ASideBySideVideoIsSampledEveryNthFrame) {
  const std::string dir = test::make_temp_dir("calibrate_video");
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = board_9x6();
  const test::BoardTexture texture = test::make_board_texture(board);
  std::vector<cv::Mat> frames;
  for (int k = 0; k < 6; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, 6), 1.0, k);
    cv::Mat packed, bgr;
    cv::hconcat(mat_of(pair.left), mat_of(pair.right), packed);
    cv::cvtColor(packed, bgr, cv::COLOR_GRAY2BGR);
    frames.push_back(bgr);
    frames.push_back(bgr);  // every second frame is the same view again
  }
  test::write_mjpeg_avi(dir + "/board.avi", frames);
  const auto r = run_stereoview({"calibrate", "--sbs", dir + "/board.avi", "--every", "2", "--board",
                                 "chessboard:9x6", "--square", "0.03", "--output", dir + "/rig.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(contains(r.out, "views used: 6")) << r.out;
  EXPECT_TRUE(contains(r.out, "frame 10: board found in both views")) << r.out;
  EXPECT_NEAR(load_stereo_calibration(dir + "/rig.yaml").K1[0], 420.0, 4.2);
}

}  // namespace
}  // namespace sv
