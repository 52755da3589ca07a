#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/io/stereo_calibration.h"

namespace sv {

// The calibration formats of stereo cameras and their tools, told apart by content (not by file
// name) and converted to StereoCalibration:
//   - a ZED factory .conf (one file; zed_conf_reader.h);
//   - a Kalibr camchain (one file; kalibr_camchain_reader.h);
//   - an ASL sensor.yaml pair, cam0 then cam1 (asl_sensor_reader.h);
//   - a ROS camera_info pair, left then right (ros_camera_info_reader.h).
// nullopt when the files are none of these (OpenCV FileStorage, read by load_stereo_calibration).
// InputError when one of them is given with the wrong number of files, with files of another
// format, or lacks what its reader needs.
std::optional<StereoCalibration> read_camera_pair_format(const std::vector<std::string>& paths);

}  // namespace sv
