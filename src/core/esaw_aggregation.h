#pragma once

#include <array>

#include "src/core/cost_volume.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

// Exponential step size adaptive weight aggregation (Yu et al. 2009, section III-A).
struct EsawSettings {
  int iterations = 9;      // T >= 0; each iteration is a horizontal then a vertical pass
  float step_base = 1.9f;  // b >= 1: iteration t uses taps at +-round(b^(t-1)) px
  float gamma_c = 17.0f;   // > 0, gray (or colour) distance at which a tap's weight falls by 1/e
  float gamma_p = 36.0f;   // > 0, spatial distance (px) at which a tap's weight falls by 1/e
  // Round every stored cost to half precision (half_float.h), as the CUDA engine's __half
  // storage does: half the memory traffic; the caller rounds the initial cost volume.
  bool half_storage = false;
};

// The aggregation settings of `params` (both engines read them from here).
inline EsawSettings esaw_settings(const StereoParams& params) {
  EsawSettings s;
  s.iterations = params.esaw_iterations;
  s.step_base = params.esaw_step_base;
  s.gamma_c = params.esaw_gamma_c;
  s.gamma_p = params.esaw_gamma_p;
  s.half_storage = params.half_costs;
  return s;
}

// Whether compute() on colour images takes ESAW / ESMP's weights from the colour of the left
// view: an adaptive-weight algorithm with `colour-weights` on. Every other case matches gray.
bool uses_colour_weights(const StereoParams& params);

// The colour distance of two guide pixels: the largest of the three channel differences,
// 0..255 like a gray difference, so one weight table serves both. EXACT DEFINITION in
// esaw_aggregation.cpp.
inline int colour_distance(const Rgb8& a, const Rgb8& b) {
  const int r = a.r > b.r ? a.r - b.r : b.r - a.r;
  const int g = a.g > b.g ? a.g - b.g : b.g - a.g;
  const int bl = a.b > b.b ? a.b - b.b : b.b - a.b;
  const int rg = r > g ? r : g;
  return rg > bl ? rg : bl;
}

enum class PassDirection { Horizontal, Vertical };

// The offset of iteration t (1-based): round(b^(t-1)), at least 1, capped at kMaxEsawStep.
constexpr int kMaxEsawStep = 1 << 20;
int esaw_step(int iteration, float step_base);

// The unnormalized weight of a side tap at offset `step` for every guide distance
// (|I(q) - I(p)| in gray, colour_distance in colour) = 0..255. The CPU pass and the CUDA pass both look weights up here, so they weigh
// every tap with the very same float.
std::array<float, 256> esaw_side_weights(int step, float gamma_c, float gamma_p);

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
// weights from `guide` (the left gray image, or the left colour image for colour weights).
// `out` is resized to `in`'s shape. Multi-threaded over rows, deterministic. Throws InputError
// for a guide of another size, step < 1 or gamma_c / gamma_p <= 0. EXACT DEFINITION in
// esaw_aggregation.cpp.
void esaw_pass(const CostVolume<float>& in, CostVolume<float>& out, const ImageU8& guide,
               int step, PassDirection direction, float gamma_c, float gamma_p);
void esaw_pass(const CostVolume<float>& in, CostVolume<float>& out, const ImageRgb8& guide,
               int step, PassDirection direction, float gamma_c, float gamma_p);

// The whole ESAW aggregation: for t = 1..T a horizontal then a vertical pass with step
// esaw_step(t, b), each pass's output rounded to half with settings.half_storage.
// Throws InputError for iterations < 0, step_base < 1 or bad gammas.
CostVolume<float> esaw_aggregate(CostVolume<float> costs, const ImageU8& guide,
                                 const EsawSettings& settings);
CostVolume<float> esaw_aggregate(CostVolume<float> costs, const ImageRgb8& guide,
                                 const EsawSettings& settings);

// Throws InputError naming the first bad field of `settings`.
void require_valid_esaw_settings(const EsawSettings& settings);

}  // namespace sv
