#include "src/io/calibration_writer.h"

#include <filesystem>
#include <opencv2/core.hpp>

#include "src/core/error.h"
#include "src/io/atomic_file.h"

namespace sv {
namespace {

template <size_t N>
cv::Mat mat_of(const std::array<double, N>& values, int rows, int cols) {
  return cv::Mat(rows, cols, CV_64F, const_cast<double*>(values.data())).clone();
}

cv::Mat mat_of(const std::vector<double>& values) {
  return cv::Mat(1, static_cast<int>(values.size()), CV_64F, const_cast<double*>(values.data()))
      .clone();
}

cv::Mat roi_mat(const PixelRect& r) { return (cv::Mat_<int>(1, 4) << r.x, r.y, r.width, r.height); }

}  // namespace

std::string stereo_calibration_yaml(const StereoCalibration& c) {
  cv::FileStorage fs(".yaml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY);
  fs << "image_width" << c.width << "image_height" << c.height;
  fs << "distortion_model"
     << (c.distortion_model == DistortionModel::kFisheye ? "fisheye" : "pinhole");
  if (c.has_intrinsics) {
    fs << "K1" << mat_of(c.K1, 3, 3) << "D1" << mat_of(c.D1) << "K2" << mat_of(c.K2, 3, 3) << "D2"
       << mat_of(c.D2);
  }
  if (c.has_extrinsics) fs << "R" << mat_of(c.R, 3, 3) << "T" << mat_of(c.T, 3, 1);
  if (c.translation_unit) fs << "translation_unit" << length_unit_symbol(*c.translation_unit);
  if (c.has_rectification) {
    fs << "R1" << mat_of(c.R1, 3, 3) << "R2" << mat_of(c.R2, 3, 3) << "P1" << mat_of(c.P1, 3, 4)
       << "P2" << mat_of(c.P2, 3, 4) << "Q" << mat_of(c.Q, 4, 4);
  }
  if (c.has_valid_rois) fs << "ValidRoi1" << roi_mat(c.valid_roi1) << "ValidRoi2" << roi_mat(c.valid_roi2);
  return fs.releaseAndGetString();
}

void refuse_existing_file(const std::string& path, bool overwrite) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec)) {
    throw InputError(path + " exists: not overwriting a calibration (add --force to replace it)");
  }
}

void write_calibration_file(const std::string& path, const std::string& text, bool overwrite) {
  refuse_existing_file(path, overwrite);
  write_file_atomically(path, text);
}

}  // namespace sv
