#pragma once

#include <cstddef>
#include <string>

namespace sv {

// Calibration files are a few kilobytes; OpenCV's FileStorage reads a whole file into memory
// (300 MB take 5 s and 1 GB) and its parser recurses once per bracket or tag (a few ten
// thousand nested ones overflow the stack).
constexpr size_t kMaxCalibrationFileBytes = 8u << 20;
constexpr int kMaxCalibrationNesting = 64;

// The text of one calibration file, read so that nothing can hang or crash the program: a
// regular file (a FIFO or a device is refused before anything is read from it), at most
// kMaxCalibrationFileBytes long, brackets and XML elements nested at most kMaxCalibrationNesting
// deep. InputError naming the file and the reason otherwise.
std::string read_calibration_text(const std::string& path);

}  // namespace sv
