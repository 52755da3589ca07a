// Stereo calibration (issue 19): views of a board rendered from two known cameras give back
// their focal lengths, principal points, baseline and rotation; bad views are rejected with the
// reason; bad sets of views are refused; the result reads back through --calib's loader; and on
// the shared rigs (calib-chessboard-opencv, calib-ximea) the corners rectify onto common rows.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>

#include "src/core/error.h"
#include "src/io/calibration_writer.h"
#include "src/io/stereo_calibrator.h"
#include "src/io/stereo_rectifier.h"
#include "tests/io/io_test_support.h"
#include "tests/support/board_renderer.h"

namespace sv {
namespace {

namespace fs = std::filesystem;

BoardSpec chessboard(int cols = 9, int rows = 6) { return parse_board_spec("chessboard:" + std::to_string(cols) + "x" + std::to_string(rows), 0.03, 0); }

StereoCalibrator calibrator_for(const BoardSpec& board, LensModel model) {
  CalibrationSettings settings;
  settings.board = board;
  settings.model = model;
  return StereoCalibrator(settings);
}

// Adds `count` rendered views of the board to `calibrator`.
void add_rendered_views(StereoCalibrator& calibrator, const test::SyntheticRig& rig, int count,
                        double noise = 1.0, double distance = 0.45) {
  const BoardSpec& board = calibrator.settings().board;
  const test::BoardTexture texture = test::make_board_texture(board);
  for (int k = 0; k < count; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, count, distance), noise, 10 * k);
    const ViewCheck check = calibrator.add_view(pair.left, pair.right, "view " + std::to_string(k));
    EXPECT_TRUE(check.usable) << "view " << k << ": " << check.reason;
  }
}

double relative(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

// The angle of the rotation between two rotation matrices, in degrees.
double angle_between_deg(const Matrix3& got, const cv::Matx33d& want) {
  const cv::Matx33d g(got.data());
  cv::Vec3d r;
  cv::Rodrigues(cv::Mat(g * want.t()), r);
  return cv::norm(r) * 180.0 / CV_PI;
}

// The bounds: focal lengths and principal points within 0.5 %, the baseline within
// 0.5 %, R within 0.1 degrees (looser for the ChArUco board, whose corners OpenCV locates less
// precisely).
void expect_recovers(const StereoCalibration& c, const test::SyntheticRig& rig,
                     double tolerance = 0.005, double degrees = 0.1) {
  const auto expect_camera = [tolerance](const Matrix3& K, const cv::Matx33d& truth, const char* which) {
    EXPECT_LT(relative(K[0], truth(0, 0)), tolerance) << which << " fx " << K[0] << " vs " << truth(0, 0);
    EXPECT_LT(relative(K[4], truth(1, 1)), tolerance) << which << " fy " << K[4] << " vs " << truth(1, 1);
    EXPECT_LT(relative(K[2], truth(0, 2)), tolerance) << which << " cx " << K[2] << " vs " << truth(0, 2);
    EXPECT_LT(relative(K[5], truth(1, 2)), tolerance) << which << " cy " << K[5] << " vs " << truth(1, 2);
  };
  expect_camera(c.K1, rig.left.K, "left");
  expect_camera(c.K2, rig.right.K, "right");
  const double baseline = std::sqrt(c.T[0] * c.T[0] + c.T[1] * c.T[1] + c.T[2] * c.T[2]);
  EXPECT_LT(relative(baseline, cv::norm(rig.T)), tolerance) << baseline << " vs " << cv::norm(rig.T);
  EXPECT_LT(angle_between_deg(c.R, rig.R), degrees);
}

TEST(StereoCalibrator, RecoversAKnownPinholeRigFromRenderedChessboards) {
  const test::SyntheticRig rig = test::pinhole_rig();
  StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole5);
  add_rendered_views(calibrator, rig, 10);
  const CalibrationResult result = calibrator.calibrate();
  expect_recovers(result.calibration, rig);
  EXPECT_EQ(result.calibration.D1.size(), 5u);
  EXPECT_EQ(result.report.views_used, 10);
  EXPECT_LT(result.report.rms_px, 0.3);
  EXPECT_LT(result.report.epipolar_mean_px, 0.1);
  EXPECT_GT(result.report.coverage_left, 0.2);
  EXPECT_LT(result.report.coverage_left, 1.0);
  EXPECT_FALSE(result.report.camera1_on_right);
}

TEST(StereoCalibrator, EightTermsKeepEightAndRecoverTheRig) {
  const test::SyntheticRig rig = test::pinhole_rig();
  StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole8);
  add_rendered_views(calibrator, rig, 10);
  const CalibrationResult result = calibrator.calibrate();
  EXPECT_EQ(result.calibration.D1.size(), 8u);
  expect_recovers(result.calibration, rig);
}

TEST(StereoCalibrator, RecoversAKnownFisheyeRig) {
  const test::SyntheticRig rig = test::fisheye_rig();
  StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Fisheye);
  // Near enough for the boards to cover a third of the images: k1..k4 need the wide angles.
  add_rendered_views(calibrator, rig, 10, 1.0, 0.3);
  const CalibrationResult result = calibrator.calibrate();
  EXPECT_EQ(result.calibration.distortion_model, DistortionModel::kFisheye);
  EXPECT_EQ(result.calibration.D1.size(), 4u);
  expect_recovers(result.calibration, rig);
  EXPECT_LT(result.report.epipolar_mean_px, 0.1);
  // The rectified cameras are real ones (not the near-zero focal length of a polynomial that
  // bends back), and the rectifier --calib uses builds from them.
  EXPECT_GT(result.report.rectified_focal_px, 0.5 * rig.left.K(0, 0));
  const StereoRectifier rectifier(result.calibration, rig.size.width, rig.size.height);
  EXPECT_NEAR(rectifier.P1()[0], result.calibration.P1[0], 1e-6 * result.calibration.P1[0]);
}

// Boards that cover only the middle of the images leave k3 k4 free to bend the fisheye model away
// outside it: the fit fits the corners, but rectifies to nothing. Refused, saying why.
TEST(StereoCalibrator, AFisheyeFitThatDoesNotRectifyIsRefusedWithItsCoverage) {
  StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Fisheye);
  add_rendered_views(calibrator, test::fisheye_rig(), 10);
  try {
    calibrator.calibrate();
    FAIL() << "a degenerate rectification was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("fit does not rectify the images"), std::string::npos) << message;
    EXPECT_NE(message.find("% of the images; add views with the board near their edges"),
              std::string::npos)
        << message;
  }
}

#ifdef STEREOVIEW_TEST_HAS_ARUCO
TEST(StereoCalibrator, RecoversTheRigFromACharucoBoard) {
  const test::SyntheticRig rig = test::pinhole_rig();
  StereoCalibrator calibrator =
      calibrator_for(parse_board_spec("charuco:8x6:5X5_100", 0.03, 0.022), LensModel::Pinhole5);
  add_rendered_views(calibrator, rig, 10);
  const CalibrationResult result = calibrator.calibrate();
  expect_recovers(result.calibration, rig, 0.01, 0.3);
  EXPECT_LT(result.report.epipolar_mean_px, 0.3);
}

TEST(StereoCalibrator, APartlyVisibleCharucoBoardGivesItsVisibleCornersWhereTheyAre) {
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = parse_board_spec("charuco:8x6:5X5_100", 0.03, 0.022);
  const test::BoardTexture texture = test::make_board_texture(board);
  // The board moved left until about a third of it leaves the left camera's image.
  test::BoardPose pose = test::board_pose(board, 0, 6);
  pose.t[0] -= 0.16;
  const ImageU8 image = test::render_board(texture, rig.left, cv::Matx33d::eye(), cv::Vec3d(0, 0, 0),
                                           pose, rig.size, 1.0, 3);
  const BoardCorners corners = detect_board(board, image);
  ASSERT_TRUE(corners.found());
  EXPECT_LT(static_cast<int>(corners.ids.size()), board.corner_count());
  EXPECT_GE(corners.ids.size(), 6u);
  // Each corner lies where the known camera sees that corner of the board.
  for (size_t i = 0; i < corners.ids.size(); ++i) {
    double x = 0, y = 0;
    board_corner_position(board, corners.ids[i], x, y);
    std::vector<cv::Point2f> projected;
    cv::Mat rvec;
    cv::Rodrigues(cv::Mat(pose.R), rvec);
    cv::projectPoints(std::vector<cv::Point3f>{cv::Point3f(static_cast<float>(x), static_cast<float>(y), 0)},
                      rvec, cv::Mat(pose.t), cv::Mat(rig.left.K), rig.left.D, projected);
    EXPECT_NEAR(corners.points[i].x, projected[0].x, 0.5) << "corner " << corners.ids[i];
    EXPECT_NEAR(corners.points[i].y, projected[0].y, 0.5) << "corner " << corners.ids[i];
  }
}
#endif

TEST(StereoCalibrator, RejectsBlurredViewsAndOutliersNamingThem) {
  const test::SyntheticRig rig = test::pinhole_rig();
  StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole5);
  add_rendered_views(calibrator, rig, 8);
  const BoardSpec board = chessboard();
  const test::BoardTexture texture = test::make_board_texture(board);
  // A blurred pair: the board is still found, but its edges are wide.
  auto blurred = test::render_pair(rig, texture, test::board_pose(board, 1, 7), 1.0, 99);
  cv::Mat right(blurred.right.height(), blurred.right.width(), CV_8UC1, blurred.right.data());
  cv::GaussianBlur(right, right, cv::Size(0, 0), 4.0);
  const ViewCheck check = calibrator.add_view(blurred.left, blurred.right, "blurred");
  EXPECT_FALSE(check.usable);
  EXPECT_NE(check.reason.find("blurred (right view"), std::string::npos) << check.reason;
  // An outlier: the right view of another pose.
  const auto a = test::render_pair(rig, texture, test::board_pose(board, 2, 7), 1.0, 7);
  const auto b = test::render_pair(rig, texture, test::board_pose(board, 5, 7), 1.0, 8);
  EXPECT_TRUE(calibrator.add_view(a.left, b.right, "mismatched").usable);
  // Board in one view only.
  const ImageU8 blank(rig.size.width, rig.size.height, 128);
  EXPECT_EQ(calibrator.add_view(a.left, blank, "half").reason, "board not found in the right view");

  const CalibrationResult result = calibrator.calibrate();
  EXPECT_EQ(result.report.views_used, 8);
  ASSERT_EQ(result.report.rejected.size(), 3u);
  EXPECT_EQ(result.report.rejected[2].name, "mismatched");
  EXPECT_EQ(result.report.rejected[2].reason.rfind("outlier: reprojection error", 0), 0u);
  expect_recovers(result.calibration, rig);
  const std::string text = format_calibration_report(result.report);
  for (const char* part : {"reprojection error (RMS)", "epipolar error (vertical offset", "baseline",
                           "coverage", "blurred", "board not found in the right view", "outlier"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n" << text;
  }
}

TEST(StereoCalibrator, RefusesTooFewViewsABoardOfAnotherSizeAndAChangingImageSize) {
  const test::SyntheticRig rig = test::pinhole_rig();
  {
    StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole5);
    add_rendered_views(calibrator, rig, 3);
    try {
      calibrator.calibrate();
      FAIL() << "three views calibrated";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("3 usable views of 3"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("at least 5"), std::string::npos) << e.what();
    }
  }
  {
    // A 7x5 board where 9x6 is expected: never found, and the message says what to count.
    StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole5);
    const BoardSpec other = chessboard(7, 5);
    const test::BoardTexture texture = test::make_board_texture(other);
    for (int k = 0; k < 5; ++k) {
      const auto pair = test::render_pair(rig, texture, test::board_pose(other, k, 5), 1.0, k);
      EXPECT_FALSE(calibrator.add_view(pair.left, pair.right, "v").usable);
    }
    try {
      calibrator.calibrate();
      FAIL() << "a board of another size calibrated";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("board not found in either view: 5"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("inner corners"), std::string::npos) << e.what();
    }
  }
  {
    StereoCalibrator calibrator = calibrator_for(chessboard(), LensModel::Pinhole5);
    add_rendered_views(calibrator, rig, 1);
    const ImageU8 big(rig.size.width * 2, rig.size.height * 2, 128);
    EXPECT_THROW(calibrator.add_view(big, big, "bigger"), InputError);
    EXPECT_THROW(calibrator.add_view(big, ImageU8(10, 10), "mixed"), InputError);
  }
}

TEST(StereoCalibrator, TheWrittenFileReadsBackAndRectifies) {
  for (const LensModel model : {LensModel::Pinhole5, LensModel::Fisheye}) {
    const test::SyntheticRig rig = model == LensModel::Fisheye ? test::fisheye_rig() : test::pinhole_rig();
    StereoCalibrator calibrator = calibrator_for(chessboard(), model);
    add_rendered_views(calibrator, rig, 6);
    const CalibrationResult result = calibrator.calibrate();
    const std::string path = test::fresh_dir("calibrator_write") + "/rig.yaml";
    write_calibration_file(path, stereo_calibration_yaml(result.calibration), false);
    EXPECT_THROW(write_calibration_file(path, "x", false), InputError);
    const StereoCalibration back = load_stereo_calibration(path);
    EXPECT_EQ(back.width, rig.size.width);
    EXPECT_EQ(back.distortion_model,
              model == LensModel::Fisheye ? DistortionModel::kFisheye : DistortionModel::kPinhole);
    EXPECT_EQ(back.D1, result.calibration.D1);
    EXPECT_EQ(back.K2, result.calibration.K2);
    EXPECT_EQ(back.T, result.calibration.T);
    EXPECT_EQ(back.P2, result.calibration.P2);
    // The rectifier's own rectification equals the one written.
    const StereoRectifier rectifier(back, rig.size.width, rig.size.height);
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(rectifier.P2()[i], back.P2[i], 1e-6 * (1 + std::fabs(back.P2[i])));
  }
}

// Data tests: the shared rigs, skipped when absent.
fs::path shared_data_dir() {
  if (const char* v = std::getenv("STEREO_DATA_DIR")) return v;
  return STEREO_DATA_DIR_DEFAULT;
}

ImageU8 read_gray(const fs::path& path) {
  const cv::Mat m = cv::imread(path.string(), cv::IMREAD_GRAYSCALE);
  ImageU8 image(m.cols, m.rows);
  for (int y = 0; y < m.rows; ++y) std::copy(m.ptr<uint8_t>(y), m.ptr<uint8_t>(y) + m.cols, image.row(y));
  return image;
}

StereoCalibrator calibrate_folder(const fs::path& dir, double square, LensModel model) {
  CalibrationSettings settings;
  settings.board = parse_board_spec("chessboard:9x6", square, 0);
  settings.model = model;
  StereoCalibrator calibrator(settings);
  std::vector<fs::path> lefts;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("left", 0) == 0 && e.path().extension() == ".jpg") lefts.push_back(e.path());
  }
  std::sort(lefts.begin(), lefts.end());
  for (const fs::path& left : lefts) {
    const fs::path right = dir / ("right" + left.filename().string().substr(4));
    calibrator.add_view(read_gray(left), read_gray(right), left.filename().string());
  }
  return calibrator;
}

TEST(StereoCalibratorData, OpenCvSamplePairsRectifyWithinHalfAPixel) {
  const fs::path dir = shared_data_dir() / "calib-chessboard-opencv";
  if (!fs::exists(dir / "left01.jpg")) GTEST_SKIP() << dir << " is absent";
  const CalibrationResult result = calibrate_folder(dir, 1.0, LensModel::Pinhole5).calibrate();
  EXPECT_EQ(result.report.views_used, 14);
  EXPECT_LE(result.report.epipolar_mean_px, 0.5);
  EXPECT_LT(result.report.rms_px, 0.5);
  EXPECT_FALSE(result.report.camera1_on_right);  // SOURCE.txt: T x < 0, left is left
}

TEST(StereoCalibratorData, XimeaRigAgreesWithItsShippedCalibration) {
  const fs::path dir = shared_data_dir() / "calib-ximea";
  if (!fs::exists(dir / "intrinsics.yml")) GTEST_SKIP() << dir << " is absent";
  // The shipped T is in millimetres of its 24 mm squares. SOURCE.txt: the files named left come
  // from the right camera, so camera 1 sits on the right (T x > 0) in both calibrations.
  const CalibrationResult ours = calibrate_folder(dir, 24.0, LensModel::Pinhole8).calibrate();
  const StereoCalibration shipped =
      load_stereo_calibration((dir / "intrinsics.yml").string() + "," + (dir / "extrinsics.yml").string());
  EXPECT_TRUE(ours.report.camera1_on_right);
  EXPECT_LT(relative(ours.calibration.K1[0], shipped.K1[0]), 0.01);
  EXPECT_LT(relative(ours.calibration.K2[0], shipped.K2[0]), 0.01);
  const auto norm = [](const std::array<double, 3>& t) { return std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]); };
  EXPECT_LT(relative(norm(ours.calibration.T), norm(shipped.T)), 0.01);
  EXPECT_LE(ours.report.epipolar_mean_px, 0.5);
}

}  // namespace
}  // namespace sv
