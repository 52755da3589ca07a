#pragma once

#include <memory>
#include <string>

#include "src/core/frame_source.h"
#include "src/io/frame_conversion.h"
#include "src/io/notice_sink.h"

namespace sv {

class VideoFileReader;

// One video file whose frames carry both views, side by side or one above the other (what stereo
// webcams record). The layout is given or, with PackedLayout::Auto, read from the frame size
// (detect_packed_layout). Never drops a frame. A high bit depth gray video (VideoFileReader)
// gives pairs with left16 / right16 as well, cut the same way.
class PackedVideoSource : public FrameSource {
 public:
  // InputError: missing or undecodable file, a frame that cannot be split that way, or Auto on a
  // frame of ordinary proportions.
  PackedVideoSource(const std::string& path, PackedLayout layout, NoticeSink notices = {});
  ~PackedVideoSource() override;

  std::string describe() const override;
  bool is_live() const override { return false; }
  int64_t frame_count() const override;
  double frames_per_second() const override;
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

  PackedLayout layout() const { return layout_; }

 private:
  std::unique_ptr<VideoFileReader> video_;
  PackedLayout layout_;
  NoticeSink notices_;
  // How the file ended is told once per run, not again on each --loop pass after a seek.
  bool end_reported_ = false;
};

}  // namespace sv
