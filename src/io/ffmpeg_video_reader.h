#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/image.h"

namespace sv {

class BlockPool;  // block_pool.h

// A video decoded through FFmpeg's libraries, frame by frame, as 8-bit RGB or as 16-bit gray
// with the stored values unchanged (what the lossless disparity recordings and the 16-bit raw
// recordings hold; OpenCV's VideoCapture would reduce them to 8 bits). A file cut short (a recording stopped by a full
// disk) reads up to its last whole frame and then ends, with truncated() saying so.
class FfmpegVideoReader {
 public:
  enum class Pixels { Rgb8, Gray16 };

  // InputError naming the file: missing, not a regular file (a FIFO would block), no video
  // stream, no decoder.
  FfmpegVideoReader(const std::string& path, Pixels pixels);
  ~FfmpegVideoReader();
  FfmpegVideoReader(const FfmpegVideoReader&) = delete;
  FfmpegVideoReader& operator=(const FfmpegVideoReader&) = delete;

  int width() const;
  int height() const;
  std::string codec_name() const;
  // The stream's own pixel format (e.g. "gray16le") and, when it is gray (one component, with or
  // without alpha), its bits per sample; 0 for colour formats. Gray16 readers deliver gray16le
  // and gray16be values unchanged; other gray depths are scaled onto 0..65535 by swscale.
  std::string pixel_format_name() const;
  int gray_bits() const;
  // The stream's frame rate (0 when unknown) and its frame count: the container's, else one
  // estimated from the duration and the rate as OpenCV does, else -1.
  double frames_per_second() const;
  int64_t frame_count() const;

  // The next frame, or nullopt at the end. Gray16 readers fill `gray16` (in a block of `pool`
  // when it gives one: block_pool.h), Rgb8 readers `rgb`.
  struct Frame {
    ImageRgb8 rgb;
    ImageU16 gray16;
    double timestamp_s = 0.0;  // presentation time from the stream (0 when it has none)
  };
  std::optional<Frame> read(BlockPool* pool = nullptr);

  // The file ended in the middle of its data (a read or decode error before the normal end).
  bool truncated() const { return truncated_; }

 private:
  struct Context;
  bool receive_frame(Frame& out, BlockPool* pool);

  std::string path_;
  Pixels pixels_;
  std::unique_ptr<Context> context_;
  bool draining_ = false;
  bool done_ = false;
  bool truncated_ = false;
};

// The bits per sample of the first video stream of `path` when its pixel format is gray (what
// gray_bits() says), 0 for colour video; nullopt when FFmpeg cannot open the file or find a
// decodable video stream in it, or it is not a regular file.
std::optional<int> video_gray_bits(const std::string& path);

}  // namespace sv
