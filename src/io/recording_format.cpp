#include "src/io/recording_format.h"

#include "src/core/error.h"

namespace sv {

RecordingFormat parse_recording_format(const std::string& name) {
  if (name == "color" || name == "colour") return RecordingFormat::Color;
  if (name == "lossless16") return RecordingFormat::Lossless16;
  if (name == "raw") return RecordingFormat::Raw;
  if (name == "side-by-side") return RecordingFormat::SideBySide;
  throw InputError("unknown recording format \"" + name +
                   "\" (known: color, lossless16, raw, side-by-side)");
}

const char* recording_format_name(RecordingFormat format) {
  switch (format) {
    case RecordingFormat::Color: return "color";
    case RecordingFormat::Lossless16: return "lossless16";
    case RecordingFormat::Raw: return "raw";
    case RecordingFormat::SideBySide: return "side-by-side";
  }
  return "color";
}

const char* default_recording_file_name(RecordingFormat format) {
  switch (format) {
    case RecordingFormat::Color: return "disparity.mp4";
    case RecordingFormat::Lossless16: return "disparity16.mkv";
    case RecordingFormat::Raw: return "stereo_pair.mp4";
    case RecordingFormat::SideBySide: return "left_disparity.mp4";
  }
  return "disparity.mp4";
}

}  // namespace sv
