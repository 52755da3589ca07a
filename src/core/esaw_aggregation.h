#pragma once

#include "src/core/cost_volume.h"
#include "src/core/image.h"

namespace sv {

// Exponential step size adaptive weight aggregation (Yu et al. 2009, section III-A).
struct EsawSettings {
  int iterations = 9;      // T >= 0; each iteration is a horizontal then a vertical pass
  float step_base = 1.9f;  // b >= 1: iteration t uses taps at +-round(b^(t-1)) px
  float gamma_c = 17.0f;   // > 0, gray-level distance at which a tap's weight falls by 1/e
  float gamma_p = 36.0f;   // > 0, spatial distance (px) at which a tap's weight falls by 1/e
};

enum class PassDirection { Horizontal, Vertical };

// The offset of iteration t (1-based): round(b^(t-1)), at least 1, capped at kMaxEsawStep.
constexpr int kMaxEsawStep = 1 << 20;
int esaw_step(int iteration, float step_base);

// Normalized weights of the taps p - s, p, p + s; they sum to 1 (to float rounding). An absent
// tap (outside the image, or without the candidate disparity) has weight 0.
struct TapWeights {
  float minus = 0.0f;
  float centre = 1.0f;
  float plus = 0.0f;
};
TapWeights esaw_tap_weights(int centre_gray, int minus_gray, bool has_minus, int plus_gray,
                            bool has_plus, int step, float gamma_c, float gamma_p);

// One pass: out(p) = sum over the taps q of weight(q, p) * in(q), at equal disparity, with the
// weights from `guide` (the left gray image). `out` is resized to `in`'s shape. Multi-threaded
// over rows, deterministic. Throws InputError for a guide of another size, step < 1 or
// gamma_c / gamma_p <= 0. EXACT DEFINITION in esaw_aggregation.cpp.
void esaw_pass(const CostVolume<float>& in, CostVolume<float>& out, const ImageU8& guide,
               int step, PassDirection direction, float gamma_c, float gamma_p);

// The whole ESAW aggregation: for t = 1..T a horizontal then a vertical pass with step
// esaw_step(t, b). Throws InputError for iterations < 0, step_base < 1 or bad gammas.
CostVolume<float> esaw_aggregate(CostVolume<float> costs, const ImageU8& guide,
                                 const EsawSettings& settings);

// Throws InputError naming the first bad field of `settings`.
void require_valid_esaw_settings(const EsawSettings& settings);

}  // namespace sv
