#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/core/colorize.h"
#include "src/core/image.h"
#include "src/io/disparity_u16_encoding.h"
#include "src/io/notice_sink.h"
#include "src/io/recording_format.h"

namespace sv {

// One frame handed to a recording: owned copies, so the frame loop can move on at once. Only
// what the format needs must be filled (left/right for Raw and SideBySide, the float disparity
// for Color and SideBySide, the fixed-point one for Lossless16).
struct RecordingFrame {
  int64_t index = 0;         // the source's frame number
  double timestamp_s = 0.0;  // the source's time stamp
  ImageRgb8 left;
  ImageRgb8 right;
  ImageF32 disparity;
  ImageI16 disparity_fixed;
};

struct RecordingEncoderSettings {
  std::string path;
  RecordingFormat format = RecordingFormat::Color;
  std::string codec;  // FFmpeg encoder name; empty: default_codec_for() the format
  double frames_per_second = 30.0;
  Colormap colormap = Colormap::Turbo;
  float color_min = 0.0f;  // the disparity range the colormap spans, px
  float color_max = 64.0f;
  DisparityU16Encoding u16_encoding;
};

// Turns recording frames into a file of one format. The file is created by the first write(),
// when the frame size is known. Errors are RuntimeErrors naming the file; after one, call
// finish_after_error() to keep what is on disk valid.
class RecordingEncoder {
 public:
  virtual ~RecordingEncoder() = default;
  virtual void write(const RecordingFrame& frame) = 0;
  virtual void finish() = 0;
  virtual void finish_after_error() noexcept = 0;
  virtual int64_t bytes_written() const = 0;
  // e.g. "libx264 in mp4, 640x480"; empty before the first frame.
  virtual std::string describe() const = 0;
  // Size of the frames stored (after any padding) and the codec in use.
  virtual int stored_width() const = 0;
  virtual int stored_height() const = 0;
  virtual std::string codec() const = 0;
  // Pixels whose disparity did not fit the 16-bit encoding (Lossless16 only; normally 0).
  virtual int64_t clamped_pixels() const { return 0; }
};

// The encoder for settings.format: FFmpeg video for everything, except Lossless16 to a path
// ending in .png, which writes a 16-bit PNG sequence (path "d.png" gives d_000000.png,
// d_000001.png, ...). `notices` hears about
// fallbacks (no H.264 encoder). Throws RuntimeError for a codec this build lacks.
std::unique_ptr<RecordingEncoder> make_recording_encoder(const RecordingEncoderSettings& settings,
                                                         NoticeSink notices = {});

// The file name of frame `n` of a PNG sequence recording named `path` (see above).
std::string png_sequence_frame_path(const std::string& path, int64_t n);

}  // namespace sv
