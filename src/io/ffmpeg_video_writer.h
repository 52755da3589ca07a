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
// size limit) the moment it happens, and OpenCV's write() returns nothing.
//
// Every frame is committed before write() returns: the encoder makes no B-frames and keeps no
// look-ahead (so its packets come out in display order, one per frame, at once), each packet is
// closed into the file on its own (a fragment of its own in MP4/MOV, a cluster in Matroska) and
// flushed to the disk. A failed write truncates the file back to the end of the last committed
// frame, so frames_committed() is exactly the number of frames a decoder gets back from it.
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

  // Flushes the encoder and writes the container's trailer. RuntimeError when that fails (the
  // file is then cut back to its last committed frame, which all stay readable).
  void finish();
  // After a failure: finishes the container where the disk still takes it, else cuts the file
  // back to its last committed frame; closes the file.
  void finish_after_error() noexcept;

  const std::string& path() const { return settings_.path; }
  const std::string& codec() const { return settings_.codec; }
  // Frames wholly in the file, in order: what a decoder gets back.
  int64_t frames_committed() const { return frames_committed_; }
  int64_t bytes_written() const;
  // The size the codec encodes: width/height rounded up to even for 4:2:0 codecs (the extra
  // column or row repeats the last one).
  int encoded_width() const;
  int encoded_height() const;

 private:
  struct Context;
  void encode_input_frame();
  void drain_packets();
  void commit_packet();
  [[noreturn]] void fail_writing(const std::string& what, int code);
  void cut_back_to_committed() noexcept;

  VideoWriterSettings settings_;
  std::unique_ptr<Context> context_;
  int64_t frames_written_ = 0;
  int64_t frames_committed_ = 0;
  int64_t bytes_committed_ = 0;
  bool write_failed_ = false;  // a write to the file failed: nothing more may go in
  bool finished_ = false;
};

// Everything the constructor checks, without creating the file: the container for the name,
// the encoder, the container holding it, the pixel format, and the encoder opening at the
// settings' size (at a small probe size when none is given yet). RuntimeError as the
// constructor's.
void check_video_writer_settings(const VideoWriterSettings& settings);

// The encoder used when the user names none: "libx264" (H.264) for colour video when this FFmpeg
// build has it, else "mpeg4" (with `note` saying so); "ffv1" for gray16.
std::string default_codec_for(bool gray16, std::string* note = nullptr);

// True when this FFmpeg build has an encoder of that name.
bool has_video_encoder(const std::string& name);

}  // namespace sv
