// Combined per-pixel confidence of a disparity map, the CPU reference (Prehn 2007, section
// 5.3.2.2, with the left-right term of the SGM pipelines).
//
// EXACT DEFINITION
//   Cost peaks (cost_peaks), per left pixel p with candidate costs c[k], k in [0, count):
//     kb = the smallest k with the minimum cost (winner_takes_all.cpp's winner);
//     best = float(c[kb]), or +inf when count == 0 or c[kb] is not a real cost (the type's
//     maximum for integer costs, non-finite for float);
//     runner_up = float(min { c[k] : |k - kb| > 1 and c[k] real }), +inf when that set is empty.
//     The runner-up is the uniqueness test's competitor: the best candidate outside the winner's
//     own valley, so a broad minimum is not mistaken for two peaks.
//   Texture (texture_deviation), window w x h (odd), N = w * h, pixels outside the image replaced
//   by the nearest border pixel: S = sum of the N gray levels, A = sum over the window of
//   |N * I(q) - S| (exact integers), texture = float(A) / float(N * N), the mean absolute
//   deviation from the window mean in gray levels. The paper sums the deviations; the mean keeps
//   one saturation level meaningful for every window size.
//   Combined confidence (combined_confidence), per pixel p with fixed-point disparity D(p):
//     0 when D(p) is invalid or best(p) is +inf; otherwise, in float, each term in [0, 1]:
//     PKR = 1 when runner_up is +inf, 0 when runner_up <= 0, else clamp(1 - best / runner_up).
//           The paper relates the winner/runner-up difference to their distance ("slope"); the
//           ratio form (Hu & Mordohai's peak ratio, as a margin) is used because the runner-up is
//           already outside the winner's valley and dividing by the distance would call a clear
//           winner with a far, much worse competitor unreliable.
//     MSM = clamp(1 - best / cost_ceiling): 1 for a perfect match, 0 at the worst cost.
//     FD  = min(1, texture(p) / texture_saturation): the paper multiplies MSM by the feature
//           density because a weak texture matches well everywhere.
//     LR  = 1 without a right view; otherwise with xr = x - floor((D(p) + 8) / 16) (lr_check.cpp),
//           span = 16 * (lr_max_diff + 1) and e = |D(p) - R(xr, y)| (1/16 px):
//           0 when xr is outside the image, R(xr, y) is invalid or e >= span, else
//           float(span - e) / float(span). A pixel that passed the LR check has LR >= 1/(max+1).
//     confidence = ((PKR * MSM) * FD) * LR, multiplied in this order (each product rounded).
//   Settings of the pipeline (confidence_settings): cost_ceiling = kMaxMatchCost (x paths with
//   SGM) for census and rank, window^2 * 255 for SAD, window^2 * 255^2 for SSD, 2 for ZNCC
//   (cost 1 - correlation), lambda * tau for ESAW / ESMP (messages never exceed the costs);
//   texture window = the census window, the rank window, else the block matching window;
//   lr_max_diff = the LR check's.
//   Threshold (apply_confidence_threshold): D(p) becomes invalid where confidence(p) < t, t > 0.
//
// The per-pixel arithmetic is in confidence_math.h, shared with cuda/confidence.cu.
// Every stage is parallel over rows; each row writes only its own output row.

#include "src/core/confidence.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "src/core/algorithm_registry.h"
#include "src/core/census_cost.h"
#include "src/core/confidence_math.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

constexpr float kNone = std::numeric_limits<float>::infinity();

template <typename T>
bool is_real_cost(T c) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isfinite(c);
  } else {
    return c != std::numeric_limits<T>::max();
  }
}

}  // namespace

template <typename T>
CostPeaks cost_peaks(const CostVolume<T>& costs) {
  CostPeaks peaks{ImageF32(costs.width(), costs.height(), kNone),
                  ImageF32(costs.width(), costs.height(), kNone)};
  const int count = costs.count();
  if (count == 0) return peaks;
  parallel_for(0, costs.height(), [&](int y) {
    for (int x = 0; x < costs.width(); ++x) {
      const T* c = costs.pixel(x, y);
      int kb = 0;
      for (int k = 1; k < count; ++k) {
        if (c[k] < c[kb]) kb = k;
      }
      if (!is_real_cost(c[kb])) continue;
      peaks.best.at(x, y) = static_cast<float>(c[kb]);
      bool found = false;
      T other{};
      for (int k = 0; k < count; ++k) {
        if (std::abs(k - kb) <= 1 || !is_real_cost(c[k])) continue;
        if (!found || c[k] < other) other = c[k];
        found = true;
      }
      if (found) peaks.runner_up.at(x, y) = static_cast<float>(other);
    }
  });
  return peaks;
}

template CostPeaks cost_peaks(const CostVolume<uint8_t>&);
template CostPeaks cost_peaks(const CostVolume<uint16_t>&);
template CostPeaks cost_peaks(const CostVolume<uint32_t>&);
template CostPeaks cost_peaks(const CostVolume<float>&);

ImageF32 texture_deviation(const ImageU8& image, int window_width, int window_height) {
  if (window_width < 1 || window_height < 1 || window_width % 2 == 0 || window_height % 2 == 0) {
    throw InputError("Texture window must have odd positive sides, got " +
                     std::to_string(window_width) + "x" + std::to_string(window_height) + ".");
  }
  const int rx = window_width / 2, ry = window_height / 2;
  const int n = window_width * window_height;
  ImageF32 out(image.width(), image.height());
  parallel_for(0, image.height(), [&](int y) {
    for (int x = 0; x < image.width(); ++x) {
      int sum = 0;
      for (int dy = -ry; dy <= ry; ++dy) {
        for (int dx = -rx; dx <= rx; ++dx) sum += image.clamped(x + dx, y + dy);
      }
      uint32_t deviations = 0;
      for (int dy = -ry; dy <= ry; ++dy) {
        for (int dx = -rx; dx <= rx; ++dx) {
          deviations += static_cast<uint32_t>(std::abs(n * image.clamped(x + dx, y + dy) - sum));
        }
      }
      out.at(x, y) = confidence_math::texture_from_sums(deviations, n);
    }
  });
  return out;
}

ConfidenceSettings confidence_settings(const StereoParams& params) {
  ConfidenceSettings s;
  s.lr_max_diff = params.lr_max_diff;
  s.texture_window_width = params.window;
  s.texture_window_height = params.window;
  const float area = static_cast<float>(params.window * params.window);
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr) return s;
  const float paths =
      algorithm->aggregation == Aggregation::Sgm ? static_cast<float>(params.sgm_paths) : 1.0f;
  switch (algorithm->cost) {
    case MatchingCost::Census:
      s.cost_ceiling = kMaxMatchCost * paths;
      s.texture_window_width = census_window_width(params.census);
      s.texture_window_height = census_window_height(params.census);
      break;
    case MatchingCost::Rank:
      s.cost_ceiling = kMaxMatchCost * paths;
      s.texture_window_width = params.rank_window;
      s.texture_window_height = params.rank_window;
      break;
    case MatchingCost::Sad:
      s.cost_ceiling = area * 255.0f;
      break;
    case MatchingCost::Ssd:
      s.cost_ceiling = area * 255.0f * 255.0f;
      break;
    case MatchingCost::Zncc:
      s.cost_ceiling = 2.0f;
      break;
    case MatchingCost::TruncatedAd:
      s.cost_ceiling = params.ad_lambda * params.ad_tau;
      break;
  }
  return s;
}

bool wants_confidence(const StereoParams& params) {
  return params.confidence || params.repair || params.confidence_threshold > 0.0f;
}

ImageF32 combined_confidence(const ImageI16& disparity_fixed, const CostPeaks& peaks,
                             const ImageF32& texture, const ImageI16& right_view,
                             const ConfidenceSettings& settings) {
  if (!peaks.best.same_size(disparity_fixed) || !peaks.runner_up.same_size(disparity_fixed) ||
      !texture.same_size(disparity_fixed) ||
      (!right_view.empty() && !right_view.same_size(disparity_fixed))) {
    throw InputError(
        "Confidence: the disparity, cost peaks, texture and right view differ in size.");
  }
  if (!(settings.cost_ceiling > 0.0f) || !(settings.texture_saturation > 0.0f)) {
    throw InputError("Confidence: the cost ceiling and the texture saturation must be positive.");
  }
  if (settings.lr_max_diff < 0) {
    throw InputError("Confidence: lr_max_diff must not be negative, got " +
                     std::to_string(settings.lr_max_diff) + ".");
  }
  namespace cm = confidence_math;
  const int width = disparity_fixed.width();
  ImageF32 out(width, disparity_fixed.height(), 0.0f);
  parallel_for(0, disparity_fixed.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      const int16_t d = disparity_fixed.at(x, y);
      const float best = peaks.best.at(x, y);
      if (!is_valid_fixed_disparity(d) || best == kNone) continue;
      float lr = 1.0f;
      if (!right_view.empty()) {
        const int xr = x - cm::floor_div16(d + kDisparityScale / 2);
        const bool inside = xr >= 0 && xr < width;
        lr = cm::lr_consistency_term(d, inside,
                                     inside ? right_view.at(xr, y) : kInvalidFixedDisparity,
                                     settings.lr_max_diff);
      }
      out.at(x, y) =
          cm::combine(cm::peak_ratio_term(best, peaks.runner_up.at(x, y)),
                      cm::matching_score_term(best, settings.cost_ceiling),
                      cm::feature_density_term(texture.at(x, y), settings.texture_saturation), lr);
    }
  });
  return out;
}

void apply_confidence_threshold(ImageI16& disparity_fixed, const ImageF32& confidence,
                                float threshold) {
  if (!confidence.same_size(disparity_fixed)) {
    throw InputError("Confidence threshold: the disparity and confidence images differ in size.");
  }
  if (!(threshold >= 0.0f && threshold <= 1.0f)) {
    throw InputError("Confidence threshold must be in 0..1, got " + std::to_string(threshold) +
                     ".");
  }
  if (threshold == 0.0f) return;
  for (size_t i = 0; i < disparity_fixed.size(); ++i) {
    if (confidence.data()[i] < threshold) disparity_fixed.data()[i] = kInvalidFixedDisparity;
  }
}

}  // namespace sv
