// Winner-takes-all disparity selection with uniqueness, cost threshold and subpixel fit.
//
// EXACT DEFINITION (per left pixel p, costs c[k] of candidates k in [0, count), d = base(p) + k)
//   Winner: kb = the smallest k with the minimum cost (ties go to the lower disparity);
//   best = c[kb]. The pixel is invalid (kInvalidFixedDisparity) when
//     - count == 0, or
//     - no real candidate exists: best == the type's maximum (integer types; e.g. block
//       matching's out-of-image kBlockMatchingOutsideCost) or best is not finite (float), or
//     - best > max_cost (compared as double), or
//     - uniqueness (OpenCV's rule): some k with |k - kb| > 1 has c[k] * (100 - u) < best * 100,
//       computed exactly (uint64 for integer types, double for float). The inequality is strict,
//       so u = 0 rejects nothing; note that with u > 0 a non-adjacent tie at best == 0 passes.
//   Otherwise fixed = (base(p) + kb) * 16 + offset, where offset = 0 without subpixel or when
//   kb is the first or last candidate, or when c[kb-1] or c[kb+1] is the type's maximum
//   (integer) / not finite (float). Else with c0 = c[kb], cm = c[kb-1], cp = c[kb+1],
//   denom = cm + cp - 2*c0 (int64 for integer types): when denom > 0 the vertex of the parabola
//   through the three costs lies (cm - cp) / (2*denom) px from kb, and
//     integer types: offset = round_half_away_from_zero(8*(cm - cp) / denom), in int64:
//                    sign(n) * ((2|n| + denom) / (2*denom)) with n = 8*(cm - cp);
//     float:         offset = std::lround(16.0f * (cm - cp) / (2.0f * denom)) (float arithmetic);
//   then clamped to [-8, 8]; offset = 0 when denom <= 0.
//
// right_view_disparity (backward matching on the same costs), per row y:
//   every left pixel x and candidate k offers right pixel xr = x - d, d = base(x, y) + k, the cost
//   c(x, y, k); offers with xr outside [0, width) are dropped. The right pixel's disparity is the
//   offered d with the smallest cost, ties to the smaller d, in whole pixels (fixed = d * 16);
//   invalid when nothing is offered. No uniqueness, threshold or subpixel step.
//
// Both are parallel over rows; each row writes only its own output row.

#include "src/core/winner_takes_all.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

// Exact products for the uniqueness test: costs up to UINT32_MAX times 100 fit in uint64.
template <typename T>
using WideCost = std::conditional_t<std::is_floating_point<T>::value, double, uint64_t>;

// False for a cost that stands for "no match was computed" (out-of-image candidates).
template <typename T>
bool is_real_cost(T c) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isfinite(c);
  } else {
    return c != std::numeric_limits<T>::max();
  }
}

// Offset of the parabola vertex from the winner in 1/16 px, rounded half away from zero.
int subpixel_offset(int64_t c0, int64_t cm, int64_t cp) {
  const int64_t denom = cm + cp - 2 * c0;
  if (denom <= 0) return 0;
  const int64_t n = 8 * (cm - cp);
  const int64_t magnitude = (2 * (n < 0 ? -n : n) + denom) / (2 * denom);
  return static_cast<int>(n < 0 ? -magnitude : magnitude);
}

int subpixel_offset(float c0, float cm, float cp) {
  const float denom = cm + cp - 2.0f * c0;
  if (!(denom > 0.0f)) return 0;
  return static_cast<int>(std::lround(16.0f * (cm - cp) / (2.0f * denom)));
}

template <typename T>
int16_t pixel_disparity(const T* c, int count, int base, const WtaSettings& settings) {
  if (count == 0) return kInvalidFixedDisparity;
  int kb = 0;
  for (int k = 1; k < count; ++k) {
    if (c[k] < c[kb]) kb = k;
  }
  const T best = c[kb];
  if (!is_real_cost(best)) return kInvalidFixedDisparity;
  if (static_cast<double>(best) > settings.max_cost) return kInvalidFixedDisparity;

  const WideCost<T> best_scaled = static_cast<WideCost<T>>(best) * 100;
  const WideCost<T> keep_percent = static_cast<WideCost<T>>(100 - settings.uniqueness);
  for (int k = 0; k < count; ++k) {
    if (std::abs(k - kb) > 1 && static_cast<WideCost<T>>(c[k]) * keep_percent < best_scaled) {
      return kInvalidFixedDisparity;
    }
  }

  int offset = 0;
  if (settings.subpixel && kb > 0 && kb < count - 1 && is_real_cost(c[kb - 1]) &&
      is_real_cost(c[kb + 1])) {
    if constexpr (std::is_floating_point<T>::value) {
      offset = subpixel_offset(static_cast<float>(best), static_cast<float>(c[kb - 1]),
                               static_cast<float>(c[kb + 1]));
    } else {
      offset = subpixel_offset(static_cast<int64_t>(best), static_cast<int64_t>(c[kb - 1]),
                               static_cast<int64_t>(c[kb + 1]));
    }
    offset = std::clamp(offset, -kDisparityScale / 2, kDisparityScale / 2);
  }
  return static_cast<int16_t>((base + kb) * kDisparityScale + offset);
}

// The cost as PixelSelection reports it: +inf for no real candidate.
template <typename T>
double reported_cost(T c) {
  return is_real_cost(c) ? static_cast<double>(c) : std::numeric_limits<double>::infinity();
}

}  // namespace

// Follows pixel_disparity step by step, keeping what it compares. The runner-up is the minimum
// over |k - kb| > 1: the uniqueness rule fails for some such k exactly when it fails for it.
template <typename T>
PixelSelection explain_selection(const T* c, int count, int base, const WtaSettings& settings) {
  PixelSelection out;
  if (count == 0) {
    out.reason = InvalidReason::NoCost;
    return out;
  }
  int kb = 0;
  for (int k = 1; k < count; ++k) {
    if (c[k] < c[kb]) kb = k;
  }
  out.best = kb;
  out.best_cost = reported_cost(c[kb]);
  for (int k = 0; k < count; ++k) {
    if (std::abs(k - kb) > 1 && (out.second < 0 || c[k] < c[out.second])) out.second = k;
  }
  if (out.second >= 0) {
    out.second_cost = reported_cost(c[out.second]);
    out.uniqueness_ratio = out.second_cost > 0.0 ? out.best_cost / out.second_cost
                           : out.best_cost > 0.0 ? std::numeric_limits<double>::infinity()
                                                 : 0.0;
  }
  if (!is_real_cost(c[kb])) {
    out.reason = InvalidReason::NoCost;
    return out;
  }
  if (static_cast<double>(c[kb]) > settings.max_cost) {
    out.reason = InvalidReason::CostLimit;
    return out;
  }
  if (out.second >= 0 && static_cast<WideCost<T>>(c[out.second]) *
                                 static_cast<WideCost<T>>(100 - settings.uniqueness) <
                             static_cast<WideCost<T>>(c[kb]) * 100) {
    out.reason = InvalidReason::Uniqueness;
    return out;
  }
  SubpixelFit& fit = out.fit;
  if (settings.subpixel && kb > 0 && kb < count - 1 && is_real_cost(c[kb - 1]) &&
      is_real_cost(c[kb + 1])) {
    fit.fitted = true;
    fit.before = static_cast<double>(c[kb - 1]);
    fit.at = static_cast<double>(c[kb]);
    fit.after = static_cast<double>(c[kb + 1]);
    const double curvature = fit.before + fit.after - 2.0 * fit.at;
    fit.vertex = curvature > 0.0 ? (fit.before - fit.after) / (2.0 * curvature) : 0.0;
    if constexpr (std::is_floating_point<T>::value) {
      fit.offset = subpixel_offset(static_cast<float>(c[kb]), static_cast<float>(c[kb - 1]),
                                   static_cast<float>(c[kb + 1]));
    } else {
      fit.offset = subpixel_offset(static_cast<int64_t>(c[kb]), static_cast<int64_t>(c[kb - 1]),
                                   static_cast<int64_t>(c[kb + 1]));
    }
    fit.offset = std::clamp(fit.offset, -kDisparityScale / 2, kDisparityScale / 2);
  }
  out.disparity = static_cast<int16_t>((base + kb) * kDisparityScale + fit.offset);
  return out;
}

template <typename T>
ImageI16 winner_takes_all(const CostVolume<T>& costs, const WtaSettings& settings) {
  if (settings.uniqueness < 0 || settings.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " +
                     std::to_string(settings.uniqueness) + ".");
  }
  if (!costs.range().is_uniform() &&
      !costs.range().per_pixel_base().same_size(costs.width(), costs.height())) {
    throw InputError("WTA: the per-pixel search range does not match the cost volume's size.");
  }
  ImageI16 out(costs.width(), costs.height(), kInvalidFixedDisparity);
  const SearchRange& range = costs.range();
  parallel_for(0, costs.height(), [&](int y) {
    int16_t* row = out.row(y);
    for (int x = 0; x < costs.width(); ++x) {
      row[x] = pixel_disparity(costs.pixel(x, y), costs.count(), range.base(x, y), settings);
    }
  });
  return out;
}

template <typename T>
ImageI16 right_view_disparity(const CostVolume<T>& costs) {
  if (!costs.range().is_uniform() &&
      !costs.range().per_pixel_base().same_size(costs.width(), costs.height())) {
    throw InputError("Right view: the per-pixel search range does not match the cost volume's size.");
  }
  const int width = costs.width();
  ImageI16 out(width, costs.height(), kInvalidFixedDisparity);
  const SearchRange& range = costs.range();
  parallel_for(0, costs.height(), [&](int y) {
    // Best offer so far for each right pixel; `found` marks pixels with at least one offer.
    std::vector<T> best_cost(width);
    std::vector<int> best_d(width);
    std::vector<char> found(width, 0);
    for (int x = 0; x < width; ++x) {
      const T* c = costs.pixel(x, y);
      const int base = range.base(x, y);
      for (int k = 0; k < costs.count(); ++k) {
        const int d = base + k;
        const int xr = x - d;
        if (xr < 0 || xr >= width) continue;
        if (!found[xr] || c[k] < best_cost[xr] || (c[k] == best_cost[xr] && d < best_d[xr])) {
          found[xr] = 1;
          best_cost[xr] = c[k];
          best_d[xr] = d;
        }
      }
    }
    int16_t* row = out.row(y);
    for (int xr = 0; xr < width; ++xr) {
      if (found[xr]) row[xr] = static_cast<int16_t>(best_d[xr] * kDisparityScale);
    }
  });
  return out;
}

template ImageI16 winner_takes_all(const CostVolume<uint8_t>&, const WtaSettings&);
template ImageI16 winner_takes_all(const CostVolume<uint16_t>&, const WtaSettings&);
template ImageI16 winner_takes_all(const CostVolume<uint32_t>&, const WtaSettings&);
template ImageI16 winner_takes_all(const CostVolume<float>&, const WtaSettings&);

template PixelSelection explain_selection(const uint8_t*, int, int, const WtaSettings&);
template PixelSelection explain_selection(const uint16_t*, int, int, const WtaSettings&);
template PixelSelection explain_selection(const uint32_t*, int, int, const WtaSettings&);
template PixelSelection explain_selection(const float*, int, int, const WtaSettings&);

template ImageI16 right_view_disparity(const CostVolume<uint8_t>&);
template ImageI16 right_view_disparity(const CostVolume<uint16_t>&);
template ImageI16 right_view_disparity(const CostVolume<uint32_t>&);
template ImageI16 right_view_disparity(const CostVolume<float>&);

}  // namespace sv
