#pragma once

#include "src/core/cost_volume.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

// Per pixel, the two costs the peak ratio and the matching score read, as float (exact for
// costs below 2^24, rounded the same way on every engine above). +inf stands for "none".
struct CostPeaks {
  ImageF32 best;       // the winner's cost (as winner_takes_all picks it)
  ImageF32 runner_up;  // the lowest real cost more than one candidate away from the winner
};

// The cost volume's peaks. Defined for uint8_t, uint16_t, uint32_t and float costs.
// Multi-threaded over rows. EXACT DEFINITION in confidence.cpp.
template <typename T>
CostPeaks cost_peaks(const CostVolume<T>& costs);

// Local texture: mean absolute deviation of the gray levels in a window_width x window_height
// window (odd sizes, border replicated) from the window's mean. Throws InputError for even or
// non-positive sizes.
ImageF32 texture_deviation(const ImageU8& image, int window_width, int window_height);

struct ConfidenceSettings {
  float cost_ceiling = 1.0f;  // matching score: the worst cost the pipeline can give
  // Feature density reaches 1 at this mean deviation (gray levels): about sensor noise, so only
  // truly flat windows lose confidence. On Middlebury with census-SGM, 1 and 2 trade density for
  // bad pixels alike; 4 and above mostly drop correct low-texture matches (docs/accuracy.md).
  float texture_saturation = 2.0f;
  int lr_max_diff = 1;           // scale of the left-right term, px
  int texture_window_width = 9;  // the matching window, odd
  int texture_window_height = 7;
};

// The settings of the pipeline's parameters: the cost ceiling and texture window of the
// algorithm's matching cost, the LR tolerance.
ConfidenceSettings confidence_settings(const StereoParams& params);

// Whether the parameters ask for the confidence (to show, to threshold or to repair with).
bool wants_confidence(const StereoParams& params);

// Combined confidence in [0, 1] of every left pixel of the selected (and LR-checked) disparity:
// peak ratio x matching score x feature density x left-right consistency, 0 where the disparity
// is invalid. `right_view` (fixed point, as right_view_disparity) may be empty: no LR term.
// Throws InputError for images of different sizes or a non-positive ceiling or saturation.
// EXACT DEFINITION in confidence.cpp.
ImageF32 combined_confidence(const ImageI16& disparity_fixed, const CostPeaks& peaks,
                             const ImageF32& texture, const ImageI16& right_view,
                             const ConfidenceSettings& settings);

// Invalidates every disparity whose confidence is below `threshold` (0 = off); the confidence
// image is left as it is. Throws InputError for different sizes or a threshold outside 0..1.
void apply_confidence_threshold(ImageI16& disparity_fixed, const ImageF32& confidence,
                                float threshold);

}  // namespace sv
