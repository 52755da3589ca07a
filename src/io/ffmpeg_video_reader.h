#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/image.h"

namespace sv {

// A video decoded through FFmpeg's libraries, frame by frame, as 8-bit RGB or as 16-bit gray
// with the stored values unchanged (what the lossless disparity recordings hold; OpenCV's
// VideoCapture would reduce them to 8 bits). A file cut short (a recording stopped by a full
// disk) reads up to its last whole frame and then ends, with truncated() saying so.
class FfmpegVideoReader {
 public:
  enum class Pixels { Rgb8, Gray16 };

  // InputError naming the file: missing, no video stream, no decoder.
  FfmpegVideoReader(const std::string& path, Pixels pixels);
  ~FfmpegVideoReader();
  FfmpegVideoReader(const FfmpegVideoReader&) = delete;
  FfmpegVideoReader& operator=(const FfmpegVideoReader&) = delete;

  int width() const;
  int height() const;
  std::string codec_name() const;

  // The next frame, or nullopt at the end. Gray16 readers fill `gray16`, Rgb8 readers `rgb`.
  struct Frame {
    ImageRgb8 rgb;
    ImageU16 gray16;
  };
  std::optional<Frame> read();

  // The file ended in the middle of its data (a read or decode error before the normal end).
  bool truncated() const { return truncated_; }

 private:
  struct Context;
  bool receive_frame(Frame& out);

  std::string path_;
  Pixels pixels_;
  std::unique_ptr<Context> context_;
  bool draining_ = false;
  bool done_ = false;
  bool truncated_ = false;
};

}  // namespace sv
