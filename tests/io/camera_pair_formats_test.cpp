// --calib reading the calibrations stereo cameras ship (issue 19): ROS camera_info pairs, Kalibr
// camchains, ASL sensor.yaml pairs, ZED .conf files, each into the model the OpenCV files give;
// and the fisheye model's rectification against cv::fisheye's own projection.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <set>
#include <sstream>

#include "src/core/error.h"
#include "src/io/stereo_calibration.h"
#include "src/io/stereo_rectifier.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

namespace fs = std::filesystem;
using Keys = std::set<std::string>;

fs::path shared_data_dir() {
  if (const char* v = std::getenv("STEREO_DATA_DIR")) return v;
  return STEREO_DATA_DIR_DEFAULT;
}

// A rig with every value awkward enough to catch a misplaced one, at a ZED resolution (HD).
struct Rig {
  int width = 1280, height = 720;
  double fx[2] = {702.5, 698.25}, fy[2] = {701.75, 699.5};
  double cx[2] = {645.125, 631.875}, cy[2] = {358.5, 366.25};
  std::vector<double> D[2] = {{-0.171, 0.0265, 0.00031, -0.00042},
                              {-0.168, 0.0249, -0.00027, 0.00018}};
  cv::Vec3d rotation{0.0031, 0.0067, -0.0013};  // Rodrigues: (RX, CV, RZ) in ZED's terms
  cv::Vec3d T{-0.11998, 0.00021, -0.00035};     // metres, X2 = R X1 + T

  cv::Matx33d K(int i) const { return {fx[i], 0, cx[i], 0, fy[i], cy[i], 0, 0, 1}; }
  cv::Matx33d R() const {
    cv::Matx33d r;
    cv::Rodrigues(rotation, r);
    return r;
  }
};

std::string list(const double* v, size_t n) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (size_t i = 0; i < n; ++i) out << (i ? ", " : "") << v[i];
  out << "]";
  return out.str();
}
std::string list(const std::vector<double>& v) { return list(v.data(), v.size()); }

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// Each writer leaves out the keys in `omit` (as "cam1.T_cn_cnm1", or "T_BS" at the top level).
std::string kalibr_text(const Rig& rig, const Keys& omit = {}, const char* distortion = "radtan") {
  std::ostringstream out;
  for (int i = 0; i < 2; ++i) {
    const std::string cam = "cam" + std::to_string(i);
    const auto line = [&](const char* key, const std::string& value) {
      if (!omit.count(cam + "." + key)) out << "  " << key << ": " << value << "\n";
    };
    out << cam << ":\n";
    if (i == 1 && !omit.count("cam1.T_cn_cnm1")) {
      const cv::Matx33d R = rig.R();
      out << "  T_cn_cnm1:\n";
      for (int r = 0; r < 3; ++r) {
        const double row[4] = {R(r, 0), R(r, 1), R(r, 2), rig.T[r]};
        out << "  - " << list(row, 4) << "\n";
      }
      out << "  - [0.0, 0.0, 0.0, 1.0]\n";
    }
    line("cam_overlaps", i == 0 ? "[1]" : "[0]");
    line("camera_model", "pinhole");
    line("distortion_coeffs", list(rig.D[i]));
    line("distortion_model", distortion);
    const double k[4] = {rig.fx[i], rig.fy[i], rig.cx[i], rig.cy[i]};
    line("intrinsics", list(k, 4));
    line("resolution", "[" + std::to_string(rig.width) + ", " + std::to_string(rig.height) + "]");
    line("rostopic", "/" + cam + "/image_raw");
  }
  return out.str();
}

// The ASL pair: the body frame is cam0's turned and moved somewhere, so that T_BS is not trivial.
std::string asl_text(const Rig& rig, int i, const Keys& omit = {}) {
  const cv::Matx44d body_from_cam0(0.0148655, -0.9998809, 0.0041403, -0.02164,  //
                                   0.9995572, 0.0149672, 0.0257155, -0.06468,    //
                                   -0.0257744, 0.0037562, 0.9996607, 0.00981,    //
                                   0, 0, 0, 1);
  // Orthonormalize the printed rotation so that the test's own numbers are a rigid transform.
  cv::Matx33d r0 = body_from_cam0.get_minor<3, 3>(0, 0);
  cv::Vec3d rv;
  cv::Rodrigues(r0, rv);
  cv::Rodrigues(rv, r0);
  cv::Matx44d b0 = cv::Matx44d::eye();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) b0(r, c) = r0(r, c);
    b0(r, 3) = body_from_cam0(r, 3);
  }
  cv::Matx44d cam1_from_cam0 = cv::Matx44d::eye();
  const cv::Matx33d R = rig.R();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) cam1_from_cam0(r, c) = R(r, c);
    cam1_from_cam0(r, 3) = rig.T[r];
  }
  const cv::Matx44d body_from_sensor = i == 0 ? b0 : b0 * cam1_from_cam0.inv();
  std::ostringstream out;
  const auto line = [&](const char* key, const std::string& value) {
    if (!omit.count(key)) out << key << ": " << value << "\n";
  };
  out << "%YAML:1.0\n# General sensor definitions.\nsensor_type: camera\ncomment: cam" << i << "\n";
  if (!omit.count("T_BS")) {
    out << "T_BS:\n  cols: 4\n  rows: 4\n  data: " << list(body_from_sensor.val, 16) << "\n";
  }
  line("rate_hz", "20");
  line("resolution", "[" + std::to_string(rig.width) + ", " + std::to_string(rig.height) + "]");
  line("camera_model", "pinhole");
  const double k[4] = {rig.fx[i], rig.fy[i], rig.cx[i], rig.cy[i]};
  line("intrinsics", list(k, 4) + " #fu, fv, cu, cv");
  line("distortion_model", "radial-tangential");
  line("distortion_coefficients", list(rig.D[i]));
  return out.str();
}

// ROS camera_calibration's pair: K D and stereoRectify's R1 R2 P1 P2 (alpha 0).
std::string ros_text(const Rig& rig, int i, const Keys& omit = {}) {
  cv::Mat R1, R2, P1, P2, Q;
  cv::stereoRectify(rig.K(0), rig.D[0], rig.K(1), rig.D[1], cv::Size(rig.width, rig.height),
                    rig.R(), rig.T, R1, R2, P1, P2, Q, cv::CALIB_ZERO_DISPARITY, 0.0);
  const cv::Mat& Rr = i == 0 ? R1 : R2;
  const cv::Mat& P = i == 0 ? P1 : P2;
  std::ostringstream out;
  const auto matrix = [&](const char* key, int rows, int cols, const double* data) {
    if (omit.count(key)) return;
    out << key << ":\n  rows: " << rows << "\n  cols: " << cols
        << "\n  data: " << list(data, static_cast<size_t>(rows * cols)) << "\n";
  };
  if (!omit.count("image_width")) out << "image_width: " << rig.width << "\n";
  if (!omit.count("image_height")) out << "image_height: " << rig.height << "\n";
  out << "camera_name: narrow_stereo/" << (i == 0 ? "left" : "right") << "\n";
  matrix("camera_matrix", 3, 3, rig.K(i).val);
  if (!omit.count("distortion_model")) out << "distortion_model: plumb_bob\n";
  std::vector<double> d5 = rig.D[i];
  d5.push_back(0.0);
  matrix("distortion_coefficients", 1, 5, d5.data());
  matrix("rectification_matrix", 3, 3, Rr.ptr<double>());
  matrix("projection_matrix", 3, 4, P.ptr<double>());
  return out.str();
}

// A ZED .conf with the rig at HD and a second camera pair at VGA (other numbers: a mixed-up
// section would show).
std::string zed_text(const Rig& rig, const Keys& omit = {}) {
  std::ostringstream out;
  out.precision(17);
  const auto camera = [&](const char* section, double fx, double fy, double cx, double cy,
                          const std::vector<double>& d) {
    out << "[" << section << "]\n";
    const std::pair<const char*, double> values[] = {{"fx", fx},   {"fy", fy},   {"cx", cx},
                                                     {"cy", cy},   {"k1", d[0]}, {"k2", d[1]},
                                                     {"p1", d[2]}, {"p2", d[3]}, {"k3", 0.0}};
    for (const auto& [key, v] : values) {
      if (!omit.count(std::string(section) + "." + key)) out << key << "=" << v << "\n";
    }
    out << "\n";
  };
  camera("LEFT_CAM_HD", rig.fx[0], rig.fy[0], rig.cx[0], rig.cy[0], rig.D[0]);
  camera("RIGHT_CAM_HD", rig.fx[1], rig.fy[1], rig.cx[1], rig.cy[1], rig.D[1]);
  camera("LEFT_CAM_VGA", 350.0, 350.0, 335.0, 187.0, {-0.17, 0.027, 0.0, 0.0});
  camera("RIGHT_CAM_VGA", 351.0, 351.0, 333.0, 189.0, {-0.17, 0.026, 0.0, 0.0});
  out << "[STEREO]\n";
  const std::pair<std::string, double> stereo[] = {
      {"Baseline", -rig.T[0] * 1000.0}, {"TY", rig.T[1] * 1000.0}, {"TZ", rig.T[2] * 1000.0},
      {"CV_HD", rig.rotation[1]},       {"RX_HD", rig.rotation[0]}, {"RZ_HD", rig.rotation[2]},
      {"CV_VGA", 0.0},                  {"RX_VGA", 0.0},            {"RZ_VGA", 0.0}};
  for (const auto& [key, v] : stereo) {
    if (!omit.count("STEREO." + key)) out << key << "=" << v << "\n";
  }
  out << "\n[MISC]\nSensor_ID=0\n";
  return out.str();
}

void expect_near_all(const double* a, const double* b, size_t n, double tolerance,
                     const std::string& what) {
  for (size_t i = 0; i < n; ++i) EXPECT_NEAR(a[i], b[i], tolerance) << what << "[" << i << "]";
}

// The model every reader must give for the rig: K D (radtan, zero-padded), R T, size.
void expect_rig(const StereoCalibration& c, const Rig& rig, const std::string& format) {
  SCOPED_TRACE(format);
  EXPECT_EQ(c.width, rig.width);
  EXPECT_EQ(c.height, rig.height);
  ASSERT_TRUE(c.has_intrinsics);
  ASSERT_TRUE(c.has_extrinsics);
  EXPECT_EQ(c.distortion_model, DistortionModel::kPinhole);
  expect_near_all(c.K1.data(), rig.K(0).val, 9, 1e-9, "K1");
  expect_near_all(c.K2.data(), rig.K(1).val, 9, 1e-9, "K2");
  for (int i = 0; i < 2; ++i) {
    const std::vector<double>& d = i == 0 ? c.D1 : c.D2;
    ASSERT_GE(d.size(), 4u);
    for (size_t j = 0; j < d.size(); ++j) {
      EXPECT_NEAR(d[j], j < 4 ? rig.D[i][j] : 0.0, 1e-12) << "D" << i + 1 << "[" << j << "]";
    }
  }
  expect_near_all(c.R.data(), rig.R().val, 9, 1e-9, "R");
  expect_near_all(c.T.data(), rig.T.val, 3, 1e-9, "T");
}

// The largest difference between two rectifiers' maps, over both views and both axes.
double map_difference(const StereoRectifier& a, const StereoRectifier& b) {
  double worst = 0.0;
  const ImageF32* ma[] = {&a.maps().left_x, &a.maps().left_y, &a.maps().right_x, &a.maps().right_y};
  const ImageF32* mb[] = {&b.maps().left_x, &b.maps().left_y, &b.maps().right_x, &b.maps().right_y};
  for (int m = 0; m < 4; ++m) {
    for (int y = 0; y < ma[m]->height(); ++y) {
      for (int x = 0; x < ma[m]->width(); ++x) {
        worst = std::max(worst, static_cast<double>(std::fabs(ma[m]->row(y)[x] - mb[m]->row(y)[x])));
      }
    }
  }
  return worst;
}

std::string opencv_yaml(const std::string& dir, const Rig& rig) {
  const std::string path = dir + "/opencv.yaml";
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  fs << "image_width" << rig.width << "image_height" << rig.height << "K1" << cv::Mat(rig.K(0))
     << "D1" << cv::Mat(rig.D[0]) << "K2" << cv::Mat(rig.K(1)) << "D2" << cv::Mat(rig.D[1]) << "R"
     << cv::Mat(rig.R()) << "T" << cv::Mat(rig.T);
  return path;
}

// Whether `spec` is refused with a message naming `file` and `key`.
void expect_refused(const std::string& spec, const std::string& file, const std::string& key) {
  SCOPED_TRACE("without " + key);
  try {
    load_stereo_calibration(spec);
    ADD_FAILURE() << spec << " without " << key << " was read";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file), std::string::npos) << message;
    EXPECT_NE(message.find(key), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(CameraPairFormats, KalibrRosAslAndZedFromTheSameNumbersReadBackIntoTheSameModel) {
  const Rig rig;
  const std::string dir = test::fresh_dir("formats");
  write_text(dir + "/camchain.yaml", kalibr_text(rig));
  write_text(dir + "/left.yaml", ros_text(rig, 0));
  write_text(dir + "/right.yaml", ros_text(rig, 1));
  write_text(dir + "/cam0-sensor.yaml", asl_text(rig, 0));
  write_text(dir + "/cam1-sensor.yaml", asl_text(rig, 1));
  write_text(dir + "/SN1010.conf", zed_text(rig));

  const StereoCalibration kalibr = load_stereo_calibration(dir + "/camchain.yaml");
  const StereoCalibration ros = load_stereo_calibration(dir + "/left.yaml," + dir + "/right.yaml");
  const StereoCalibration asl =
      load_stereo_calibration(dir + "/cam0-sensor.yaml," + dir + "/cam1-sensor.yaml");
  const StereoCalibration zed_file = load_stereo_calibration(dir + "/SN1010.conf");
  const StereoCalibration zed = fit_calibration_to_size(zed_file, rig.width, rig.height);
  expect_rig(kalibr, rig, "Kalibr camchain");
  expect_rig(ros, rig, "ROS camera_info");
  expect_rig(asl, rig, "ASL sensor.yaml");
  expect_rig(zed, rig, "ZED .conf");
  EXPECT_NE(zed.path.find("[LEFT_CAM_HD] [RIGHT_CAM_HD]"), std::string::npos) << zed.path;

  // ROS keeps its file's rectification too; it is stereoRectify's of the same rig.
  ASSERT_TRUE(ros.has_rectification);
  const StereoGeometry geometry = geometry_from_q(ros.Q);
  EXPECT_NEAR(geometry.baseline, cv::norm(rig.T), 1e-9);

  // The same rectification as the OpenCV file of the rig, for every format.
  const StereoRectifier reference(load_stereo_calibration(opencv_yaml(dir, rig)), rig.width,
                                  rig.height);
  for (const StereoCalibration* c : {&kalibr, &ros, &asl, &zed_file}) {
    const StereoRectifier rectifier(*c, rig.width, rig.height);
    EXPECT_LT(map_difference(rectifier, reference), 1e-3) << c->path;
  }
}

TEST(CameraPairFormats, FormatsAreToldApartByContentAndFoundInFolders) {
  const Rig rig;
  const std::string dir = test::fresh_dir("content");
  write_text(dir + "/rig.txt", kalibr_text(rig));  // no telling extension
  write_text(dir + "/factory.yaml", zed_text(rig));
  expect_rig(load_stereo_calibration(dir + "/rig.txt"), rig, "camchain as .txt");
  expect_rig(fit_calibration_to_size(load_stereo_calibration(dir + "/factory.yaml"), rig.width,
                                     rig.height),
             rig, "ZED .conf as .yaml");

  const std::string ros_dir = dir + "/ros";
  fs::create_directories(ros_dir);
  write_text(ros_dir + "/left.yaml", ros_text(rig, 0));
  write_text(ros_dir + "/right.yaml", ros_text(rig, 1));
  expect_rig(load_stereo_calibration(ros_dir), rig, "ROS folder");

  const std::string mav0 = dir + "/mav0";
  fs::create_directories(mav0 + "/cam0");
  fs::create_directories(mav0 + "/cam1");
  write_text(mav0 + "/cam0/sensor.yaml", asl_text(rig, 0));
  write_text(mav0 + "/cam1/sensor.yaml", asl_text(rig, 1));
  expect_rig(load_stereo_calibration(mav0), rig, "EuRoC mav0 folder");

  const std::string zed_dir = dir + "/zed";
  fs::create_directories(zed_dir);
  write_text(zed_dir + "/SN1010.conf", zed_text(rig));
  EXPECT_EQ(load_stereo_calibration(zed_dir).per_size.size(), 2u);

  // One camera of a pair alone, a pair in the wrong order, formats mixed.
  expect_refused(ros_dir + "/left.yaml", "ros/left.yaml", "LEFT,RIGHT");
  expect_refused(ros_dir + "/right.yaml," + ros_dir + "/left.yaml", "ros/right.yaml",
                 "list the left camera's file first");
  expect_refused(ros_dir + "/left.yaml," + mav0 + "/cam1/sensor.yaml", "ros/left.yaml",
                 "an ASL sensor.yaml");
}

TEST(CameraPairFormats, TheZedSectionForTheSourcesSizeIsTakenAndNamed) {
  const Rig rig;
  const std::string dir = test::fresh_dir("zed");
  write_text(dir + "/SN1010.conf", zed_text(rig));
  const StereoCalibration zed = load_stereo_calibration(dir + "/SN1010.conf");

  const StereoCalibration vga = fit_calibration_to_size(zed, 672, 376);
  EXPECT_EQ(vga.K1[0], 350.0);
  EXPECT_EQ(vga.K2[2], 333.0);
  EXPECT_NEAR(vga.T[0], -rig.T[0] * 0.0 + rig.T[0], 1e-12);  // one baseline for all sections
  const StereoRectifier vga_rectifier(zed, 672, 376);
  EXPECT_NE(vga_rectifier.summary().find("[LEFT_CAM_VGA] [RIGHT_CAM_VGA] for 672x376"),
            std::string::npos)
      << vga_rectifier.summary();
  const StereoRectifier hd_rectifier(zed, 1280, 720);
  EXPECT_NE(hd_rectifier.summary().find("[LEFT_CAM_HD]"), std::string::npos)
      << hd_rectifier.summary();

  // Half of HD is HD rescaled (whole fractions keep working); an unrelated size is refused with
  // the sizes the file holds.
  const StereoCalibration half = fit_calibration_to_size(zed, 640, 360);
  EXPECT_NEAR(half.K1[0], rig.fx[0] / 2.0, 1e-9);
  try {
    fit_calibration_to_size(zed, 1000, 500);
    ADD_FAILURE() << "1000x500 was fitted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("1280x720, 672x376"), std::string::npos) << e.what();
  }
}

TEST(CameraPairFormats, EachMissingKeyIsNamedWithItsFile) {
  const Rig rig;
  const std::string dir = test::fresh_dir("missing");
  for (const char* key : {"cam0.intrinsics", "cam0.camera_model", "cam0.distortion_model",
                          "cam1.distortion_coeffs", "cam1.resolution", "cam1.T_cn_cnm1"}) {
    write_text(dir + "/camchain.yaml", kalibr_text(rig, {key}));
    expect_refused(dir + "/camchain.yaml", "camchain.yaml", key);
  }
  for (const char* key : {"T_BS", "intrinsics", "resolution", "camera_model", "distortion_model",
                          "distortion_coefficients"}) {
    write_text(dir + "/cam0-sensor.yaml", asl_text(rig, 0));
    write_text(dir + "/cam1-sensor.yaml", asl_text(rig, 1, {key}));
    expect_refused(dir + "/cam0-sensor.yaml," + dir + "/cam1-sensor.yaml", "cam1-sensor.yaml", key);
  }
  for (const char* key : {"image_width", "image_height", "camera_matrix", "distortion_model",
                          "distortion_coefficients", "rectification_matrix"}) {
    write_text(dir + "/left.yaml", ros_text(rig, 0, {key}));
    write_text(dir + "/right.yaml", ros_text(rig, 1));
    expect_refused(dir + "/left.yaml," + dir + "/right.yaml", "left.yaml", key);
  }
  for (const std::string key : {"LEFT_CAM_HD.fx", "RIGHT_CAM_HD.cy", "RIGHT_CAM_VGA.k1",
                                "LEFT_CAM_HD.k3", "STEREO.Baseline", "STEREO.CV_HD",
                                "STEREO.RX_VGA", "STEREO.RZ_HD"}) {
    write_text(dir + "/SN1010.conf", zed_text(rig, {key}));
    const size_t dot = key.find('.');
    expect_refused(dir + "/SN1010.conf", "SN1010.conf",
                   key.substr(dot + 1) + " in [" + key.substr(0, dot) + "]");
  }
  write_text(dir + "/bare.conf", "[LEFT_CAM_HD]\nfx=700\n");
  expect_refused(dir + "/bare.conf", "bare.conf", "[STEREO]");
}

// Baselines no rig has (issue 47): 1e300 m read as a working calibration in every format. The
// formats in metres are held to 100 m, OpenCV files (mm or m) to 1e5 of their unit.
TEST(CameraPairFormats, BaselinesNoRigHasAreRefusedInEveryFormat) {
  const std::string dir = test::fresh_dir("far_apart");
  for (const double metres : {1e300, 150.0}) {
    Rig rig;
    rig.T[0] = -metres;
    write_text(dir + "/camchain.yaml", kalibr_text(rig));
    expect_refused(dir + "/camchain.yaml", "camchain.yaml",
                   "the translation of cam1.T_cn_cnm1 gives a baseline of");
    write_text(dir + "/SN1010.conf", zed_text(rig));
    expect_refused(dir + "/SN1010.conf", "SN1010.conf",
                   "the translation of [STEREO] Baseline, TY, TZ");
  }
  Rig far;
  far.T[0] = -1e300;
  expect_refused(opencv_yaml(dir, far), "opencv.yaml", "T gives a baseline of 1e+300");
  Rig wide;  // 50 m apart, within the bound
  wide.T[0] = -50.0;
  write_text(dir + "/camchain.yaml", kalibr_text(wide));
  EXPECT_DOUBLE_EQ(load_stereo_calibration(dir + "/camchain.yaml").T[0], -50.0);
}

// A NUL byte in a ZED .conf ended the value before it ("Baseline=120<NUL>junk" read as 120).
TEST(CameraPairFormats, ANulByteInAZedConfIsRefused) {
  const std::string dir = test::fresh_dir("zed_nul");
  std::string text = zed_text(Rig());
  const size_t baseline = text.find("Baseline=");
  ASSERT_NE(baseline, std::string::npos);
  text.insert(text.find('\n', baseline), std::string("\0" "5e300", 6));
  write_text(dir + "/SN1010.conf", text);
  expect_refused(dir + "/SN1010.conf", "SN1010.conf", "holds a NUL byte");
}

TEST(CameraPairFormats, EurocAslPairGivesTheMapsOfItsOpenCvConversion) {
  const fs::path euroc = shared_data_dir() / "euroc-v1-01-easy";
  if (!fs::exists(euroc / "cam0-sensor.yaml") || !fs::exists(euroc / "stereo_calibration.yaml")) {
    GTEST_SKIP() << "no EuRoC calibration at " << euroc;
  }
  const StereoCalibration asl = load_stereo_calibration((euroc / "cam0-sensor.yaml").string() +
                                                        "," +
                                                        (euroc / "cam1-sensor.yaml").string());
  const StereoCalibration opencv = load_stereo_calibration((euroc / "stereo_calibration.yaml").string());
  EXPECT_EQ(asl.width, 752);
  EXPECT_EQ(asl.height, 480);
  // SOURCE.txt: R T of stereo_calibration.yaml are inv(T_BS_cam1) T_BS_cam0, printed to 17 digits.
  expect_near_all(asl.R.data(), opencv.R.data(), 9, 1e-12, "R");
  expect_near_all(asl.T.data(), opencv.T.data(), 3, 1e-12, "T");
  expect_near_all(asl.K1.data(), opencv.K1.data(), 9, 1e-9, "K1");
  const StereoRectifier from_asl(asl, 752, 480);
  const StereoRectifier from_opencv(opencv, 752, 480);
  EXPECT_LT(map_difference(from_asl, from_opencv), 1e-3);
  EXPECT_NEAR(from_asl.geometry().baseline, 0.110, 0.001);
}

// A fisheye rig: rays far off the axis, where the pinhole model's polynomial and the
// equidistant one part by many pixels.
struct FisheyeRig {
  int width = 640, height = 480;
  cv::Matx33d K[2] = {{285.0, 0, 321.5, 0, 284.0, 238.5, 0, 0, 1},
                      {286.0, 0, 318.5, 0, 285.5, 241.0, 0, 0, 1}};
  cv::Vec4d D[2] = {{-0.012, 0.045, -0.041, 0.011}, {-0.010, 0.043, -0.040, 0.012}};
  cv::Vec3d rotation{0.004, -0.011, 0.002};
  cv::Vec3d T{-0.064, 0.0005, 0.0008};
};

TEST(FisheyeRectification, RectifiedMapsSampleWhereCvFisheyeProjectsAndRowsAgree) {
  const FisheyeRig rig;
  StereoCalibration c;
  c.path = "fisheye rig";
  c.width = rig.width;
  c.height = rig.height;
  c.has_intrinsics = c.has_extrinsics = true;
  c.distortion_model = DistortionModel::kFisheye;
  std::copy(rig.K[0].val, rig.K[0].val + 9, c.K1.begin());
  std::copy(rig.K[1].val, rig.K[1].val + 9, c.K2.begin());
  c.D1.assign(rig.D[0].val, rig.D[0].val + 4);
  c.D2.assign(rig.D[1].val, rig.D[1].val + 4);
  cv::Matx33d R;
  cv::Rodrigues(rig.rotation, R);
  std::copy(R.val, R.val + 9, c.R.begin());
  c.T = {rig.T[0], rig.T[1], rig.T[2]};

  const StereoRectifier rectifier(c, rig.width, rig.height);
  const Matrix34& P1 = rectifier.P1();
  const Matrix34& P2 = rectifier.P2();
  // R1 is not exposed; recover each rectified pixel by its map instead: for points in front of
  // the rig, project them raw with cv::fisheye, find the rectified pixel from P and the
  // rectifying rotation OpenCV's fisheye::stereoRectify gives, and check the map points back.
  cv::Mat R1, R2, Pc1, Pc2, Q;
  cv::fisheye::stereoRectify(rig.K[0], rig.D[0], rig.K[1], rig.D[1], cv::Size(rig.width, rig.height),
                             R, rig.T, R1, R2, Pc1, Pc2, Q, cv::CALIB_ZERO_DISPARITY,
                             cv::Size(rig.width, rig.height), 0.0);
  EXPECT_NEAR(P1[0], Pc1.at<double>(0, 0), 1e-9);
  EXPECT_NEAR(P2[3], Pc2.at<double>(0, 3), 1e-9);

  const auto sample = [](const ImageF32& map, double x, double y) {
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const double fx = x - x0, fy = y - y0;
    return (1 - fx) * (1 - fy) * map.row(y0)[x0] + fx * (1 - fy) * map.row(y0)[x0 + 1] +
           (1 - fx) * fy * map.row(y0 + 1)[x0] + fx * fy * map.row(y0 + 1)[x0 + 1];
  };
  int checked = 0;
  double worst = 0.0, worst_row = 0.0;
  for (double X = -1.5; X <= 1.5; X += 0.25) {
    for (double Y = -1.0; Y <= 1.0; Y += 0.25) {
      const cv::Vec3d p1(X, Y, 1.2);
      const cv::Vec3d p2 = R * p1 + rig.T;
      std::vector<cv::Point2d> raw1, raw2;
      cv::fisheye::projectPoints(std::vector<cv::Point3d>{cv::Point3d(p1)}, raw1, cv::Vec3d(),
                                 cv::Vec3d(), rig.K[0], rig.D[0]);
      cv::fisheye::projectPoints(std::vector<cv::Point3d>{cv::Point3d(p2)}, raw2, cv::Vec3d(),
                                 cv::Vec3d(), rig.K[1], rig.D[1]);
      const cv::Vec3d r1 = cv::Matx33d(R1) * p1;
      const cv::Vec3d r2 = cv::Matx33d(R2) * p2;
      const double u1 = P1[0] * r1[0] / r1[2] + P1[2], v1 = P1[5] * r1[1] / r1[2] + P1[6];
      const double u2 = P2[0] * r2[0] / r2[2] + P2[2], v2 = P2[5] * r2[1] / r2[2] + P2[6];
      if (u1 < 1 || v1 < 1 || u2 < 1 || v2 < 1 || u1 > rig.width - 2 || u2 > rig.width - 2 ||
          v1 > rig.height - 2 || v2 > rig.height - 2) {
        continue;
      }
      worst = std::max({worst, std::fabs(sample(rectifier.maps().left_x, u1, v1) - raw1[0].x),
                        std::fabs(sample(rectifier.maps().left_y, u1, v1) - raw1[0].y),
                        std::fabs(sample(rectifier.maps().right_x, u2, v2) - raw2[0].x),
                        std::fabs(sample(rectifier.maps().right_y, u2, v2) - raw2[0].y)});
      worst_row = std::max(worst_row, std::fabs(v1 - v2));
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
  EXPECT_LT(worst, 0.05) << "rectified pixels sample away from cv::fisheye's projection";
  EXPECT_LT(worst_row, 1e-6) << "a point's rectified rows differ";

  // The same numbers read as pinhole distortion sample elsewhere: the model matters here.
  StereoCalibration as_pinhole = c;
  as_pinhole.distortion_model = DistortionModel::kPinhole;
  EXPECT_GT(map_difference(StereoRectifier(as_pinhole, rig.width, rig.height), rectifier), 5.0);
}

TEST(FisheyeRectification, EquidistantCamchainAndOpenCvFisheyeFileReadAsFisheye) {
  Rig rig;
  rig.D[0] = {-0.012, 0.045, -0.041, 0.011};
  rig.D[1] = {-0.010, 0.043, -0.040, 0.012};
  const std::string dir = test::fresh_dir("fisheye");
  write_text(dir + "/camchain.yaml", kalibr_text(rig, {}, "equidistant"));
  const StereoCalibration kalibr = load_stereo_calibration(dir + "/camchain.yaml");
  EXPECT_EQ(kalibr.distortion_model, DistortionModel::kFisheye);
  EXPECT_EQ(kalibr.D2, rig.D[1]);

  {
    cv::FileStorage fs(dir + "/opencv.yaml", cv::FileStorage::WRITE);
    fs << "image_width" << rig.width << "image_height" << rig.height << "distortion_model"
       << "fisheye" << "K1" << cv::Mat(rig.K(0)) << "D1" << cv::Mat(rig.D[0]) << "K2"
       << cv::Mat(rig.K(1)) << "D2" << cv::Mat(rig.D[1]) << "R" << cv::Mat(rig.R()) << "T"
       << cv::Mat(rig.T);
  }
  const StereoCalibration opencv = load_stereo_calibration(dir + "/opencv.yaml");
  EXPECT_EQ(opencv.distortion_model, DistortionModel::kFisheye);
  const StereoRectifier a(kalibr, rig.width, rig.height), b(opencv, rig.width, rig.height);
  EXPECT_LT(map_difference(a, b), 1e-3);
  EXPECT_NE(a.summary().find("(fisheye model, balance 0)"), std::string::npos) << a.summary();

  // Fisheye needs exactly k1..k4.
  {
    cv::FileStorage fs(dir + "/five.yaml", cv::FileStorage::WRITE);
    fs << "distortion_model" << "fisheye" << "K1" << cv::Mat(rig.K(0)) << "D1"
       << cv::Mat(std::vector<double>{0.1, 0, 0, 0, 0}) << "K2" << cv::Mat(rig.K(1)) << "D2"
       << cv::Mat(rig.D[1]) << "R" << cv::Mat(rig.R()) << "T" << cv::Mat(rig.T);
  }
  expect_refused(dir + "/five.yaml", "five.yaml", "D1 must hold the fisheye model's 4");
}

}  // namespace
}  // namespace sv
