// Winner-takes-all and backward matching (winner_takes_all.cpp's EXACT DEFINITION) with SIMD
// over candidates. The winner is the vector minimum and the first lane holding it; the
// uniqueness test only needs the smallest cost more than one candidate from the winner, since
// c * (100 - u) < best * 100 holds for some such c exactly when it holds for the smallest.
// Backward matching keeps, per right pixel, the best offer so far in a reversed row (as in
// fast_census_cost.cpp, candidate k of left pixel x offers to index i0 + k); left pixels come in
// increasing x, so a right pixel's offers come in increasing d and a strict < keeps the smaller
// d on ties, as the definition asks.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_wta.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_wta.h"

#ifndef SV_FAST_WTA_SHARED
#define SV_FAST_WTA_SHARED
namespace sv {
namespace wta_detail {

// Above every aggregated cost (<= 4080): marks lanes without a candidate.
constexpr int16_t kNoCandidate = 0x7FFF;

// The reference's integer parabola offset, rounded half away from zero.
inline int subpixel_offset(int64_t c0, int64_t cm, int64_t cp) {
  const int64_t denom = cm + cp - 2 * c0;
  if (denom <= 0) return 0;
  const int64_t n = 8 * (cm - cp);
  const int64_t magnitude = (2 * (n < 0 ? -n : n) + denom) / (2 * denom);
  return static_cast<int>(n < 0 ? -magnitude : magnitude);
}

}  // namespace wta_detail
}  // namespace sv
#endif

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using wta_detail::kNoCandidate;

int16_t PixelDisparity(const int16_t* c, int count, int stride, int base, const WtaSettings& settings) {
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const auto none = hn::Set(d, kNoCandidate);
  auto lowest = none;
  for (int k = 0; k < stride; k += n) {
    const auto v = hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(std::max(0, count - k))),
                                  hn::LoadU(d, c + k), none);
    lowest = hn::Min(lowest, v);
  }
  const int16_t best = hn::GetLane(hn::MinOfLanes(d, lowest));
  int kb = 0;
  for (int k = 0; k < count; k += n) {
    const intptr_t lane = hn::FindFirstTrue(d, hn::Eq(hn::LoadU(d, c + k), hn::Set(d, best)));
    if (lane >= 0 && k + lane < count) {
      kb = k + static_cast<int>(lane);
      break;
    }
  }
  if (settings.uniqueness > 0) {
    auto others = none;
    const auto near_first = hn::Set(d, static_cast<int16_t>(kb - 1));
    const auto near_last = hn::Set(d, static_cast<int16_t>(kb + 1));
    for (int k = 0; k < stride; k += n) {
      const auto index = hn::Iota(d, k);
      const auto far = hn::Or(hn::Lt(index, near_first), hn::Gt(index, near_last));
      const auto candidate = hn::FirstN(d, static_cast<size_t>(std::max(0, count - k)));
      others = hn::Min(others, hn::IfThenElse(hn::And(far, candidate), hn::LoadU(d, c + k), none));
    }
    const int second = hn::GetLane(hn::MinOfLanes(d, others));
    if (second != kNoCandidate &&
        static_cast<int64_t>(second) * (100 - settings.uniqueness) < static_cast<int64_t>(best) * 100) {
      return kInvalidFixedDisparity;
    }
  }
  if (static_cast<double>(best) > settings.max_cost) return kInvalidFixedDisparity;
  int offset = 0;
  if (settings.subpixel && kb > 0 && kb < count - 1) {
    offset = std::clamp(wta_detail::subpixel_offset(best, c[kb - 1], c[kb + 1]),
                        -kDisparityScale / 2, kDisparityScale / 2);
  }
  return static_cast<int16_t>((base + kb) * kDisparityScale + offset);
}

void WtaRows(const PaddedVolume<int16_t>& costs, const ImageI16& bases, const WtaSettings& settings,
             int pad, ImageI16& out, ImageI16* right_view) {
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const int width = costs.width();
  const int count = costs.count();
  const int stride = costs.stride();
  const size_t reversed_size = static_cast<size_t>(width) + 2 * pad + stride + n;
  parallel_for(0, costs.height(), [&](int y) {
    const int16_t* base_row = bases.row(y);
    int16_t* row = out.row(y);
    for (int x = 0; x < width; ++x) {
      row[x] = PixelDisparity(costs.pixel(x, y), count, stride, base_row[x], settings);
    }
    if (right_view == nullptr) return;
    std::vector<int16_t> best_cost(reversed_size, kNoCandidate), best_d(reversed_size, 0);
    const auto none = hn::Set(d, kNoCandidate);
    for (int x = 0; x < width; ++x) {
      const int16_t* c = costs.pixel(x, y);
      const size_t first = static_cast<size_t>(width - 1 - x + base_row[x] + pad);
      for (int k = 0; k < stride; k += n) {
        const auto offer = hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(std::max(0, count - k))),
                                          hn::LoadU(d, c + k), none);
        const auto held = hn::LoadU(d, best_cost.data() + first + k);
        const auto better = hn::Lt(offer, held);
        hn::StoreU(hn::IfThenElse(better, offer, held), d, best_cost.data() + first + k);
        const auto disparity = hn::Iota(d, base_row[x] + k);
        hn::StoreU(hn::IfThenElse(better, disparity, hn::LoadU(d, best_d.data() + first + k)), d,
                   best_d.data() + first + k);
      }
    }
    int16_t* right_row = right_view->row(y);
    for (int xr = 0; xr < width; ++xr) {
      const size_t i = static_cast<size_t>(width - 1 - xr + pad);
      right_row[xr] = best_cost[i] != kNoCandidate
                          ? static_cast<int16_t>(best_d[i] * kDisparityScale)
                          : kInvalidFixedDisparity;
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(WtaRows);

ImageI16 fast_winner_takes_all(const PaddedVolume<int16_t>& costs, const SearchRange& range,
                               const WtaSettings& settings, ImageI16* right_view) {
  if (settings.uniqueness < 0 || settings.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " +
                     std::to_string(settings.uniqueness) + ".");
  }
  if (!range.is_uniform() && !range.per_pixel_base().same_size(costs.width(), costs.height())) {
    throw InputError("WTA: the per-pixel search range does not match the cost volume's size.");
  }
  ImageI16 out(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (right_view != nullptr) *right_view = ImageI16(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (costs.width() == 0 || costs.height() == 0 || costs.count() == 0) return out;
  const ImageI16 bases = base_plane(range, costs.width(), costs.height());
  const auto [lowest, highest] = std::minmax_element(bases.data(), bases.data() + bases.size());
  const int pad = std::max({0, -static_cast<int>(*lowest), static_cast<int>(*highest) + costs.stride()}) + 1;
  HWY_DYNAMIC_DISPATCH(WtaRows)(costs, bases, settings, pad, out, right_view);
  return out;
}

}  // namespace sv
#endif  // HWY_ONCE
