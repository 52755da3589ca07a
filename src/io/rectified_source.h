#pragma once

#include <memory>
#include <string>

#include "src/core/frame_source.h"
#include "src/core/remap_handoff.h"
#include "src/io/notice_sink.h"
#include "src/io/stereo_calibration.h"
#include "src/io/stereo_rectifier.h"

namespace sv {

// Rectifies the pairs of another source on the CPU, on the thread that calls next() (the capture
// thread, for the CPU engine). The rectifier is built at the first pair's size and rebuilt when
// the size changes; a calibration that does not fit the size is an InputError with both sizes.
// Every pair it remaps carries a RemapHandoff (remap_handoff.h) with the maps: once the frame
// loop says through it that its engine remaps (the CUDA engine), pairs pass through RAW, marked
// needs_remap, and the engine rectifies them on the GPU (a 16-bit or float pair's planes with its
// colour views, FrameRequest::views). Planes of another size than the views are refused here.
// `views_swapped`: `raw` exchanges its views (--swap-views); see StereoRectifier.
class RectifiedSource : public FrameSource {
 public:
  RectifiedSource(std::unique_ptr<FrameSource> raw, StereoCalibration calibration,
                  double alpha = 0.0, NoticeSink notices = {}, bool views_swapped = false);

  std::string describe() const override;
  bool is_live() const override { return raw_->is_live(); }
  int64_t frame_count() const override { return raw_->frame_count(); }
  double frames_per_second() const override { return raw_->frames_per_second(); }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override { return raw_->seek(index); }
  // The raw pairs go into the pool's blocks; the host remap writes views of their own.
  void use_pair_memory(std::shared_ptr<BlockPool> pool) override {
    raw_->use_pair_memory(std::move(pool));
  }

  // The rectifier of the last pair (null before the first): its maps for a GPU remap, and Q.
  const StereoRectifier* rectifier() const { return rectifier_.get(); }

 private:
  std::unique_ptr<FrameSource> raw_;
  StereoCalibration calibration_;
  double alpha_;
  NoticeSink notices_;
  bool views_swapped_;
  std::unique_ptr<StereoRectifier> rectifier_;
  std::shared_ptr<RemapHandoff> handoff_;  // with the rectifier's maps
};

}  // namespace sv
