#pragma once

#include "src/io/calibration_yaml.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Whether a YAML file is a Kalibr camchain: a cam0 or cam1 map (complete or not).
bool is_kalibr_camchain(const CalibrationYaml& file);

// Kalibr's camchain.yaml: cam0 (left) and cam1 (right), each with camera_model pinhole,
// intrinsics [fu fv pu pv], distortion_model radtan (k1 k2 r1 r2), equidistant (fisheye k1..k4)
// or none, distortion_coeffs and resolution [w h]; cam1's T_cn_cnm1 takes cam0 points to cam1
// (X1 = T X0: OpenCV's R and T). Further cameras are ignored. InputError naming the file and the
// missing or unusable key.
StereoCalibration read_kalibr_camchain(CalibrationYaml& file);

}  // namespace sv
