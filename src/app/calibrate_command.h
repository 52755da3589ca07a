#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sv {

// `stereoview calibrate`: views of a board from image files (--left/--right globs, patterns or
// folders), a stereo video (two files, --sbs, --tb; every --every'th frame) or a live camera
// (--camera, --uvc; a view whenever the board is seen by both cameras somewhere new, until
// --views), calibrated into --output (OpenCV YAML for --calib) and a report printed and written
// beside it (NAME.report.txt for NAME.yaml). `args` are the words after "calibrate". Returns the exit code:
// 0, 1 (bad input or a failed calibration, with one line saying why; nothing written) or 2 (a
// malformed command line).
int run_calibrate_command(const std::vector<std::string>& args, std::ostream& out,
                          std::ostream& err);

// The --help text of `stereoview calibrate`.
std::string calibrate_usage_text();

}  // namespace sv
