#pragma once

#include <string>
#include <vector>

#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// The files an image sequence names, in playback order. `spec` is one of:
//   - a printf pattern with one integer conversion (%d, %4d, %04d) in the file name, e.g.
//     "rec/left_%04d.png": every file of that folder matching it, in numeric order (gaps allowed);
//   - a folder: every image file in it (png, jpg, jpeg, jpe, jp2, bmp, dib, webp, pbm, pgm, ppm,
//     pnm, pxm, pfm, tif, tiff, hdr, pic, sr, ras: what a single image file may be), in natural
//     order (frame2 before frame10);
//   - a single image file.
// InputError when nothing matches, the folder is missing, or the pattern is malformed.
std::vector<std::string> list_image_sequence(const std::string& spec);

// True when `spec` is a printf pattern list_image_sequence understands.
bool is_sequence_pattern(const std::string& spec);

// Two image sequences (left, right), paired by position; with lists of different lengths the
// pairs stop at the shorter, with a notice. 16-bit and float images keep their values in the
// pair's full-depth planes. Images are read when delivered; a file that has become
// unreadable, or a pair of different sizes, is an InputError naming the file. Never drops a frame.
class ImageSequenceSource : public FrameSource {
 public:
  // `frames_per_second`: the pace for playback at the source's rate (sequences carry none).
  ImageSequenceSource(const std::string& left_spec, const std::string& right_spec,
                      NoticeSink notices = {}, double frames_per_second = 30.0);

  std::string describe() const override;
  bool is_live() const override { return false; }
  int64_t frame_count() const override { return static_cast<int64_t>(left_.size()); }
  double frames_per_second() const override { return fps_; }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

 private:
  std::string left_spec_;
  std::string right_spec_;
  std::vector<std::string> left_;
  std::vector<std::string> right_;
  double fps_;
  int64_t next_index_ = 0;
};

}  // namespace sv
