#pragma once

#include <memory>
#include <string>

#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

class VideoFileReader;

// Two video files, the left view and the right view, read in step. Pairs stop at the shorter
// file, with a notice that gives both lengths; a file that ends before the length its container
// announces (truncated or damaged) gets a notice too. Never drops a frame. Two high bit depth
// gray videos (VideoFileReader) give pairs with left16 / right16 as well.
class VideoPairSource : public FrameSource {
 public:
  // InputError: either file missing or undecodable, or the two of different frame sizes or
  // sample depths (one 8-bit, the other 16-bit).
  VideoPairSource(const std::string& left_path, const std::string& right_path,
                  NoticeSink notices = {});
  ~VideoPairSource() override;

  std::string describe() const override;
  bool is_live() const override { return false; }
  int64_t frame_count() const override;
  double frames_per_second() const override;
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

 private:
  std::unique_ptr<VideoFileReader> left_;
  std::unique_ptr<VideoFileReader> right_;
  NoticeSink notices_;
  // How the file ended is told once per run, not again on each --loop pass after a seek.
  bool end_reported_ = false;
};

}  // namespace sv
