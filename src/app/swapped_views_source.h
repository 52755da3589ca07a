#pragma once

#include <memory>

#include "src/core/frame_source.h"

namespace sv {

// --swap-views: the view a source delivers as left is used as the right one and the other way
// round (a rig whose camera named left is mounted on the right), for every plane of the pair.
// It wraps the raw source, before any rectification (which then knows, see StereoRectifier).
class SwappedViewsSource : public FrameSource {
 public:
  explicit SwappedViewsSource(std::unique_ptr<FrameSource> inner) : inner_(std::move(inner)) {}

  std::string describe() const override { return inner_->describe() + ", views swapped"; }
  bool is_live() const override { return inner_->is_live(); }
  int64_t frame_count() const override { return inner_->frame_count(); }
  double frames_per_second() const override { return inner_->frames_per_second(); }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override { return inner_->seek(index); }

 private:
  std::unique_ptr<FrameSource> inner_;
};

}  // namespace sv
