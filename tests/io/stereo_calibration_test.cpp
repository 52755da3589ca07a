// Calibration files written by the test with cv::FileStorage, in both OpenCV layouts and both
// syntaxes (YAML, XML), read back; size fitting (scaled when a whole multiple, refused otherwise);
// what Q says about depth. Files that cannot be calibrations (a FIFO, a device, a huge or deeply
// nested file) and values no camera has (NaN, zero focal length, a non-rotation...) are refused
// naming the entry (issue 24). The two-file form of OpenCV's stereo_calib sample and files
// without an image size (issue 17).
#include "src/io/stereo_calibration.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
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
    cv::FileStorage fs(dir + "/k1only.yaml", cv::FileStorage::WRITE);
    fs << "K1" << cv::Mat(kK1);
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/k1only.yaml"); }, {"found: K1)"});
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

// The calibration the tests spoil one entry of at a time.
struct CalibrationValues {
  cv::Mat K1 = cv::Mat(kK1), D1 = cv::Mat(kD1), K2 = cv::Mat(kK2), D2 = cv::Mat(kD2);
  cv::Mat R = cv::Mat(rotation()), T = cv::Mat(kT);

  void write(const std::string& path) const {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    fs << "image_width" << 320 << "image_height" << 240 << "K1" << K1 << "D1" << D1 << "K2" << K2
       << "D2" << D2 << "R" << R << "T" << T;
  }
};

// The message of the InputError that loading `values` gives ("" when it loads).
std::string load_error(const CalibrationValues& values) {
  const std::string path = fresh_dir("calib_values") + "/calib.yaml";
  values.write(path);
  try {
    load_stereo_calibration(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(StereoCalibration, NonFiniteValuesAreRefusedNamingTheEntry) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CalibrationValues v;
  v.K1.at<double>(0, 0) = nan;
  std::string error = load_error(v);
  EXPECT_TRUE(contains(error, "calib.yaml': K1 holds NaN (row 1, column 1)")) << error;
  v = CalibrationValues();
  v.T.at<double>(2) = inf;
  error = load_error(v);
  EXPECT_TRUE(contains(error, "T holds an infinity (row 3, column 1)")) << error;
  v = CalibrationValues();
  v.D2.at<double>(0, 3) = -inf;
  error = load_error(v);
  EXPECT_TRUE(contains(error, "D2 holds an infinity (row 1, column 4)")) << error;
  v = CalibrationValues();
  v.R.at<double>(1, 2) = nan;
  error = load_error(v);
  EXPECT_TRUE(contains(error, "R holds NaN")) << error;

  // In the rectification matrices too.
  const std::string dir = fresh_dir("calib_nan_q");
  write_rectification(dir + "/rect.yaml", 320, 240);
  Rectification r = rectify(320, 240);
  r.Q.at<double>(2, 3) = nan;
  {
    cv::FileStorage fs(dir + "/rect.yaml", cv::FileStorage::WRITE);
    fs << "image_size" << cv::Size(320, 240) << "R1" << r.R1 << "R2" << r.R2 << "P1" << r.P1
       << "P2" << r.P2 << "Q" << r.Q;
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/rect.yaml"); },
                    {"rect.yaml': Q holds NaN (row 3, column 4)"});
}

TEST(StereoCalibration, ValuesNoCameraHasAreRefusedNamingTheEntry) {
  struct Case {
    const char* what;
    std::function<void(CalibrationValues&)> spoil;
    std::vector<std::string> message;
  };
  const std::vector<Case> cases = {
      {"zero focal length", [](CalibrationValues& v) { v.K1.at<double>(0, 0) = 0; },
       {"K1 has no positive focal length (fx 0, fy 302)"}},
      {"negative focal length", [](CalibrationValues& v) { v.K2.at<double>(1, 1) = -304; },
       {"K2 has no positive focal length"}},
      {"not a camera matrix", [](CalibrationValues& v) { v.K2.at<double>(2, 2) = 0; },
       {"K2 is not a camera matrix"}},
      {"scaled rotation", [](CalibrationValues& v) { v.R *= 2.0; },
       {"R is not a rotation: R R^T differs from the identity by 3"}},
      {"reflection", [](CalibrationValues& v) { v.R = cv::Mat(cv::Matx33d(1, 0, 0, 0, 1, 0, 0, 0, -1)); },
       {"R is a reflection"}},
      {"zero baseline", [](CalibrationValues& v) { v.T = cv::Mat::zeros(3, 1, CV_64F); },
       {"T is zero", "no baseline"}},
      {"K of the wrong shape", [](CalibrationValues& v) { v.K1 = cv::Mat::eye(3, 4, CV_64F); },
       {"K1 must be 3x3, got 3x4"}},
      {"T of four values", [](CalibrationValues& v) { v.T = cv::Mat::ones(4, 1, CV_64F); },
       {"T must be 3x1, got 4x1"}},
      {"three distortion terms", [](CalibrationValues& v) { v.D1 = cv::Mat::zeros(1, 3, CV_64F); },
       {"D1 must be a vector of 4, 5, 8, 12 or 14"}},
      {"distortion as a matrix", [](CalibrationValues& v) { v.D2 = cv::Mat::zeros(2, 7, CV_64F); },
       {"D2 must be a vector", "got 2x7"}},
      {"three channels", [](CalibrationValues& v) { v.T = cv::Mat(1, 1, CV_64FC3, cv::Scalar(1, 2, 3)); },
       {"T must be a single-channel matrix"}},
      {"principal point outside the image", [](CalibrationValues& v) { v.K2.at<double>(0, 2) = 700; },
       {"is for 320x240 images, but the principal point of K2, (700, 118), lies outside them"}},
      {"1e300 baseline", [](CalibrationValues& v) { v.T.at<double>(0) = -1e300; },
       {"T gives a baseline of 1e+300, longer than any camera pair's (at most 100000 in the "
        "file's unit, 100 m in millimetres)"}},
      {"200 m baseline in mm", [](CalibrationValues& v) { v.T.at<double>(0) = -2e5; },
       {"T gives a baseline of 200000"}},
  };
  for (const Case& c : cases) {
    CalibrationValues v;
    c.spoil(v);
    const std::string error = load_error(v);
    for (const std::string& part : c.message) {
      EXPECT_TRUE(contains(error, part)) << c.what << ": " << (error.empty() ? "loaded" : error);
    }
  }

  // Rectification matrices: a zero-baseline P2, a P1 without focal length, a Q of no form.
  const Rectification good = rectify(320, 240);
  const std::string dir = fresh_dir("calib_bad_rect");
  const auto rect_error = [&](const std::function<void(Rectification&)>& spoil) -> std::string {
    Rectification r{good.R1.clone(), good.R2.clone(), good.P1.clone(), good.P2.clone(), good.Q.clone()};
    spoil(r);
    {
      cv::FileStorage fs(dir + "/rect.yaml", cv::FileStorage::WRITE);
      fs << "image_size" << cv::Size(320, 240) << "R1" << r.R1 << "R2" << r.R2 << "P1" << r.P1
         << "P2" << r.P2 << "Q" << r.Q;
    }
    try {
      load_stereo_calibration(dir + "/rect.yaml");
    } catch (const InputError& e) {
      return e.what();
    }
    return "loaded";
  };
  std::string error = rect_error([](Rectification& r) { r.P2.at<double>(0, 3) = 0; });
  EXPECT_TRUE(contains(error, "P2 puts the second camera onto the first")) << error;
  error = rect_error([](Rectification& r) { r.P1.at<double>(0, 0) = 0; });
  EXPECT_TRUE(contains(error, "P1 has no positive focal length")) << error;
  error = rect_error([](Rectification& r) { r.Q = cv::Mat::zeros(4, 4, CV_64F); });
  EXPECT_TRUE(contains(error, "Q is not a disparity-to-depth matrix")) << error;
  error = rect_error([](Rectification& r) { r.R2 = cv::Mat::eye(3, 3, CV_64F) * 0.5; });
  EXPECT_TRUE(contains(error, "R2 is not a rotation")) << error;
  error = rect_error([](Rectification& r) { r.P2.at<double>(0, 3) *= 1e300; });
  EXPECT_TRUE(contains(error, "P2 gives a baseline of")) << error;
  error = rect_error([](Rectification& r) { r.Q.at<double>(3, 2) *= 1e-300; });
  EXPECT_TRUE(contains(error, "Q gives a baseline of")) << error;

  // Image sizes that are no sizes.
  const auto size_error = [&](const std::string& text) -> std::string {
    std::ofstream(dir + "/size.yaml") << "%YAML:1.0\n---\n" << text;
    try {
      load_stereo_calibration(dir + "/size.yaml");
    } catch (const InputError& e) {
      return e.what();
    }
    return "loaded";
  };
  error = size_error("image_width: 320\n");
  EXPECT_TRUE(contains(error, "image_width is given without its partner")) << error;
  error = size_error("image_width: -320\nimage_height: 240\n");
  EXPECT_TRUE(contains(error, "image_width must hold image sides in whole pixels (1..65536), got -320"))
      << error;
  error = size_error("image_size: [ 320.5, 240 ]\n");
  EXPECT_TRUE(contains(error, "image_size must hold image sides in whole pixels")) << error;
  error = size_error("image_size: [ 320, 240, 3 ]\n");
  EXPECT_TRUE(contains(error, "image_size must be [width, height], got 3 values")) << error;
}

// The error of loading the test's calibration written as text, with the first `from` in it
// replaced by `to` ("loaded" when it loads).
std::string spoiled_text_error(const std::string& name, const std::string& from,
                               const std::string& to) {
  const std::string path = fresh_dir("calib_text") + "/" + name;
  CalibrationValues().write(path);
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const size_t at = text.find(from);
  if (at == std::string::npos) return "the written file holds no " + from;
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::trunc) << text;
  try {
    load_stereo_calibration(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "loaded";
}

// A matrix's rows and cols are checked against the values its file holds before anything is
// allocated (issue 47): cv::read allocated the declared size first, 48 GB for "cols: true" (read
// as INT_MAX), and an integer dt rounded or clipped the values it was given.
TEST(StereoCalibration, DeclaredMatrixSizesAndTypesAreCheckedAgainstTheirData) {
  struct Case {
    const char* name;
    const char* from;
    const char* to;
    const char* message;
  };
  const Case cases[] = {
      {"calib.yaml", "cols: 3", "cols: true",
       "calib.yaml': K1 declares cols 'true': not a positive whole number"},
      {"calib.yaml", "rows: 3", "rows: 100000", "K1 declares 100000x3 values but its data holds 9"},
      {"calib.yaml", "rows: 3", "rows: -3", "K1 declares rows -3: not a positive whole number"},
      {"calib.yaml", "rows: 3\n   cols: 3", "sizes: [ 100000, 100000, 100000 ]",
       "K1 is not a matrix (a list of numbers, or rows, cols, dt and data)"},
      {"calib.yaml", "dt: d", "dt: q", "K1 has dt 'q', not an OpenCV element type"},
      {"calib.yaml", "dt: d", "dt: u", "K1 has dt 'u' (whole numbers from 0 to 255) but holds 300"},
      {"calib.yaml", "dt: d", "dt: i",
       "K1 has dt 'i' (whole numbers from -2147483648 to 2147483647) but holds 158.5 (row 1, "
       "column 3): write it with dt: d"},
      {"calib.xml", "<cols>3</cols>", "<cols>true</cols>", "K1 declares cols 'true'"},
      {"calib.xml", "<rows>3</rows>", "<rows>2147483647</rows>",
       "K1 declares 2147483647x3 values but its data holds 9"},
      {"calib.xml", "<dt>d</dt>", "<dt>w</dt>",
       "K1 has dt 'w' (whole numbers from 0 to 65535) but holds 158.5"},
  };
  for (const Case& c : cases) {
    const std::string error = spoiled_text_error(c.name, c.from, c.to);
    EXPECT_TRUE(contains(error, c.message)) << c.name << " with " << c.to << ": " << error;
  }
  // Whole numbers under an integer dt load as they are.
  CalibrationValues whole;
  cv::Mat(cv::Matx33d(300, 0, 158, 0, 302, 121, 0, 0, 1)).convertTo(whole.K1, CV_32S);
  const std::string path = fresh_dir("calib_whole") + "/calib.yaml";
  whole.write(path);
  const StereoCalibration c = load_stereo_calibration(path);
  EXPECT_DOUBLE_EQ(c.K1[2], 158.0);
  EXPECT_DOUBLE_EQ(c.K1[4], 302.0);
}

// Anything after a NUL byte went unread (OpenCV's parser stops there): such a file is refused.
TEST(StereoCalibration, ANulByteIsRefused) {
  const std::string path = fresh_dir("calib_nul") + "/calib.yaml";
  CalibrationValues().write(path);
  std::ofstream(path, std::ios::app) << std::string("\0T: [ 1e300, 0, 0 ]\n", 20);
  expect_error_with([&] { load_stereo_calibration(path); },
                    {"calib.yaml' holds a NUL byte (at byte ", "): not a text file"});
}

TEST(StereoCalibration, FilesThatCannotBeCalibrationsAreRefusedWithoutHanging) {
  const std::string dir = fresh_dir("calib_files");
  const auto started = std::chrono::steady_clock::now();
  // A FIFO with no writer: opening it to read would wait for one.
  ASSERT_EQ(mkfifo((dir + "/fifo.yml").c_str(), 0600), 0);
  expect_error_with([&] { load_stereo_calibration(dir + "/fifo.yml"); },
                    {"fifo.yml': a FIFO (named pipe), not a regular file"});
  // A device that never ends.
  expect_error_with([&] { load_stereo_calibration("/dev/zero"); },
                    {"'/dev/zero': a character device, not a regular file"});
  // A file far larger than a calibration: refused before FileStorage reads it all.
  {
    std::ofstream big(dir + "/big.yml");
    big << "%YAML:1.0\n---\nimage_width: 320\nimage_height: 240\nnoise: [";
    const std::string chunk(1 << 16, ' ');
    for (int i = 0; i < 160; ++i) big << chunk;  // 10 MiB
    big << "1 ]\n";
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/big.yml"); },
                    {"big.yml': it holds 10.0 MiB, more than the 8.0 MiB such a file can have"});
  // Nesting deep enough to overflow the parser's stack.
  std::ofstream(dir + "/deep.yml") << "%YAML:1.0\n---\nK1: " << std::string(100000, '[')
                                   << std::string(100000, ']') << "\n";
  expect_error_with([&] { load_stereo_calibration(dir + "/deep.yml"); },
                    {"deep.yml' nests 100000 levels deep"});
  std::string xml = "<?xml version=\"1.0\"?>\n<opencv_storage>\n";
  for (int i = 0; i < 50000; ++i) xml += "<a>";
  for (int i = 0; i < 50000; ++i) xml += "</a>";
  std::ofstream(dir + "/deep.xml") << xml << "</opencv_storage>\n";
  expect_error_with([&] { load_stereo_calibration(dir + "/deep.xml"); },
                    {"deep.xml' nests 50001 levels deep"});
  // Nesting hidden behind a quote or a comment sign still counts; self-closing elements do not.
  std::ofstream(dir + "/hidden.yml") << "%YAML:1.0\n---\nnote: it's # \"" << std::string(100, '[')
                                     << "\n";
  expect_error_with([&] { load_stereo_calibration(dir + "/hidden.yml"); }, {"nests 100 levels deep"});
  xml = "<?xml version=\"1.0\"?>\n<opencv_storage>\n";
  for (int i = 0; i < 200; ++i) xml += "<a/>";
  std::ofstream(dir + "/flat.xml") << xml << "</opencv_storage>\n";
  expect_error_with([&] { load_stereo_calibration(dir + "/flat.xml"); },
                    {"flat.xml': not an OpenCV YAML/XML/JSON file"});  // OpenCV's own refusal
  // An XML file cut inside a tag, after an attribute's '=': OpenCV's parser read past the end
  // (a segmentation fault, found by scripts/fuzz_inputs.py).
  for (const char* end : {"<R1 type_id=", "<R1 type_id= \n", "<R1"}) {
    std::ofstream(dir + "/cut.xml") << "<?xml version=\"1.0\"?>\n<opencv_storage>\n" << end;
    expect_error_with([&] { load_stereo_calibration(dir + "/cut.xml"); },
                      {"cut.xml' ends inside an XML tag"});
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

// OpenCV's stereo_calib sample: intrinsics.yml (M1 D1 M2 D2) and extrinsics.yml (R T R1 R2 P1
// P2 Q), no image size.
std::string write_stereo_calib_pair(const std::string& dir) {
  const Rectification r = rectify(320, 240);
  {
    cv::FileStorage fs(dir + "/intrinsics.yml", cv::FileStorage::WRITE);
    fs << "M1" << cv::Mat(kK1) << "D1" << cv::Mat(kD1) << "M2" << cv::Mat(kK2) << "D2" << cv::Mat(kD2);
  }
  {
    cv::FileStorage fs(dir + "/extrinsics.yml", cv::FileStorage::WRITE);
    fs << "R" << cv::Mat(rotation()) << "T" << cv::Mat(kT) << "R1" << r.R1 << "R2" << r.R2
       << "P1" << r.P1 << "P2" << r.P2 << "Q" << r.Q;
  }
  return dir + "/intrinsics.yml," + dir + "/extrinsics.yml";
}

TEST(StereoCalibration, TwoFilesOrTheirFolderReadAsOne) {
  const std::string dir = fresh_dir("calib_two_files");
  const std::string pair = write_stereo_calib_pair(dir);
  for (const std::string& spec : {pair, dir, dir + "/"}) {
    const StereoCalibration c = load_stereo_calibration(spec);
    EXPECT_TRUE(c.has_intrinsics && c.has_extrinsics && c.has_rectification) << spec;
    EXPECT_EQ(c.width, 0) << "no image size in either file";
    EXPECT_DOUBLE_EQ(c.K2[2], 163.0);
    EXPECT_DOUBLE_EQ(c.T[0], -0.1);
    EXPECT_TRUE(contains(c.path, "intrinsics.yml + ")) << c.path;
    EXPECT_TRUE(contains(c.path, "extrinsics.yml")) << c.path;
  }
  // An entry in both files must be the same in both; a problem names the file that has it.
  {
    cv::FileStorage fs(dir + "/other.yml", cv::FileStorage::WRITE);
    fs << "M1" << cv::Mat(kK2) << "T" << cv::Mat(cv::Vec3d(0, 0, 0));
  }
  expect_error_with([&] { load_stereo_calibration(pair + "," + dir + "/other.yml"); },
                    {"M1 differs between", "intrinsics.yml' and '", "other.yml'"});
  {
    cv::FileStorage fs(dir + "/same.yml", cv::FileStorage::WRITE);
    fs << "M1" << cv::Mat(kK1) << "image_width" << 320 << "image_height" << 240;
  }
  EXPECT_EQ(load_stereo_calibration(pair + "," + dir + "/same.yml").width, 320);
  {
    cv::FileStorage fs(dir + "/nan.yml", cv::FileStorage::WRITE);
    fs << "M1" << cv::Mat(kK1) << "D1" << cv::Mat(kD1) << "M2" << cv::Mat(kK2) << "D2"
       << cv::Mat(cv::Matx<double, 1, 4>(0, std::numeric_limits<double>::quiet_NaN(), 0, 0));
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/nan.yml," + dir + "/extrinsics.yml"); },
                    {"nan.yml': D2 holds NaN"});
  expect_error_with([&] { load_stereo_calibration(dir + "/intrinsics.yml,,x.yml"); },
                    {"an empty file name in the list"});
  expect_error_with([&] { load_stereo_calibration(dir + "/intrinsics.yml," + dir + "/gone.yml"); },
                    {"gone.yml': no such file"});

  // A folder with one calibration file reads it; one with several or none says what it holds.
  const std::string single = fresh_dir("calib_single");
  write_intrinsics_extrinsics(single + "/rig.yaml", 320, 240);
  EXPECT_EQ(load_stereo_calibration(single).width, 320);
  const std::string several = fresh_dir("calib_several");
  write_intrinsics_extrinsics(several + "/a.yaml", 320, 240);
  write_intrinsics_extrinsics(several + "/b.xml", 320, 240);
  expect_error_with([&] { load_stereo_calibration(several); },
                    {"holds no intrinsics.yml and extrinsics.yml (but a.yaml, b.xml)", "--calib A,B"});
  expect_error_with([&] { load_stereo_calibration(fresh_dir("calib_empty")); },
                    {"no .yml, .yaml, .xml, .json or .conf file at all"});
}

TEST(StereoCalibration, AMissingSizeIsTheSourcesWhenThePrincipalPointsFitIt) {
  const std::string dir = fresh_dir("calib_no_size");
  const StereoCalibration c = load_stereo_calibration(write_stereo_calib_pair(dir));
  ASSERT_EQ(c.width, 0);
  const StereoCalibration fitted = fit_calibration_to_size(c, 320, 240);
  EXPECT_EQ(fitted.width, 320);
  EXPECT_EQ(fitted.height, 240);
  EXPECT_EQ(fitted.K1, c.K1);  // taken, not scaled
  EXPECT_EQ(fitted.P2, c.P2);
  // Near the size still fits (nothing tells them apart); twice or half the size does not.
  EXPECT_EQ(fit_calibration_to_size(c, 336, 256).width, 336);
  expect_error_with([&] { fit_calibration_to_size(c, 640, 480); },
                    {"does not give the image size it was made for", "640x480 does not fit it",
                     "principal point of K1, (158.5, 121.25), lies far from the image centre "
                     "(319.5, 239.5)",
                     "add image_width and image_height"});
  expect_error_with([&] { fit_calibration_to_size(c, 160, 120); }, {"160x120", "K1"});

  // Without camera matrices, the rectified cameras and the valid ROIs speak.
  const Rectification r = rectify(320, 240);
  {
    cv::FileStorage fs(dir + "/rect.yml", cv::FileStorage::WRITE);
    fs << "R1" << r.R1 << "R2" << r.R2 << "P1" << r.P1 << "P2" << r.P2 << "Q" << r.Q;
    fs << "ValidRoi1" << cv::Rect(4, 3, 300, 230) << "ValidRoi2" << cv::Rect(10, 2, 305, 236);
  }
  const StereoCalibration rect = load_stereo_calibration(dir + "/rect.yml");
  ASSERT_TRUE(rect.has_valid_rois);
  EXPECT_EQ(rect.valid_roi2.width, 305);
  EXPECT_EQ(fit_calibration_to_size(rect, 320, 240).width, 320);
  expect_error_with([&] { fit_calibration_to_size(rect, 312, 240); },
                    {"ValidRoi2 (x 10, y 2, 305x236) reaches outside the image"});
  expect_error_with([&] { fit_calibration_to_size(rect, 100, 100); },
                    {"the principal point of P1", "lies outside the image"});
  // A stated size is checked against the ROIs as well.
  {
    cv::FileStorage fs(dir + "/rect_sized.yml", cv::FileStorage::WRITE);
    fs << "image_size" << cv::Size(300, 240) << "R1" << r.R1 << "R2" << r.R2 << "P1" << r.P1
       << "P2" << r.P2 << "Q" << r.Q << "ValidRoi1" << cv::Rect(4, 3, 300, 230) << "ValidRoi2"
       << cv::Rect(0, 0, 10, 10);
  }
  expect_error_with([&] { load_stereo_calibration(dir + "/rect_sized.yml"); },
                    {"is for 300x240 images, but ValidRoi1 (x 4, y 3, 300x230) reaches outside"});
}

}  // namespace
}  // namespace sv
