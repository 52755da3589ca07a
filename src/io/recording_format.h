#pragma once

#include <string>

namespace sv {

// What a recording holds (--record-format, the viewer's choice):
//   Color       the colorized disparity, as the viewer shows it (H.264 in MP4 by default)
//   Lossless16  the exact fixed-point disparity as 16-bit gray (FFV1 in Matroska, or a 16-bit
//               PNG sequence when the file name ends in .png)
//   Raw         the input pair side by side, replayable with --sbs
//   SideBySide  left view | colorized disparity, for showing results
enum class RecordingFormat { Color, Lossless16, Raw, SideBySide };

// "color", "lossless16", "raw", "side-by-side"; InputError listing them otherwise.
RecordingFormat parse_recording_format(const std::string& name);
const char* recording_format_name(RecordingFormat format);
// The file name used when the user gives a folder or nothing: "disparity.mp4", ...
const char* default_recording_file_name(RecordingFormat format);

}  // namespace sv
