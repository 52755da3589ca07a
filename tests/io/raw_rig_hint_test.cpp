// Two cameras' separate raw views matched without a calibration give noise (issue 39, wrong
// numbers 5): such a source gets a one-line hint naming the calibration options; a single pair
// of images (often rectified already, like Middlebury's) and a calibrated source get none.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "src/app/source_factory.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

// Two frames of two views, as left_%d.png / right_%d.png, and a calibration that takes them as
// rectified (only R1 R2 P1 P2 Q). Returns the folder.
std::string write_sequences() {
  const std::string dir = test::fresh_dir("raw_rig_hint");
  for (int i = 0; i < 2; ++i) {
    cv::imwrite(dir + "/left_" + std::to_string(i) + ".png", test::flat_frame(32, 24, 40 + i));
    cv::imwrite(dir + "/right_" + std::to_string(i) + ".png", test::flat_frame(32, 24, 60 + i));
  }
  cv::FileStorage fs(dir + "/rectified.yml", cv::FileStorage::WRITE);
  const cv::Mat P1 = (cv::Mat_<double>(3, 4) << 30, 0, 16, 0, 0, 30, 12, 0, 0, 0, 1, 0);
  const cv::Mat P2 = (cv::Mat_<double>(3, 4) << 30, 0, 16, -3, 0, 30, 12, 0, 0, 0, 1, 0);
  const cv::Mat Q = (cv::Mat_<double>(4, 4) << 1, 0, 0, -16, 0, 1, 0, -12, 0, 0, 0, 30, 0, 0, 10, 0);
  fs << "R1" << cv::Mat::eye(3, 3, CV_64F) << "R2" << cv::Mat::eye(3, 3, CV_64F) << "P1" << P1
     << "P2" << P2 << "Q" << Q;
  return dir;
}

std::vector<std::string> notices_of(const std::vector<std::string>& flags) {
  std::vector<std::string> notices;
  make_frame_source(parse_source_flags(flags),
                    [&](const std::string& message) { notices.push_back(message); });
  return notices;
}

bool names_calibration(const std::vector<std::string>& notices) {
  for (const std::string& notice : notices) {
    if (notice.find("without --calib") != std::string::npos) return true;
  }
  return false;
}

TEST(RawRigHint, TwoSequencesWithoutACalibrationGetOneHintNamingIt) {
  const std::string dir = write_sequences();
  std::vector<std::string> notices =
      notices_of({"--left", dir + "/left_%d.png", "--right", dir + "/right_%d.png"});
  ASSERT_TRUE(names_calibration(notices));
  for (const std::string& notice : notices) {
    if (notice.find("without --calib") == std::string::npos) continue;
    EXPECT_EQ(notice.find('\n'), std::string::npos) << notice;  // one line
    EXPECT_EQ(notice.rfind("two image sequences without --calib", 0), 0u) << notice;
    EXPECT_NE(notice.find("--calib FILE[,FILE]"), std::string::npos) << notice;
    EXPECT_NE(notice.find("stereoview calibrate"), std::string::npos) << notice;
  }
}

TEST(RawRigHint, ACalibratedSourceAndASingleImagePairGetNone) {
  const std::string dir = write_sequences();
  EXPECT_FALSE(names_calibration(notices_of({"--left", dir + "/left_%d.png", "--right",
                                             dir + "/right_%d.png", "--calib",
                                             dir + "/rectified.yml"})));
  EXPECT_FALSE(names_calibration(
      notices_of({"--left", dir + "/left_0.png", "--right", dir + "/right_0.png"})));
}

}  // namespace
}  // namespace sv
