#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/image.h"

namespace sv {

class BlockPool;  // block_pool.h

// One video file read frame by frame through OpenCV's FFmpeg backend, with every failure turned
// into a message that names the file. The first frame is decoded when the file is opened, so a
// file that opens but holds nothing decodable is refused right away.
//
// A video whose pixel format is gray of more than 8 bits (FFV1 gray16le, what the raw recording
// of a 16-bit source writes; gray10le, gray12le...) is read through FfmpegVideoReader instead,
// since OpenCV would cut it to 8 bits: its frames carry the 16-bit values (gray16; other depths
// scaled onto 0..65535) and, as `image`, their 8-bit view (the high byte, high_bit_depth.h), as
// 16-bit image files do. Seeking in such a file decodes from its start. Without FFmpeg's
// libraries at build time (no recording either) every video is read at 8 bits. No float video
// exists: Debian 12's FFmpeg has no codec with float gray samples (FFV1 and the others stop at
// 16-bit integers), so float data travels as PFM / TIFF sequences.
class VideoFileReader {
 public:
  // InputError: missing or unreadable file, no decoder for its container/codec, no frame.
  explicit VideoFileReader(const std::string& path);
  ~VideoFileReader();
  VideoFileReader(const VideoFileReader&) = delete;
  VideoFileReader& operator=(const VideoFileReader&) = delete;

  const std::string& path() const { return path_; }
  int width() const { return width_; }
  int height() const { return height_; }
  // Frames the container announces (-1 when it does not say); a damaged file may hold fewer.
  int64_t frame_count() const { return frame_count_; }
  double frames_per_second() const { return fps_; }
  // Index of the frame the next read() returns.
  int64_t position() const { return position_; }

  // The next frame and its presentation time, or nullopt at the end of the file. InputError when a
  // frame changes size mid-stream. 8-bit frames are converted into a block of `pool` while it
  // has a free one (block_pool.h), except the first, decoded when the file was opened.
  struct Frame {
    ImageRgb8 image;   // for a high bit depth video: the 8-bit view of gray16
    ImageU16 gray16;   // the full-depth gray of a high bit depth video, else empty
    double timestamp_s = 0.0;
  };
  std::optional<Frame> read(BlockPool* pool = nullptr);

  // True when the frames carry gray16 (see above); gray_bits() is the stream's own depth then.
  bool high_bit_depth() const { return gray_bits_ > 8; }
  int gray_bits() const { return gray_bits_; }

  // True when read() reached the end before frame_count() frames: a truncated or damaged file.
  bool ended_early() const { return ended_ && frame_count_ > 0 && position_ < frame_count_; }

  // Moves so that the next read() returns frame `index`; false when the index is out of range or
  // the backend cannot seek in this file.
  bool seek(int64_t index);

 private:
  struct Capture;
  bool open_full_depth();
  std::optional<Frame> read_full_depth(BlockPool* pool = nullptr);
  bool seek_full_depth(int64_t index);

  std::string path_;
  std::unique_ptr<Capture> capture_;
  std::optional<Frame> pending_;  // the frame decoded ahead (the first one, at open)
  int width_ = 0;
  int height_ = 0;
  int64_t frame_count_ = -1;
  double fps_ = 0.0;
  int64_t position_ = 0;
  bool ended_ = false;
  int gray_bits_ = 8;
};

// True when the file name ends in an extension of a video container this project reads
// (avi, mp4, mkv, mov, webm, m4v, mpg, mpeg, wmv, flv, ts, mts, ogv), case-insensitively.
bool has_video_extension(const std::string& path);

}  // namespace sv
