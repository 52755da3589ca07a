#include "ui/colour_range_tracker.h"

#include <algorithm>

namespace sv {

namespace {

DisparityRange search_range(const StereoParams& params) {
  return {static_cast<float>(params.min_disparity),
          static_cast<float>(params.min_disparity + params.num_disparities - 1)};
}

// hi > lo, as the histogram and the colormap need.
DisparityRange widened(DisparityRange r) {
  if (!(r.hi > r.lo)) r.hi = r.lo + 1.0f;
  return r;
}

}  // namespace

DisparityRange display_range(const ColorRange& range, const StereoParams& params,
                             const ImageF32& disparity) {
  const DisparityRange search = search_range(params);
  switch (range.mode) {
    case ColorRangeMode::Fixed: return {range.fixed_min, range.fixed_max};
    case ColorRangeMode::Auto: return valid_range(disparity, search);
    case ColorRangeMode::SearchRange:
    case ColorRangeMode::Smoothed: break;
  }
  return search;
}

void ColourRangeTracker::update(const ColorRange& mode, const StereoParams& params,
                                const ImageF32& disparity, int64_t sequence, double now_s) {
  const bool new_frame = sequence != sequence_;
  if (mode.mode != mode_) smoother_.reset();
  mode_ = mode.mode;
  if (new_frame) {
    DisparityRange axis = search_range(params);
    const DisparityRange current = display_range(mode, params, disparity);
    axis.lo = std::min(axis.lo, current.lo);
    axis.hi = std::max(axis.hi, current.hi);
    histogram_ = make_histogram(disparity, widened(axis), kHistogramBins);
  }
  if (mode.mode != ColorRangeMode::Smoothed) {
    range_ = display_range(mode, params, disparity);
  } else if (new_frame || !smoother_.started()) {
    DisparityRange wanted{histogram_.percentile(kLowPercentile),
                          histogram_.percentile(kHighPercentile)};
    if (histogram_.valid() == 0) wanted = search_range(params);
    range_ = widened(smoother_.update(widened(wanted), now_s - last_frame_s_));
  }
  if (new_frame) {
    sequence_ = sequence;
    last_frame_s_ = now_s;
  }
}

}  // namespace sv
