// Exponential step size adaptive weight (ESAW) aggregation, Yu et al. 2009, section III-A.
//
// EXACT DEFINITION
//   The ESAW pipeline (cpu_engine.cpp): C0 = truncated_ad_cost_volume (lambda * min(|IL - IR|,
//   tau), truncated_ad_cost.cpp); the aggregation below; winner_takes_all on the float costs
//   (winner_takes_all.cpp: lowest cost, ties to the lower disparity); the shared post-processing,
//   of which the paper uses the 3x3 median (median_filter.cpp).
//
//   Offsets: iteration t = 1..T uses s = round(b^(t-1)), evaluated in double as
//   std::round(std::pow(double(b), t - 1)) (halves away from zero), then clamped to
//   [1, kMaxEsawStep]. s is computed on the host; a device version receives it as an integer.
//
//   Iteration t: a horizontal pass with taps q in {(x - s, y), (x, y), (x + s, y)}, then a
//   vertical pass on its result with taps {(x, y - s), (x, y), (x, y + s)} (eqs. 5 and 6).
//
//   Weights (Yoon and Kweon's adaptive weight with the reference view only, as RtAW and the
//   paper do), from the guide image I of the level being matched (below: gray or colour):
//     centre tap:  w = 1                                   (colour and spatial distance 0)
//     side tap q:  w = expf(-(a + g)),  a = float(D(I(q), I(p))) / gamma_c,
//                                       g = float(s) / gamma_p              (float, in this order)
//     guide distance D, an integer in 0..255:
//       gray guide (the left gray image):     D = |I(q) - I(p)|
//       colour guide (the left RGB image):    D = max(|R(q) - R(p)|, |G(q) - G(p)|, |B(q) - B(p)|)
//     absent tap:  w = 0. A side tap is absent when it lies outside the image (no clamping, no
//                  mirroring: the border pixel's support is just smaller) or, with a per-pixel
//                  search range (pyramid), when q's candidates do not include the disparity
//                  d = base(p) + k (taps compare equal disparities, not equal indices).
//                  The side weights are looked up in esaw_side_weights(s, gamma_c, gamma_p),
//                  indexed by D, which evaluates exactly the expression above.
//     normalization: S = (1 + w_minus) + w_plus; wbar = w / S for each of the three taps.
//   Output: out(p, k) = (wbar_minus * in(q_minus, k_minus) + wbar_centre * in(p, k))
//                       + wbar_plus * in(q_plus, k_plus), float, each product rounded and the sums
//   taken left to right; an absent tap's term is left out (identical to adding 0 * finite).
//   No fused multiply-add: a CUDA version either disables contraction (-fmad=false or __fmul_rn /
//   __fadd_rn) and then matches bit for bit up to expf (CUDA's expf is within 2 ulp of glibc's),
//   or contracts and matches within a relative 1e-5 per pass; the stated tolerance for the final
//   aggregated costs is a relative 1e-4 after T <= 16 iterations, and disparities may differ
//   only where two candidates' costs lie within that tolerance. cuda/esaw_aggregation.cu takes
//   the first way and reads the same weight table, so in practice it matches bit for bit.
//
//   Half storage (settings.half_storage, StereoParams::half_costs): every volume the pipeline
//   stores is rounded to the nearest half (half_float.h, ties to even): the initial cost volume
//   (by the engine), each pass's output, and (ESMP) each message volume. The arithmetic itself
//   stays float.
//
// Colour or gray: the paper computes the weights from colour ("as in [17]"; its aggr_H reads 9
// bytes per three pixels, i.e. RGB) and the cost from gray ("the grayscale luminance", eq. 3),
// but it gives no formula for the colour distance; [17] (Yoon and Kweon) uses the Euclidean
// distance in CIELab. We take the largest RGB channel difference: no colour conversion, and it
// stays an integer in 0..255, so the gray weight table (and its bit-exact use on the GPU) serves
// both, and gamma_c means the same on a gray image (R = G = B) either way. With a colour pair
// and `colour-weights` on (uses_colour_weights), the engines pass the left colour image as the
// guide of the input level; coarse pyramid levels (whose images are gray averages) keep the
// gray guide, since they only seed the finer search.
//
// Memory: each pass reads one volume and writes another; the pair is swapped between passes,
// so the aggregation holds two volumes whatever T is.

#include "src/core/esaw_aggregation.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "src/core/algorithm_registry.h"
#include "src/core/error.h"
#include "src/core/half_float.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

float side_weight(int gray_difference, int step, float gamma_c, float gamma_p) {
  const float a = static_cast<float>(gray_difference) / gamma_c;
  const float g = static_cast<float>(step) / gamma_p;
  return std::exp(-(a + g));
}

TapWeights normalize(float minus, float plus) {
  const float sum = (1.0f + minus) + plus;
  return TapWeights{minus / sum, 1.0f / sum, plus / sum};
}

// D of the definition above.
int guide_distance(uint8_t a, uint8_t b) { return std::abs(a - b); }
int guide_distance(const Rgb8& a, const Rgb8& b) { return colour_distance(a, b); }

bool same_layout(const CostVolume<float>& a, const CostVolume<float>& b) {
  if (a.width() != b.width() || a.height() != b.height() || a.count() != b.count()) return false;
  const SearchRange& ra = a.range();
  const SearchRange& rb = b.range();
  if (ra.is_uniform() != rb.is_uniform()) return false;
  return ra.is_uniform() ? ra.uniform_base() == rb.uniform_base()
                         : ra.per_pixel_base() == rb.per_pixel_base();
}

// The three-tap sum of one pixel's candidates [0, count). A null tap is absent at every k.
void combine(const TapWeights& w, const float* minus, const float* centre, const float* plus,
             float* out, int count) {
  if (minus && plus) {
    for (int k = 0; k < count; ++k) out[k] = (w.minus * minus[k] + w.centre * centre[k]) + w.plus * plus[k];
  } else if (minus) {
    for (int k = 0; k < count; ++k) out[k] = w.minus * minus[k] + w.centre * centre[k];
  } else if (plus) {
    for (int k = 0; k < count; ++k) out[k] = w.centre * centre[k] + w.plus * plus[k];
  } else {
    for (int k = 0; k < count; ++k) out[k] = w.centre * centre[k];
  }
}

}  // namespace

int esaw_step(int iteration, float step_base) {
  const double s = std::round(std::pow(static_cast<double>(step_base), iteration - 1));
  if (!(s >= 1.0)) return 1;
  return s >= kMaxEsawStep ? kMaxEsawStep : static_cast<int>(s);
}

std::array<float, 256> esaw_side_weights(int step, float gamma_c, float gamma_p) {
  std::array<float, 256> table;
  for (int difference = 0; difference < 256; ++difference) {
    table[difference] = side_weight(difference, step, gamma_c, gamma_p);
  }
  return table;
}

TapWeights esaw_tap_weights(int centre_gray, int minus_gray, bool has_minus, int plus_gray,
                            bool has_plus, int step, float gamma_c, float gamma_p) {
  const float minus = has_minus ? side_weight(std::abs(minus_gray - centre_gray), step, gamma_c, gamma_p) : 0.0f;
  const float plus = has_plus ? side_weight(std::abs(plus_gray - centre_gray), step, gamma_c, gamma_p) : 0.0f;
  return normalize(minus, plus);
}

namespace {

// esaw_pass for either guide image.
template <typename Guide>
void pass(const CostVolume<float>& in, CostVolume<float>& out, const Guide& guide, int step,
          PassDirection direction, float gamma_c, float gamma_p) {
  if (!guide.same_size(in.width(), in.height())) {
    throw InputError("ESAW: the guide image and the cost volume differ in size");
  }
  if (step < 1) throw InputError("ESAW: the step must be >= 1, got " + std::to_string(step));
  if (!(gamma_c > 0.0f) || !(gamma_p > 0.0f)) {
    throw InputError("ESAW: gamma-c and gamma-p must be > 0");
  }
  if (!same_layout(in, out)) out = CostVolume<float>(in.width(), in.height(), in.range());

  const int width = in.width();
  const int height = in.height();
  const int count = in.count();
  const SearchRange& range = in.range();
  const int dx = direction == PassDirection::Horizontal ? step : 0;
  const int dy = direction == PassDirection::Vertical ? step : 0;
  const std::array<float, 256> side = esaw_side_weights(step, gamma_c, gamma_p);

  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const int xm = x - dx, ym = y - dy, xp = x + dx, yp = y + dy;
      const bool has_minus = xm >= 0 && ym >= 0;
      const bool has_plus = xp < width && yp < height;
      const auto& own = guide.at(x, y);
      const float w_minus = has_minus ? side[guide_distance(guide.at(xm, ym), own)] : 0.0f;
      const float w_plus = has_plus ? side[guide_distance(guide.at(xp, yp), own)] : 0.0f;
      const float* centre = in.pixel(x, y);
      const float* minus = has_minus ? in.pixel(xm, ym) : nullptr;
      const float* plus = has_plus ? in.pixel(xp, yp) : nullptr;
      float* o = out.pixel(x, y);

      if (range.is_uniform()) {
        combine(normalize(w_minus, w_plus), minus, centre, plus, o, count);
        continue;
      }
      // Per-pixel ranges: the neighbour's index of disparity base(p) + k is k + shift.
      const int base = range.base(x, y);
      const int shift_minus = has_minus ? base - range.base(xm, ym) : 0;
      const int shift_plus = has_plus ? base - range.base(xp, yp) : 0;
      const TapWeights weights[4] = {TapWeights{}, normalize(w_minus, 0.0f),
                                     normalize(0.0f, w_plus), normalize(w_minus, w_plus)};
      for (int k = 0; k < count; ++k) {
        const int km = k + shift_minus, kp = k + shift_plus;
        const bool m = has_minus && km >= 0 && km < count;
        const bool p = has_plus && kp >= 0 && kp < count;
        const TapWeights& w = weights[(m ? 1 : 0) + (p ? 2 : 0)];
        float sum = w.centre * centre[k];
        if (m) sum = w.minus * minus[km] + sum;
        if (p) sum = sum + w.plus * plus[kp];
        o[k] = sum;
      }
    }
  });
}

template <typename Guide>
CostVolume<float> aggregate(CostVolume<float> costs, const Guide& guide, const EsawSettings& settings) {
  require_valid_esaw_settings(settings);
  CostVolume<float> horizontal;
  for (int t = 1; t <= settings.iterations; ++t) {
    const int step = esaw_step(t, settings.step_base);
    pass(costs, horizontal, guide, step, PassDirection::Horizontal, settings.gamma_c, settings.gamma_p);
    if (settings.half_storage) round_to_half(horizontal);
    pass(horizontal, costs, guide, step, PassDirection::Vertical, settings.gamma_c, settings.gamma_p);
    if (settings.half_storage) round_to_half(costs);
  }
  return costs;
}

}  // namespace

bool uses_colour_weights(const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  return params.colour_weights && algorithm != nullptr &&
         algorithm->cost == MatchingCost::TruncatedAd;
}

void esaw_pass(const CostVolume<float>& in, CostVolume<float>& out, const ImageU8& guide,
               int step, PassDirection direction, float gamma_c, float gamma_p) {
  pass(in, out, guide, step, direction, gamma_c, gamma_p);
}

void esaw_pass(const CostVolume<float>& in, CostVolume<float>& out, const ImageRgb8& guide,
               int step, PassDirection direction, float gamma_c, float gamma_p) {
  pass(in, out, guide, step, direction, gamma_c, gamma_p);
}

void require_valid_esaw_settings(const EsawSettings& s) {
  if (s.iterations < 0) throw InputError("ESAW: iterations must be >= 0, got " + std::to_string(s.iterations));
  if (!(s.step_base >= 1.0f)) throw InputError("ESAW: the step base must be >= 1, got " + std::to_string(s.step_base));
  if (!(s.gamma_c > 0.0f)) throw InputError("ESAW: gamma-c must be > 0, got " + std::to_string(s.gamma_c));
  if (!(s.gamma_p > 0.0f)) throw InputError("ESAW: gamma-p must be > 0, got " + std::to_string(s.gamma_p));
}

CostVolume<float> esaw_aggregate(CostVolume<float> costs, const ImageU8& guide,
                                 const EsawSettings& settings) {
  return aggregate(std::move(costs), guide, settings);
}

CostVolume<float> esaw_aggregate(CostVolume<float> costs, const ImageRgb8& guide,
                                 const EsawSettings& settings) {
  return aggregate(std::move(costs), guide, settings);
}

}  // namespace sv
