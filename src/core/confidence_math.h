#pragma once

// The per-pixel arithmetic of the confidence (confidence.cpp) and the repair
// (disparity_repair.cpp), shared by the CPU reference and the CUDA kernels so both round the
// same way. The definitions are written out at the top of those two .cpp files. The CUDA files
// that include this compile with -fmad=false: no multiply-add is fused where the CPU rounds twice.

#include <cmath>
#include <cstdint>

#include "src/core/disparity.h"
#include "src/core/host_device.h"

namespace sv::confidence_math {

SV_HOST_DEVICE inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// floor(value / 16) for either sign (lr_check.cpp's rounding of the disparity to a pixel).
SV_HOST_DEVICE inline int floor_div16(int value) {
  return value >= 0 ? value / kDisparityScale : -((-value + kDisparityScale - 1) / kDisparityScale);
}

// floor(value / 2) for either sign.
SV_HOST_DEVICE inline int floor_half(int value) {
  return value >= 0 ? value / 2 : -((-value + 1) / 2);
}

// PKR: how much better the winner is than the best candidate outside its own valley.
SV_HOST_DEVICE inline float peak_ratio_term(float best, float runner_up) {
  if (runner_up == INFINITY) return 1.0f;  // no competitor at all
  if (!(runner_up > 0.0f)) return 0.0f;
  return clamp01(1.0f - best / runner_up);
}

// MSM: the winner's cost against the worst cost the pipeline can give.
SV_HOST_DEVICE inline float matching_score_term(float best, float cost_ceiling) {
  return clamp01(1.0f - best / cost_ceiling);
}

// FD: local texture (mean absolute deviation, gray levels) against the saturation level.
SV_HOST_DEVICE inline float feature_density_term(float texture, float saturation) {
  const float v = texture / saturation;
  return v > 1.0f ? 1.0f : v;
}

// LR: agreement of the left disparity with the right view at the pixel it points to.
// `right_at_match` is read by the caller at x - floor_div16(left + 8); `inside` says whether that
// pixel exists.
SV_HOST_DEVICE inline float lr_consistency_term(int left_fixed, bool inside, int16_t right_at_match,
                                                int lr_max_diff) {
  if (!inside || right_at_match == kInvalidFixedDisparity) return 0.0f;
  const int span = kDisparityScale * (lr_max_diff + 1);
  const int diff = left_fixed - right_at_match;
  const int error = diff < 0 ? -diff : diff;
  if (error >= span) return 0.0f;
  return static_cast<float>(span - error) / static_cast<float>(span);
}

// The product of the four terms, multiplied in this order.
SV_HOST_DEVICE inline float combine(float peak_ratio, float matching_score, float feature_density,
                                    float lr_consistency) {
  return ((peak_ratio * matching_score) * feature_density) * lr_consistency;
}

// Mean absolute deviation from the window mean, from A = sum |N * I(q) - S| over the N pixels.
SV_HOST_DEVICE inline float texture_from_sums(uint32_t absolute_deviations, int pixels) {
  return static_cast<float>(absolute_deviations) / static_cast<float>(pixels * pixels);
}

// One pixel of one repair pass. `d` and `c` point at the pass's input at the pixel; the
// neighbour i steps away on the negative side is d[-i * step], on the positive side d[i * step];
// `before` / `after` are how many pixels exist on each side along the pass. Writes the pixel's
// output and returns whether it changed.
struct RepairRule {
  int radius;     // pixels searched on each side
  float step;     // confidence margin a supporter needs, and the boost of a repaired pixel
  int tolerance;  // 1/16 px: supporters agree, and a pixel is an outlier, beyond this
};

SV_HOST_DEVICE inline bool repair_pixel(const int16_t* d, const float* c, long step, int before,
                                        int after, const RepairRule& rule, int16_t* d_out,
                                        float* c_out) {
  const float own = c[0];
  const float need = own + rule.step;
  int16_t a = kInvalidFixedDisparity, b = kInvalidFixedDisparity;
  const int reach_before = before < rule.radius ? before : rule.radius;
  for (int i = 1; i <= reach_before; ++i) {
    if (d[-i * step] != kInvalidFixedDisparity && c[-i * step] >= need) {
      a = d[-i * step];
      break;
    }
  }
  const int reach_after = after < rule.radius ? after : rule.radius;
  if (a != kInvalidFixedDisparity) {
    for (int i = 1; i <= reach_after; ++i) {
      if (d[i * step] != kInvalidFixedDisparity && c[i * step] >= need) {
        b = d[i * step];
        break;
      }
    }
  }
  *d_out = d[0];
  *c_out = own;
  if (a == kInvalidFixedDisparity || b == kInvalidFixedDisparity) return false;
  const int spread = a > b ? a - b : b - a;
  if (spread > rule.tolerance) return false;
  const int agreed = floor_half(static_cast<int>(a) + static_cast<int>(b));
  const int off = d[0] - agreed;
  if (d[0] != kInvalidFixedDisparity && (off < 0 ? -off : off) <= rule.tolerance) return false;
  *d_out = static_cast<int16_t>(agreed);
  *c_out = need > 1.0f ? 1.0f : need;
  return true;
}

}  // namespace sv::confidence_math
