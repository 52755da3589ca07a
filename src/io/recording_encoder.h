#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/colorize.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"
#include "src/io/disparity_u16_encoding.h"
#include "src/io/notice_sink.h"
#include "src/io/recording_format.h"

namespace sv {

// One frame handed to a recording: owned copies, so the frame loop can move on at once. Only
// what the format needs must be filled (left/right for Raw and SideBySide, the float disparity
// for Color and SideBySide, the fixed-point one for Lossless16). For Raw, the full-depth planes
// of a 16-bit or float source (StereoPair::left16 / leftf) are recorded instead of the views
// when they are filled.
struct RecordingFrame {
  int64_t index = 0;         // the source's frame number
  double timestamp_s = 0.0;  // the source's time stamp
  // What the frame was computed with, when it may differ from what the recording started with
  // (the viewer changes parameters live); the sidecar lists each change at its frame.
  std::optional<StereoParams> params;
  std::string engine;  // empty: the recording's engine
  ImageRgb8 left;
  ImageRgb8 right;
  ImageF32 disparity;
  ImageI16 disparity_fixed;
  // Color and SideBySide: a picture recorded as it is instead of the colorized disparity (the
  // viewer's A/B difference view, coloured as shown).
  ImageRgb8 picture;
  ImageU16 left16, right16;  // Raw of a 16-bit source
  ImageF32 leftf, rightf;    // Raw of a float source
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
  // The frames wholly on disk, in order: exactly what a decoder (or an image reader) gets back,
  // also after a failure. An encoder may commit a frame later than its write() (none here do).
  virtual int64_t frames_committed() const = 0;
  // Whether the recording exists on disk (false before the first frame, or when it could not be
  // created).
  virtual bool has_file() const = 0;
  virtual int64_t bytes_written() const = 0;
  // e.g. "libx264 in mp4, 640x480"; empty before the first frame.
  virtual std::string describe() const = 0;
  // Size of the frames stored (after any padding) and the codec in use.
  virtual int stored_width() const = 0;
  virtual int stored_height() const = 0;
  virtual std::string codec() const = 0;
  // Pixels whose disparity did not fit the 16-bit encoding (Lossless16 only; normally 0).
  virtual int64_t clamped_pixels() const { return 0; }
  // Where the frames went when that is not the settings' path (empty otherwise): a raw recording
  // of a 16-bit source into a container FFV1 does not fit ("pair.mp4" -> "pair.mkv"), or of a
  // float source (a PFM pattern, "pair_left_%06d.pfm"). Known after the first write.
  virtual std::string file() const { return ""; }
  // What one stored sample is: "8-bit" (colour video, the raw 8-bit views), "16-bit" (Lossless16,
  // the raw pair of a 16-bit source) or "float" (the raw pair of a float source).
  virtual std::string sample_depth() const { return "8-bit"; }
  // For Raw: the source flags that play the recording back (e.g. "--sbs pair.mkv"); else empty.
  virtual std::string replay_flags() const { return ""; }
};

// The encoder for settings.format: FFmpeg video for everything, except Lossless16 to a path
// ending in .png, which writes a 16-bit PNG sequence (path "d.png" gives d_000000.png,
// d_000001.png, ...); each PNG (and PFM) file appears whole or not at all. `notices` hears about
// fallbacks (no H.264 encoder). Checks the settings first (check_recording_destination).
//
// Raw keeps the source's depth, decided by the first frame:
//   8-bit   the views side by side in the settings' codec (H.264 by default), replayed by --sbs;
//   16-bit  left16 | right16 side by side as gray16le, FFV1 unless a codec is named, losslessly;
//           a name whose container cannot hold the codec (.mp4, .mov for FFV1) is written as
//           Matroska beside it ("pair.mp4" -> "pair.mkv"); replayed by --sbs at full depth;
//   float   no FFmpeg codec holds float samples, so each view of each frame is a PFM file, bit
//           exact (NaN included): "rec/pair.mp4" (or "rec/pair.pfm") -> rec/pair_left_000000.pfm,
//           rec/pair_right_000000.pfm, ...; replayed by --left rec/pair_left_%06d.pfm
//           --right rec/pair_right_%06d.pfm (image sequences keep float frames).
// A .pfm name takes only float sources (RuntimeError at the first frame otherwise).
std::unique_ptr<RecordingEncoder> make_recording_encoder(const RecordingEncoderSettings& settings,
                                                         NoticeSink notices = {});

// Everything about a recording that can be known before its first frame, so a bad choice fails
// at once rather than after the first frame was computed: the format against the file name
// (.png only for lossless16, .pfm only for raw), the codec (in this build, in the container,
// storing the format's samples, opening at a probe size), the folder (created with its parents)
// and that the recording and its sidecar can be created there. RuntimeError with the reason.
void check_recording_destination(const RecordingEncoderSettings& settings);

// The file name of frame `n` of a PNG sequence recording named `path` (see above).
std::string png_sequence_frame_path(const std::string& path, int64_t n);

// The file of view `view` ("left" or "right") of frame `n` of a float raw recording named `path`
// (see above); n < 0 gives the printf pattern of the sequence ("..._left_%06d.pfm").
std::string float_pair_frame_path(const std::string& path, const std::string& view, int64_t n);

}  // namespace sv
