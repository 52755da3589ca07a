#pragma once

#include <string>

#include "src/io/stereo_calibration.h"

namespace sv {

// A calibration as OpenCV YAML that load_stereo_calibration (--calib) reads back unchanged:
// image_width, image_height, K1 D1 K2 D2 R T, R1 R2 P1 P2 Q, ValidRoi1/2 when known, and
// distortion_model (pinhole or fisheye).
std::string stereo_calibration_yaml(const StereoCalibration& calibration);

// Writes `text` to `path` whole (atomic_file.h). An existing file is kept unless `overwrite`:
// InputError "PATH exists: ... --force" otherwise.
void write_calibration_file(const std::string& path, const std::string& text, bool overwrite);

// InputError when `path` exists and `overwrite` is off, checked before any work is done.
void refuse_existing_file(const std::string& path, bool overwrite);

}  // namespace sv
