#pragma once

#include "src/core/cost_volume.h"
#include "src/core/stereo_params.h"

namespace sv {

// The min-sum cost-to-message transform of ESMP (Yu et al. 2009, eqs. 13 and 17-21) with the
// truncated linear smoothness V(x) = min(slope * |x|, cap):
//   M(d) = min over d' of (C(d') + V(d - d')), d and d' candidate indices of one pixel.
struct MessageSettings {
  float slope = 1.0f;  // c >= 0, cost per px of disparity change
  float cap = 2.0f;    // eta >= 0, the most any disparity change costs
};

// ESMP's smoothness of `params`: eta is relative to the full search range, so it is the same at
// every pyramid level.
inline MessageSettings esmp_message_settings(const StereoParams& params) {
  MessageSettings s;
  s.slope = params.esmp_c;
  s.cap = params.esmp_eta * static_cast<float>(params.num_disparities);
  return s;
}

// One pixel's `count` values, in place, by the fast two-pass algorithm (O(count)).
// EXACT DEFINITION in esmp_messages.cpp.
void cost_to_message(float* values, int count, const MessageSettings& settings);

// Every pixel of the volume, in place; multi-threaded over rows. Throws InputError for a
// negative or non-finite slope or cap.
void cost_to_message(CostVolume<float>& volume, const MessageSettings& settings);

// Throws InputError naming a negative or non-finite slope or cap.
void require_valid_message_settings(const MessageSettings& settings);

}  // namespace sv
