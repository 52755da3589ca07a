#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/core/image.h"

namespace sv {

// One video file read frame by frame through OpenCV's FFmpeg backend, with every failure turned
// into a message that names the file. The first frame is decoded when the file is opened, so a
// file that opens but holds nothing decodable is refused right away.
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
  // frame changes size mid-stream.
  struct Frame {
    ImageRgb8 image;
    double timestamp_s = 0.0;
  };
  std::optional<Frame> read();

  // True when read() reached the end before frame_count() frames: a truncated or damaged file.
  bool ended_early() const { return ended_ && frame_count_ > 0 && position_ < frame_count_; }

  // Moves so that the next read() returns frame `index`; false when the index is out of range or
  // the backend cannot seek in this file.
  bool seek(int64_t index);

 private:
  struct Capture;
  std::string path_;
  std::unique_ptr<Capture> capture_;
  std::optional<Frame> pending_;  // the frame decoded ahead (the first one, at open)
  int width_ = 0;
  int height_ = 0;
  int64_t frame_count_ = -1;
  double fps_ = 0.0;
  int64_t position_ = 0;
  bool ended_ = false;
};

// True when the file name ends in an extension of a video container this project reads
// (avi, mp4, mkv, mov, webm, m4v, mpg, mpeg, wmv, flv, ts, mts, ogv), case-insensitively.
bool has_video_extension(const std::string& path);

}  // namespace sv
