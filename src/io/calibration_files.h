#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sv {

// The files a --calib value names:
//   - one file;
//   - files separated by commas, read as one calibration (OpenCV's stereo_calib sample writes
//     intrinsics.yml and extrinsics.yml);
//   - a folder: its intrinsics.* and extrinsics.* (yml, yaml, xml or json), else left.* and
//     right.* (a ROS camera_info pair), else cam0/sensor.yaml and cam1/sensor.yaml (EuRoC's mav0),
//     else its only file of those kinds or .conf (a ZED's).
// A path that exists as written is one file even when it holds a comma. InputError naming what
// is missing: a file, an empty name in the list, a folder without calibration files.
std::vector<std::string> calibration_file_paths(const std::string& spec);

// Calibration files are a few kilobytes; OpenCV's FileStorage reads a whole file into memory
// (300 MB take 5 s and 1 GB) and its parser recurses once per bracket or tag (a few ten
// thousand nested ones overflow the stack).
constexpr size_t kMaxCalibrationFileBytes = 8u << 20;
constexpr int kMaxCalibrationNesting = 64;

// The text of one calibration file, read so that nothing can hang or crash the program: a
// regular file (a FIFO or a device is refused before anything is read from it), at most
// kMaxCalibrationFileBytes long, brackets and XML elements nested at most kMaxCalibrationNesting
// deep, no NUL byte in it, an XML file not ending inside a tag. InputError naming the file and
// the reason otherwise.
std::string read_calibration_text(const std::string& path);

}  // namespace sv
