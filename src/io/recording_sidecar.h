#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/core/stereo_params.h"
#include "src/io/disparity_u16_encoding.h"
#include "src/io/recording_format.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Everything needed to use a recording later, written as JSON next to it (FILE.json): what was
// recorded and how, the parameters (as preset text and as key/value pairs), the calibration's
// geometry, how to turn stored values back into disparities, and each frame's source index and
// time stamp in file order.
struct RecordingSidecar {
  // The recording: the file written (a raw 16-bit recording asked for as .mp4 is .mkv), or for a
  // float raw recording the pattern of its left PFM files. The sidecar itself is always named
  // after the path asked for (sidecar_path_for), so it is found where it was promised.
  std::string file;
  RecordingFormat format = RecordingFormat::Color;
  std::string codec;
  // What one stored sample is (RecordingEncoder::sample_depth): "8-bit", "16-bit" or "float".
  // For raw recordings this is the source's depth, kept losslessly for 16-bit and float.
  std::string sample_depth = "8-bit";
  std::string replay;  // raw only: the source flags that play it back, e.g. "--sbs pair.mkv"
  int width = 0;  // stored frame size
  int height = 0;
  double frames_per_second = 30.0;
  std::string source;
  std::string engine;
  StereoParams params;
  std::string colormap;
  float color_min = 0.0f;
  float color_max = 0.0f;
  DisparityU16Encoding u16_encoding;
  std::string calibration_file;            // empty when none
  std::optional<StereoGeometry> geometry;  // from the calibration's Q, or the synthetic camera

  struct Frame {
    int64_t source_index = 0;
    double timestamp_s = 0.0;
  };
  std::vector<Frame> frames;  // frames written, in file order
  int64_t dropped_frames = 0;
  int64_t clamped_pixels = 0;
  std::string error;      // why the recording stopped early; empty when it ended normally
  bool complete = false;  // the recording was finished (not a snapshot taken while running)
};

// The sidecar's file name for a recording: "rec.mp4" -> "rec.mp4.json".
std::string sidecar_path_for(const std::string& recording_path);

// The JSON text, and writing it (atomically: a temp file renamed over the old one, so a reader
// never sees half a sidecar). RuntimeError naming the file when writing fails.
std::string sidecar_json(const RecordingSidecar& sidecar);
void write_sidecar(const std::string& path, const RecordingSidecar& sidecar);

}  // namespace sv
