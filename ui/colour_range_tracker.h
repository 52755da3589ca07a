#pragma once

#include <cstdint>

#include "src/core/disparity_histogram.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"
#include "ui/viewer_settings.h"

namespace sv {

using DisparityRange = ValueRange;

// The disparities mapped onto the colormap's ends. Search range: [min-disparity,
// min-disparity + disparities - 1], what the engine can return, so colours stay put while a
// scene moves. Auto: the frame's valid minimum and maximum (the search range when none is
// valid). Fixed: what the user typed (or dragged on the histogram). Smoothed is stateful: see
// ColourRangeTracker; here it gives the search range.
DisparityRange display_range(const ColorRange& range, const StereoParams& params,
                             const ImageF32& disparity);

// The colour range of each frame shown and the histogram it is drawn on. The histogram spans
// the search range (widened to hold the colour range) in kHistogramBins bins. Smoothed: the
// frame's 1st to 99th percentile, approached with a time constant of kSmoothingSeconds
// (RangeSmoother), so one frame's outliers do not make every colour jump.
class ColourRangeTracker {
 public:
  static constexpr int kHistogramBins = 128;
  static constexpr double kSmoothingSeconds = 0.5;
  static constexpr double kLowPercentile = 0.01, kHighPercentile = 0.99;

  // Once per GL frame. A new `sequence` (a new result) rebuilds the histogram and moves the
  // smoothed range by the time since the previous one (`now_s`, seconds on any steady clock);
  // other modes, and a change of mode, take effect at once.
  void update(const ColorRange& mode, const StereoParams& params, const ImageF32& disparity,
              int64_t sequence, double now_s);
  DisparityRange range() const { return range_; }
  const Histogram& histogram() const { return histogram_; }

 private:
  DisparityRange range_;
  Histogram histogram_;
  RangeSmoother smoother_{kSmoothingSeconds};
  int64_t sequence_ = -1;
  double last_frame_s_ = 0.0;
  ColorRangeMode mode_ = ColorRangeMode::SearchRange;
};

}  // namespace sv
