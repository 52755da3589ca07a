// Depth from a calibration (issue 39, wrong numbers 1 and 2): the focal length, baseline and Q
// used for depth are those of the rectified views (stereoRectify's P at the source's size, not
// K nor a stale P in the file), in metres whatever unit the calibration's T is written in; a
// baseline no stereo rig has is warned about with the unit that would fit, and an unknown unit
// that gives one is never labelled as metres.
#include "src/io/depth_geometry.h"

#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/app/recording_setup.h"
#include "src/core/error.h"
#include "src/io/calibration_writer.h"
#include "tests/io/io_test_support.h"
#ifdef STEREOVIEW_TEST_HAS_VIEWER
#include "src/app/source_factory.h"
#include "ui/source_choice.h"
#endif

namespace sv {
namespace {

constexpr int kWidth = 640;
constexpr int kHeight = 480;
// The README's ximea rig, roughly: 518 px lenses, 92 mm apart, turned a few degrees.
const cv::Matx33d kK1(518.05, 0, 313.9, 0, 518.05, 249.4, 0, 0, 1);
const cv::Matx33d kK2(518.05, 0, 327.6, 0, 518.05, 261.5, 0, 0, 1);
const cv::Matx<double, 1, 5> kD(-0.06, 0.08, 0, 0, -0.14);
const cv::Vec3d kTmm(-91.2, 2.65, -12.2);

cv::Matx33d rotation() {
  cv::Matx33d R;
  cv::Rodrigues(cv::Vec3d(0.026, -0.058, 0.036), R);
  return R;
}

// K1 D1 K2 D2 R T with T in millimetres, `unit_entry` as its translation_unit ("" for none),
// and a stale R1 R2 P1 P2 Q of another rectification (alpha 1), as OpenCV's stereo_calib writes.
std::string write_rig(const std::string& unit_entry, bool with_size = true) {
  const std::string path = test::fresh_dir("depth_geometry") + "/rig.yml";
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  if (with_size) fs << "image_width" << kWidth << "image_height" << kHeight;
  fs << "K1" << cv::Mat(kK1) << "D1" << cv::Mat(kD) << "K2" << cv::Mat(kK2) << "D2" << cv::Mat(kD);
  fs << "R" << cv::Mat(rotation()) << "T" << cv::Mat(kTmm);
  cv::Mat R1, R2, P1, P2, Q;
  cv::stereoRectify(kK1, kD, kK2, kD, cv::Size(kWidth, kHeight), rotation(), kTmm, R1, R2, P1, P2,
                    Q, cv::CALIB_ZERO_DISPARITY, 1.0);
  fs << "R1" << R1 << "R2" << R2 << "P1" << P1 << "P2" << P2 << "Q" << Q;
  if (!unit_entry.empty()) fs << "translation_unit" << unit_entry;
  return path;
}

// The plane's truth: the rectified cameras OpenCV gives this rig at alpha 0 (what the sources
// rectify with), and the disparity of a fronto-parallel plane at `depth_m` in them.
struct RectifiedPlane {
  double focal_px = 0.0;
  double baseline_m = 0.0;
  double disparity_px = 0.0;
};

RectifiedPlane plane_at(double depth_m) {
  cv::Mat R1, R2, P1, P2, Q;
  cv::stereoRectify(kK1, kD, kK2, kD, cv::Size(kWidth, kHeight), rotation(), kTmm, R1, R2, P1, P2,
                    Q, cv::CALIB_ZERO_DISPARITY, 0.0);
  RectifiedPlane plane;
  plane.focal_px = P1.at<double>(0, 0);
  plane.baseline_m = std::fabs(P2.at<double>(0, 3) / P2.at<double>(0, 0)) * 0.001;
  plane.disparity_px = plane.focal_px * plane.baseline_m / depth_m;
  return plane;
}

CliOptions cli_options(const std::string& calib, std::optional<LengthUnit> unit) {
  CliOptions options;
  options.source = "files";
  options.calib_path = calib;
  options.calib_unit = unit;
  return options;
}

TEST(DepthGeometry, AKnownPlaneIsAtItsDepthInMetresThroughTheRectifiedCameras) {
  const RectifiedPlane plane = plane_at(0.5);
  // The rectified focal length is neither K's nor the file's stale P's.
  ASSERT_GT(std::fabs(plane.focal_px - kK1(0, 0)), 20.0);
  const std::string file_unit = write_rig("mm");
  const std::string stated_unit = write_rig("");
  std::vector<std::string> notes;
  const NoticeSink notices = [&](const std::string& m) { notes.push_back(m); };

  // The CLI's (a recording's sidecar, its clouds): the file's unit, or --calib-unit.
  for (const CliOptions& options :
       {cli_options(file_unit, std::nullopt), cli_options(stated_unit, LengthUnit::kMillimetre)}) {
    const std::optional<StereoGeometry> g = stereo_geometry_for(options, kWidth, kHeight, notices);
    ASSERT_TRUE(g) << options.calib_path;
    EXPECT_NEAR(g->focal_length_px, plane.focal_px, 1e-6);
    EXPECT_NEAR(g->baseline, plane.baseline_m, 1e-9);
    EXPECT_NEAR(g->depth(plane.disparity_px), 0.5, 1e-9);
  }
  // The viewer's and Python's: the same geometry with its Q, whose reprojection gives metres.
  const DepthGeometry depth = rectified_depth_geometry(file_unit, std::nullopt, kWidth, kHeight,
                                                       0.0, false);
  const double x = 100.0, y = 50.0, d = plane.disparity_px;
  const Matrix4& Q = depth.Q;
  const double w = Q[12] * x + Q[13] * y + Q[14] * d + Q[15];
  EXPECT_NEAR((Q[8] * x + Q[9] * y + Q[10] * d + Q[11]) / w, 0.5, 1e-9);
  EXPECT_TRUE(notes.empty()) << notes.front();
}

#ifdef STEREOVIEW_TEST_HAS_VIEWER
// The viewer's colour bar, readout and 3D view take their depth from the source it opens.
TEST(DepthGeometry, TheViewersSourceGivesTheKnownPlaneItsDepth) {
  const RectifiedPlane plane = plane_at(0.5);
  const std::string calib = write_rig("mm");
  const std::string dir = test::fresh_dir("depth_geometry_viewer");
  cv::imwrite(dir + "/left.png", test::flat_frame(kWidth, kHeight, 90));
  cv::imwrite(dir + "/right.png", test::flat_frame(kWidth, kHeight, 90));
  const SourceChoice choice = source_choice_from_cli(parse_source_flags(
      {"--left", dir + "/left.png", "--right", dir + "/right.png", "--calib", calib}));
  const OpenedSource opened = open_source(choice, SyntheticSceneConfig{}, {});
  ASSERT_TRUE(opened.geometry);
  EXPECT_NEAR(opened.geometry->focal_length_px, plane.focal_px, 1e-6);
  EXPECT_NEAR(opened.geometry->depth(plane.disparity_px), 0.5, 1e-9);
  EXPECT_NE(opened.calibration_summary.find(" m from "), std::string::npos)
      << opened.calibration_summary;
}
#endif

TEST(DepthGeometry, MillimetresWithoutAUnitAreNeverShownAsMetres) {
  const std::string path = write_rig("");
  const DepthGeometry depth = rectified_depth_geometry(path, std::nullopt, kWidth, kHeight, 0.0, false);
  EXPECT_FALSE(depth.geometry);
  // 92 "metres": millimetres (0.092 m) or centimetres (0.92 m) would fit; the flag is named.
  EXPECT_NE(depth.warning.find("which no stereo rig has"), std::string::npos) << depth.warning;
  EXPECT_NE(depth.warning.find("is its T in millimetres (0.09205 m) or centimetres (0.9205 m)?"),
            std::string::npos)
      << depth.warning;
  EXPECT_NE(depth.warning.find("--calib-unit mm|cm|m"), std::string::npos) << depth.warning;
  std::vector<std::string> notes;
  EXPECT_FALSE(stereo_geometry_for(cli_options(path, std::nullopt), kWidth, kHeight,
                                   [&](const std::string& m) { notes.push_back(m); }));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], depth.warning);
}

TEST(DepthGeometry, AStatedUnitThatGivesNoRigsBaselineIsWarnedAboutButKept) {
  // --calib-unit m on the millimetre file: 92 m, stated by the user, so kept with a warning.
  const DepthGeometry metres =
      rectified_depth_geometry(write_rig(""), LengthUnit::kMetre, kWidth, kHeight, 0.0, false);
  ASSERT_TRUE(metres.geometry);
  EXPECT_NEAR(metres.geometry->baseline, plane_at(1.0).baseline_m * 1000.0, 1e-6);
  EXPECT_NE(metres.warning.find("(--calib-unit)"), std::string::npos) << metres.warning;
  EXPECT_NE(metres.warning.find("millimetres (0.09205 m)"), std::string::npos) << metres.warning;
  // The flag wins over the file's own unit.
  const DepthGeometry stated =
      rectified_depth_geometry(write_rig("m"), LengthUnit::kMillimetre, kWidth, kHeight, 0.0, false);
  ASSERT_TRUE(stated.geometry);
  EXPECT_TRUE(stated.warning.empty()) << stated.warning;
  EXPECT_NEAR(stated.geometry->baseline, plane_at(1.0).baseline_m, 1e-9);
}

TEST(DepthGeometry, AMetreCalibrationWithoutAUnitIsTakenInMetres) {
  StereoCalibration c;
  c.path = "metres.yml";
  // stereoRectify's Q of a 0.12 m rig at 700 px.
  const Matrix4 Q{1, 0, 0, -320, 0, 1, 0, -240, 0, 0, 0, 700, 0, 0, 1.0 / 0.12, 0};
  const DepthGeometry depth = metric_depth_geometry(Q, c, std::nullopt);
  ASSERT_TRUE(depth.geometry);
  EXPECT_TRUE(depth.warning.empty()) << depth.warning;
  EXPECT_NEAR(depth.geometry->baseline, 0.12, 1e-12);
  EXPECT_NEAR(depth.geometry->depth(84.0), 1.0, 1e-12);
  // A 0.5 mm "baseline" in millimetres is none either: metres would fit, so the message says so.
  const Matrix4 tiny{1, 0, 0, -320, 0, 1, 0, -240, 0, 0, 0, 700, 0, 0, 1.0 / 0.5, 0};
  c.translation_unit = LengthUnit::kMillimetre;
  const DepthGeometry small = metric_depth_geometry(tiny, c, std::nullopt);
  EXPECT_NE(small.warning.find("(its translation_unit)"), std::string::npos) << small.warning;
  EXPECT_NE(small.warning.find("centimetres (0.005 m) or metres (0.5 m)?"), std::string::npos)
      << small.warning;
}

TEST(DepthGeometry, TheUnitIsReadFromTheFileAndWrittenByTheCalibrationWriter) {
  const StereoCalibration read = load_stereo_calibration(write_rig("cm"));
  ASSERT_TRUE(read.translation_unit);
  EXPECT_EQ(*read.translation_unit, LengthUnit::kCentimetre);
  EXPECT_FALSE(load_stereo_calibration(write_rig("")).translation_unit);
  const std::string dir = test::fresh_dir("depth_geometry_writer");
  StereoCalibration made = read;
  made.translation_unit = LengthUnit::kMetre;
  write_calibration_file(dir + "/made.yaml", stereo_calibration_yaml(made), false);
  const StereoCalibration again = load_stereo_calibration(dir + "/made.yaml");
  ASSERT_TRUE(again.translation_unit);
  EXPECT_EQ(*again.translation_unit, LengthUnit::kMetre);
  // Anything but mm, cm or m is refused, naming the entry.
  try {
    load_stereo_calibration(write_rig("inches"));
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("translation_unit must be mm, cm or m, got 'inches'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sv
