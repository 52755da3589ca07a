#pragma once

#include <cstdint>

#include "src/core/image.h"
#include "src/core/stereo_params.h"
#include "src/core/temporal_filter_math.h"

namespace sv {

// The integer settings of StereoParams' temporal-* fields: alpha to 1/256 and delta to 1/16 px,
// rounded to nearest. The CUDA engine converts through this same function.
TemporalFilterSettings temporal_filter_settings(const StereoParams& params);

// Whether a history made with `before` may smooth a frame matched with `now`: every parameter
// but the temporal filter's own is the same. Otherwise (P2 changed, another algorithm) the
// engines start afresh, so a changed setting shows at once and whole, also on a still pair
// that is matched only once after the change.
bool same_matching(const StereoParams& before, const StereoParams& now);

// The temporal filter of a stream of disparity maps (temporal_filter_math.h has the rule): it
// holds the previous output and each pixel's hold age. A map of another size starts afresh
// (every pixel without history); so does reset().
class TemporalFilter {
 public:
  // Filters `disparity` (1/16 px fixed point) in place and remembers the result.
  void apply(ImageI16& disparity, const TemporalFilterSettings& settings);
  void reset();
  bool has_history() const { return !previous_.empty(); }

 private:
  ImageI16 previous_;
  ImageU8 age_;
};

}  // namespace sv
