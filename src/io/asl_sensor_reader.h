#pragma once

#include "src/io/calibration_yaml.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Whether a YAML file is an ASL sensor.yaml (EuRoC's camN/sensor.yaml), complete or not: T_BS,
// sensor_type, or intrinsics with distortion_coefficients.
bool is_asl_sensor(const CalibrationYaml& file);

// The ASL pair of a stereo rig, cam0 (left) then cam1 (right): each with camera_model pinhole,
// intrinsics [fu fv cu cv], distortion_model radial-tangential (k1 k2 p1 p2) or equidistant
// (fisheye k1..k4), distortion_coefficients, resolution [w h] and T_BS, the sensor's pose in the
// body frame (X_body = T_BS X_sensor): camera 1 sees inv(T_BS1) T_BS0 X0. InputError naming the
// file and the missing or unusable key.
StereoCalibration read_asl_sensor_pair(CalibrationYaml& cam0, CalibrationYaml& cam1);

}  // namespace sv
