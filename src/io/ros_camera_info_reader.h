#pragma once

#include "src/io/calibration_yaml.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Whether a YAML file is a ROS camera_info file, complete or not: camera_name,
// projection_matrix, rectification_matrix, or camera_matrix with distortion_model.
bool is_ros_camera_info(const CalibrationYaml& file);

// The pair of ROS camera_info files a stereo calibration writes (camera_calibration's
// left.yaml and right.yaml), left then right: image_width, image_height, camera_matrix,
// distortion_model (plumb_bob, rational_polynomial or equidistant) with distortion_coefficients,
// rectification_matrix (R1, R2) and projection_matrix (P1, P2; the right one's Tx = -fx'
// baseline). Gives K D, the file's rectification (R1 R2 P1 P2 and the Q they imply) and the R T
// it implies: R = R2^T R1, T = R2^T (Tx/fx', Ty/fy', 0). InputError naming the file and the
// missing or unusable key, or when the files are listed right first.
StereoCalibration read_ros_camera_info_pair(CalibrationYaml& left, CalibrationYaml& right);

}  // namespace sv
