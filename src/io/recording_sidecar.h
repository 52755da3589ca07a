#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/stereo_params.h"
#include "src/io/disparity_u16_encoding.h"
#include "src/io/recording_format.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Why a recording ended: the sidecar's "stop_reason", with the message of an error.
struct RecordingStop {
  enum class Reason {
    EndOfSource,      // the file or sequence ran out
    FrameLimit,       // --frames was reached
    StoppedByUser,    // R, a script's `record stop`, closing the viewer, Recorder::stop()
    Interrupted,      // SIGINT or SIGTERM (`signal`)
    SourceError,      // the source failed (`message`)
    ProcessingError,  // computing or writing the run's other outputs failed (`message`)
    RecordingError,   // the recording itself failed: a full disk, a refused frame (`message`)
  };
  Reason reason = Reason::StoppedByUser;
  int signal = 0;
  std::string message;

  // The text in the sidecar: "end of source", "frame limit", "stopped by the user",
  // "interrupted by SIGINT", "interrupted by SIGTERM", "source error", "processing error",
  // "recording error".
  std::string text() const;
  // False for the three errors: the recording then lacks frames the run meant to give it.
  bool clean() const;
};

// Everything needed to use a recording later, written as JSON next to it (FILE.json): what was
// recorded and how, the parameters (as preset text and as key/value pairs), the calibration's
// geometry, how to turn stored values back into disparities, each frame's source index and
// time stamp in file order, every parameter change with the frame it took effect at, and how
// the recording ended. `frames` lists exactly the frames in the file (the committed ones).
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
  int width = 0;       // stored frame size
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
  // Set when the frames are the viewer's A/B difference view (its |A - B| at the brightest
  // colour, px) rather than a disparity: "view": "difference" and how to read it.
  std::optional<float> difference_scale;

  struct Frame {
    int64_t source_index = 0;
    double timestamp_s = 0.0;
  };
  std::vector<Frame> frames;  // frames in the file, in file order
  // The parameters (param_table() keys and values) and engine that changed from frame
  // `file_index` on; `params` and `engine` above are those of the first frame.
  struct ParameterChange {
    int64_t file_index = 0;
    int64_t source_index = 0;
    std::vector<std::pair<std::string, std::string>> values;
    std::string engine;  // empty when the engine stayed
  };
  std::vector<ParameterChange> parameter_changes;
  int64_t dropped_frames = 0;
  int64_t clamped_pixels = 0;
  // How it ended; nullopt while it runs (the sidecar rewritten during a recording, which is
  // what a killed process leaves).
  std::optional<RecordingStop> stop;
};

// The changes from `before` to `after` as param_table() key/value pairs (empty when equal).
std::vector<std::pair<std::string, std::string>> changed_parameters(const StereoParams& before,
                                                                    const StereoParams& after);

// The sidecar's file name for a recording: "rec.mp4" -> "rec.mp4.json".
std::string sidecar_path_for(const std::string& recording_path);

// The JSON text, and writing it (write_file_atomically: a reader never sees half a sidecar).
// RuntimeError naming the file and the reason when writing fails.
std::string sidecar_json(const RecordingSidecar& sidecar);
void write_sidecar(const std::string& path, const RecordingSidecar& sidecar);

}  // namespace sv
