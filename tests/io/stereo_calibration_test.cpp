// Calibration files written by the test with cv::FileStorage, in both OpenCV layouts and both
// syntaxes (YAML, XML), read back; size fitting (scaled when a whole multiple, refused otherwise);
// what Q says about depth.
#include "src/io/stereo_calibration.h"

#include <gtest/gtest.h>

#include <fstream>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "src/core/error.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using test::fresh_dir;

const cv::Matx33d kK1(300, 0, 158.5, 0, 302, 121.25, 0, 0, 1);
const cv::Matx33d kK2(305, 0, 163, 0, 304, 118, 0, 0, 1);
const cv::Matx<double, 1, 5> kD1(-0.12, 0.03, 0.001, -0.0008, 0.0);
const cv::Matx<double, 1, 5> kD2(-0.10, 0.02, -0.0005, 0.001, 0.0);
const cv::Vec3d kT(-0.1, 0.003, 0.002);

cv::Matx33d rotation() {
  cv::Matx33d R;
  cv::Rodrigues(cv::Vec3d(0.02, -0.03, 0.015), R);
  return R;
}

void write_intrinsics_extrinsics(const std::string& path, int w, int h, bool aliases = false) {
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  ASSERT_TRUE(fs.isOpened());
  if (aliases) {
    fs << "image_size" << cv::Size(w, h) << "M1" << cv::Mat(kK1) << "D1" << cv::Mat(kD1)
       << "M2" << cv::Mat(kK2) << "D2" << cv::Mat(kD2);
  } else {
    fs << "image_width" << w << "image_height" << h << "K1" << cv::Mat(kK1) << "D1"
       << cv::Mat(kD1) << "K2" << cv::Mat(kK2) << "D2" << cv::Mat(kD2);
  }
  fs << "R" << cv::Mat(rotation()) << "T" << cv::Mat(kT);
}

struct Rectification {
  cv::Mat R1, R2, P1, P2, Q;
};

Rectification rectify(int w, int h) {
  Rectification r;
  cv::stereoRectify(kK1, kD1, kK2, kD2, cv::Size(w, h), rotation(), kT, r.R1, r.R2, r.P1, r.P2,
                    r.Q, cv::CALIB_ZERO_DISPARITY, 0.0);
  return r;
}

void write_rectification(const std::string& path, int w, int h) {
  const Rectification r = rectify(w, h);
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  ASSERT_TRUE(fs.isOpened());
  fs << "image_size" << cv::Size(w, h) << "R1" << r.R1 << "R2" << r.R2 << "P1" << r.P1 << "P2"
     << r.P2 << "Q" << r.Q;
}

void expect_error_with(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    for (const auto& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  }
}

TEST(StereoCalibration, IntrinsicsAndExtrinsicsFromYamlAndXml) {
  const std::string dir = fresh_dir("calib_kdrt");
  for (const std::string name : {"/calib.yaml", "/calib.xml", "/aliases.yml"}) {
    write_intrinsics_extrinsics(dir + name, 320, 240, name == "/aliases.yml");
    const StereoCalibration c = load_stereo_calibration(dir + name);
    EXPECT_EQ(c.width, 320) << name;
    EXPECT_EQ(c.height, 240) << name;
    ASSERT_TRUE(c.has_intrinsics && c.has_extrinsics) << name;
    EXPECT_FALSE(c.has_rectification);
    EXPECT_DOUBLE_EQ(c.K1[0], 300.0);
    EXPECT_DOUBLE_EQ(c.K1[2], 158.5);
    EXPECT_DOUBLE_EQ(c.K1[5], 121.25);
    EXPECT_DOUBLE_EQ(c.K2[2], 163.0);
    ASSERT_EQ(c.D1.size(), 5u);
    EXPECT_DOUBLE_EQ(c.D1[0], -0.12);
    EXPECT_DOUBLE_EQ(c.D2[3], 0.001);
    const cv::Matx33d R = rotation();
    for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(c.R[i], R.val[i]) << i;
    EXPECT_DOUBLE_EQ(c.T[0], -0.1);
    EXPECT_DOUBLE_EQ(c.T[2], 0.002);
  }
}

TEST(StereoCalibration, RectificationMatricesFromXmlAndYaml) {
  const std::string dir = fresh_dir("calib_r1p1");
  const Rectification r = rectify(320, 240);
  for (const std::string name : {"/rect.xml", "/rect.yaml"}) {
    write_rectification(dir + name, 320, 240);
    const StereoCalibration c = load_stereo_calibration(dir + name);
    EXPECT_FALSE(c.has_intrinsics);
    ASSERT_TRUE(c.has_rectification) << name;
    for (int i = 0; i < 12; ++i) EXPECT_DOUBLE_EQ(c.P2[i], r.P2.at<double>(i / 4, i % 4)) << i;
    for (int i = 0; i < 16; ++i) EXPECT_DOUBLE_EQ(c.Q[i], r.Q.at<double>(i / 4, i % 4)) << i;
    for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(c.R1[i], r.R1.at<double>(i / 3, i % 3)) << i;
  }
}

TEST(StereoCalibration, MissingOrIncompleteFilesAreExplained) {
  const std::string dir = fresh_dir("calib_errors");
  expect_error_with([&] { load_stereo_calibration(dir + "/none.yaml"); }, {"none.yaml", "no such file"});
  std::ofstream(dir + "/text.yaml") << "this is: [not, {valid yaml\n";
  expect_error_with([&] { load_stereo_calibration(dir + "/text.yaml"); }, {"text.yaml"});
  {
    cv::FileStorage fs(dir + "/partial.yaml", cv::FileStorage::WRITE);
    fs << "image_width" << 320 << "image_height" << 240 << "K1" << cv::Mat(kK1) << "T" << cv::Mat(kT);
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/partial.yaml"); },
                    {"neither K1 D1 K2 D2 R T nor R1 R2 P1 P2 Q", "found: K1 T"});
  {
    cv::FileStorage fs(dir + "/nosize.yaml", cv::FileStorage::WRITE);
    fs << "K1" << cv::Mat(kK1);
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/nosize.yaml"); }, {"image size"});
  {
    cv::FileStorage fs(dir + "/shape.yaml", cv::FileStorage::WRITE);
    fs << "image_size" << cv::Size(320, 240) << "K1" << cv::Mat::eye(2, 3, CV_64F) << "D1"
       << cv::Mat(kD1) << "K2" << cv::Mat(kK2) << "D2" << cv::Mat(kD2);
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/shape.yaml"); }, {"K1 must be 3x3, got 2x3"});
}

TEST(StereoCalibration, WholeMultiplesAreScaledOtherSizesRefused) {
  const std::string dir = fresh_dir("calib_sizes");
  write_intrinsics_extrinsics(dir + "/kdrt.yaml", 320, 240);
  const StereoCalibration c = load_stereo_calibration(dir + "/kdrt.yaml");

  const StereoCalibration doubled = fit_calibration_to_size(c, 640, 480);
  EXPECT_DOUBLE_EQ(doubled.K1[0], 600.0);
  EXPECT_DOUBLE_EQ(doubled.K1[4], 604.0);
  EXPECT_DOUBLE_EQ(doubled.K1[2], (158.5 + 0.5) * 2 - 0.5);  // pixel centres stay aligned
  EXPECT_DOUBLE_EQ(doubled.K2[5], (118 + 0.5) * 2 - 0.5);
  EXPECT_EQ(doubled.D1, c.D1);  // distortion is in normalized coordinates
  EXPECT_EQ(doubled.T, c.T);
  const StereoCalibration halved = fit_calibration_to_size(c, 160, 120);
  EXPECT_DOUBLE_EQ(halved.K1[0], 150.0);
  EXPECT_DOUBLE_EQ(halved.K1[2], (158.5 + 0.5) / 2 - 0.5);
  EXPECT_EQ(fit_calibration_to_size(c, 320, 240).K1, c.K1);

  expect_error_with([&] { fit_calibration_to_size(c, 300, 200); },
                    {"is for 320x240 images", "delivers 300x200", "kdrt.yaml"});
  expect_error_with([&] { fit_calibration_to_size(c, 480, 360); }, {"320x240", "480x360"});
  expect_error_with([&] { fit_calibration_to_size(c, 640, 240); }, {"640x240"});

  // Rectification matrices scale with the image, and Q still gives the same depth.
  write_rectification(dir + "/rect.yaml", 320, 240);
  const StereoCalibration r = load_stereo_calibration(dir + "/rect.yaml");
  const StereoCalibration r2 = fit_calibration_to_size(r, 640, 480);
  EXPECT_DOUBLE_EQ(r2.P1[0], 2 * r.P1[0]);
  EXPECT_DOUBLE_EQ(r2.P2[3], 2 * r.P2[3]);
  EXPECT_DOUBLE_EQ(r2.P1[2], (r.P1[2] + 0.5) * 2 - 0.5);
  const StereoGeometry g = geometry_from_q(r.Q);
  const StereoGeometry g2 = geometry_from_q(r2.Q);
  EXPECT_NEAR(g2.focal_length_px, 2 * g.focal_length_px, 1e-9);
  EXPECT_NEAR(g2.baseline, g.baseline, 1e-12);
  EXPECT_NEAR(g2.principal_x, (g.principal_x + 0.5) * 2 - 0.5, 1e-9);
  EXPECT_NEAR(g2.depth(2 * 20.0), g.depth(20.0), 1e-12);
}

TEST(StereoCalibration, GeometryFromQGivesFocalLengthBaselineAndDepth) {
  const Rectification r = rectify(320, 240);
  Matrix4 Q;
  for (int i = 0; i < 16; ++i) Q[i] = r.Q.at<double>(i / 4, i % 4);
  const StereoGeometry g = geometry_from_q(Q);
  EXPECT_NEAR(g.focal_length_px, r.P1.at<double>(0, 0), 1e-9);
  EXPECT_NEAR(g.baseline, cv::norm(kT), 1e-9);  // rectification turns the baseline onto x
  EXPECT_NEAR(g.disparity_offset_px, 0.0, 1e-9);  // ZERO_DISPARITY
  // A point at depth Z has disparity f B / Z.
  EXPECT_NEAR(g.depth(g.focal_length_px * g.baseline / 2.5), 2.5, 1e-9);
  Matrix4 not_q{};
  EXPECT_THROW(geometry_from_q(not_q), InputError);
}

}  // namespace
}  // namespace sv
