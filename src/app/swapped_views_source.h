#pragma once

#include <memory>

#include "src/core/frame_source.h"

namespace sv {

// --swap-views: the view a source delivers as left is used as the right one and the other way
// round (a rig whose camera named left is mounted on the right), for every plane of the pair.
// It wraps the raw source, before any rectification (which then knows, see StereoRectifier).
class SwappedViewsSource : public WrappingSource {
 public:
  using WrappingSource::WrappingSource;

  std::string describe() const override { return inner_->describe() + ", views swapped"; }
  std::optional<StereoPair> next() override;
};

}  // namespace sv
