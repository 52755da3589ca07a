#pragma once

#include <string>

#include "src/core/frame_source.h"

namespace sv {

// A single rectified image pair as a one-frame source. PGM/PPM are read by the core, other
// formats through the io layer when the build has OpenCV. Both images are read by the
// constructor, so a missing file or a size mismatch is reported before anything runs.
// 16-bit files (PNG, TIFF, PGM/PPM) keep their depth in StereoPair::left16 / right16 beside the 8-bit
// views; both files must then be 16-bit. Float files (PFM through the core's reader, 32-bit float
// TIFF through OpenCV) keep their values in StereoPair::leftf / rightf, the views being the pair's
// 8-bit range view (float_view_range); both files must then be float.
class StillPairSource : public FrameSource {
 public:
  // InputError naming the file (missing, undecodable, format this build cannot read) or giving
  // both sizes when they differ.
  StillPairSource(const std::string& left_path, const std::string& right_path);

  std::string describe() const override { return left_path_ + " | " + right_path_; }
  bool is_live() const override { return false; }
  int64_t frame_count() const override { return 1; }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

 private:
  std::string left_path_;
  std::string right_path_;
  StereoPair pair_;
  bool delivered_ = false;
};

}  // namespace sv
