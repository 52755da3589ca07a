#include "src/io/asl_sensor_reader.h"

#include "src/core/error.h"
#include "src/io/camera_pair.h"

namespace sv {
namespace {

struct SensorCamera {
  CameraIntrinsics intrinsics;
  RigidTransform body_from_sensor{};
};

SensorCamera read_sensor(CalibrationYaml& file) {
  file.set_format("ASL sensor.yaml");
  const cv::FileNode root = file.root();
  const std::string model = file.text(root, "", "camera_model");
  if (model != "pinhole") {
    throw InputError(file.entry("", "camera_model") + " is '" + model +
                     "': stereoview reads pinhole cameras");
  }
  SensorCamera camera;
  const std::vector<double> k = file.numbers(root, "", "intrinsics", 4);
  camera.intrinsics.K = camera_matrix(k[0], k[1], k[2], k[3]);
  const std::string distortion = file.text(root, "", "distortion_model");
  camera.intrinsics.D = file.numbers(root, "", "distortion_coefficients", 4);
  if (distortion == "equidistant") {
    camera.intrinsics.model = DistortionModel::kFisheye;
  } else if (distortion != "radial-tangential" && distortion != "radtan") {
    throw InputError(file.entry("", "distortion_model") + " is '" + distortion +
                     "': stereoview reads radial-tangential and equidistant");
  }
  const std::vector<double> size = file.numbers(root, "", "resolution", 2);
  camera.intrinsics.width = static_cast<int>(size[0]);
  camera.intrinsics.height = static_cast<int>(size[1]);
  if (camera.intrinsics.width != size[0] || camera.intrinsics.height != size[1] ||
      camera.intrinsics.width < 1 || camera.intrinsics.height < 1) {
    throw InputError(file.entry("", "resolution") + " must be [width, height] in whole pixels");
  }
  const std::vector<double> t = file.numbers(root, "", "T_BS", 16);
  std::copy(t.begin(), t.end(), camera.body_from_sensor.begin());
  return camera;
}

}  // namespace

bool is_asl_sensor(const CalibrationYaml& file) {
  return file.has("T_BS") || file.has("sensor_type") ||
         (file.has("intrinsics") && file.has("distortion_coefficients"));
}

StereoCalibration read_asl_sensor_pair(CalibrationYaml& cam0, CalibrationYaml& cam1) {
  const SensorCamera left = read_sensor(cam0);
  const SensorCamera right = read_sensor(cam1);
  return calibration_from_cameras(cam0.path() + " + " + cam1.path(), left.intrinsics,
                                  right.intrinsics,
                                  inverse(right.body_from_sensor) * left.body_from_sensor,
                                  "inv(T_BS of cam1) T_BS of cam0");
}

}  // namespace sv
