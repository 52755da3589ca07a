#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/core/image.h"

namespace sv {

// What a video file is made of: the container comes from the file name's extension, the codec is
// an FFmpeg encoder name ("libx264", "mpeg4", "ffv1", "mjpeg", ...).
struct VideoWriterSettings {
  std::string path;
  std::string codec;  // FFmpeg encoder name; see default_codec_for()
  int width = 0;      // of the images written; odd sizes are padded for 4:2:0 codecs
  int height = 0;
  double frames_per_second = 30.0;
  bool gray16 = false;  // frames are 16-bit gray (needs a codec with gray16le, e.g. ffv1)
};

// A video file written through FFmpeg's libraries (libavformat / libavcodec) directly rather than
// through OpenCV's VideoWriter, because recording must notice a failed write (disk full, a file
// size limit) the moment it happens, and OpenCV's write() returns nothing. Every frame's packets
// are flushed to the file before write() returns, so bytes_written() is the size on disk and an
// error is never held back in a buffer. MP4/MOV files are written fragmented (a moov up front, a
// fragment per second), so a file cut short by a failure stays playable up to its last whole
// fragment; Matroska is playable up to its last whole frame by design.
class FfmpegVideoWriter {
 public:
  // RuntimeError naming the file: unknown container, codec missing from this FFmpeg build,
  // codec the container cannot hold, codec refusing the size or pixel format, file not writable.
  explicit FfmpegVideoWriter(const VideoWriterSettings& settings);
  // Finishes the file when finish() was not called (errors are swallowed there).
  ~FfmpegVideoWriter();
  FfmpegVideoWriter(const FfmpegVideoWriter&) = delete;
  FfmpegVideoWriter& operator=(const FfmpegVideoWriter&) = delete;

  // One frame of the size given at construction. RuntimeError on a failed encode or write; the
  // writer is then broken: call finish_after_error() to keep what is on disk.
  void write(const ImageRgb8& image);
  void write(const ImageU16& image);

  // Flushes the encoder and writes the container's trailer. RuntimeError when that fails.
  void finish();
  // After a failure: tries to finish the container, ignoring further errors, and closes the file.
  void finish_after_error() noexcept;

  const std::string& path() const { return settings_.path; }
  const std::string& codec() const { return settings_.codec; }
  int64_t frames_written() const { return frames_written_; }
  int64_t bytes_written() const;
  // The size the codec encodes: width/height rounded up to even for 4:2:0 codecs (the extra
  // column or row repeats the last one).
  int encoded_width() const;
  int encoded_height() const;

 private:
  struct Context;
  void encode_input_frame();
  void drain_packets(bool flushing);

  VideoWriterSettings settings_;
  std::unique_ptr<Context> context_;
  int64_t frames_written_ = 0;
  bool finished_ = false;
};

// The encoder used when the user names none: "libx264" (H.264) for colour video when this FFmpeg
// build has it, else "mpeg4" (with `note` saying so); "ffv1" for gray16.
std::string default_codec_for(bool gray16, std::string* note = nullptr);

// True when this FFmpeg build has an encoder of that name.
bool has_video_encoder(const std::string& name);

}  // namespace sv
