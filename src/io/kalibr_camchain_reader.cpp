#include "src/io/kalibr_camchain_reader.h"

#include "src/core/error.h"
#include "src/io/camera_pair.h"

namespace sv {
namespace {

CameraIntrinsics read_camera(const CalibrationYaml& file, const char* name) {
  const cv::FileNode cam = file.require(file.root(), "", name);
  const std::string model = file.text(cam, name, "camera_model");
  if (model != "pinhole") {
    throw InputError(file.entry(name, "camera_model") + " is '" + model +
                     "': stereoview reads pinhole cameras (with radtan or equidistant distortion)");
  }
  const std::vector<double> k = file.numbers(cam, name, "intrinsics", 4);
  CameraIntrinsics camera;
  camera.K = camera_matrix(k[0], k[1], k[2], k[3]);
  const std::string distortion = file.text(cam, name, "distortion_model");
  if (distortion == "radtan") {
    camera.D = file.numbers(cam, name, "distortion_coeffs", 4);
  } else if (distortion == "equidistant") {
    camera.D = file.numbers(cam, name, "distortion_coeffs", 4);
    camera.model = DistortionModel::kFisheye;
  } else if (distortion == "none") {
    camera.D = {0.0, 0.0, 0.0, 0.0};
  } else {
    throw InputError(file.entry(name, "distortion_model") + " is '" + distortion +
                     "': stereoview reads radtan, equidistant and none");
  }
  const std::vector<double> size = file.numbers(cam, name, "resolution", 2);
  camera.width = static_cast<int>(size[0]);
  camera.height = static_cast<int>(size[1]);
  if (camera.width != size[0] || camera.height != size[1] || camera.width < 1 || camera.height < 1) {
    throw InputError(file.entry(name, "resolution") + " must be [width, height] in whole pixels");
  }
  return camera;
}

}  // namespace

bool is_kalibr_camchain(const CalibrationYaml& file) {
  return file.root()["cam0"].isMap() || file.root()["cam1"].isMap();
}

StereoCalibration read_kalibr_camchain(CalibrationYaml& file) {
  file.set_format("Kalibr camchain");
  const CameraIntrinsics left = read_camera(file, "cam0");
  const CameraIntrinsics right = read_camera(file, "cam1");
  const std::vector<double> t = file.numbers(file.require(file.root(), "", "cam1"), "cam1",
                                             "T_cn_cnm1", {12, 16});
  RigidTransform camera1_from_camera0{};
  std::copy(t.begin(), t.end(), camera1_from_camera0.begin());
  camera1_from_camera0[15] = 1.0;
  return calibration_from_cameras(file.path(), left, right, camera1_from_camera0,
                                  "cam1.T_cn_cnm1");
}

}  // namespace sv
