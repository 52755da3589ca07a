// Winner-takes-all and backward matching of one row of aggregated SGM costs
// (winner_takes_all.cpp's EXACT DEFINITION), SIMD over candidates: shared by fast_wta.cpp, which
// selects row after row of a whole sum volume, and fast_sgm.cpp, which selects each row as soon
// as its sum is complete. Highway's per-target header (included once per target).
//
// The winner is the vector minimum and the first lane holding it; the uniqueness test only needs
// the smallest cost more than one candidate from the winner, since c * (100 - u) < best * 100
// holds for some such c exactly when it holds for the smallest. Backward matching keeps, per
// right pixel, the best offer so far in a reversed row (as in fast_census_cost.cpp, candidate k
// of left pixel x offers to index i0 + k); left pixels come in increasing x, so a right pixel's
// offers come in increasing d and a strict < keeps the smaller d on ties, as the definition asks.

#ifndef SV_ROW_SELECTION_SHARED
#define SV_ROW_SELECTION_SHARED
#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/winner_takes_all.h"
#include "src/cpu_fast/reversed_row.h"

namespace sv {
namespace row_selection {

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

// The padding of the reversed rows backward matching works in: index width-1-x+base+k+pad
// stays inside for every x, every base in [lowest, highest] and k < stride.
inline int reversed_row_pad(int lowest_base, int highest_base, int stride) {
  return std::max({0, -lowest_base, highest_base + stride}) + 1;
}

// What selecting a row needs besides its sums; `right_view` work space is kept per thread.
struct RowSelection {
  int width = 0;
  int count = 0;   // candidates
  int stride = 0;  // entries per pixel in the sums
  int pad = 0;     // reversed_row_pad
  WtaSettings settings;
};

}  // namespace row_selection
}  // namespace sv
#endif  // SV_ROW_SELECTION_SHARED

#if defined(SV_ROW_SELECTION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SV_ROW_SELECTION_INL_H_
#undef SV_ROW_SELECTION_INL_H_
#else
#define SV_ROW_SELECTION_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace row_selection_hwy {
namespace hn = hwy::HWY_NAMESPACE;
using row_selection::kNoCandidate;

// The least lane of `v` (unsigned bytes or non-negative int16): halves folded down to one
// 128-bit block, then the block folded onto itself by byte shifts, which bring zeros only into
// lanes that lane 0 never reads. Cheaper than MinOfLanes, which keeps every lane right.
template <class D, class V>
hn::TFromD<D> LowestLane(D d, V v) {
#if HWY_TARGET == HWY_SCALAR
  (void)d;
  return hn::GetLane(v);
#else
  constexpr size_t kBytes = sizeof(hn::TFromD<D>);
  if constexpr (hn::MaxLanes(d) * kBytes > 16) {
    const hn::Half<D> dh;
    return LowestLane(dh, hn::Min(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  } else if constexpr (hn::MaxLanes(d) == 1) {
    return hn::GetLane(v);
  } else {
    static_assert(hn::MaxLanes(d) * kBytes == 16, "whole 128-bit blocks");
    v = hn::Min(v, hn::ShiftRightBytes<8>(d, v));
    v = hn::Min(v, hn::ShiftRightBytes<4>(d, v));
    if constexpr (kBytes < 4) v = hn::Min(v, hn::ShiftRightBytes<2>(d, v));
    if constexpr (kBytes < 2) v = hn::Min(v, hn::ShiftRightBytes<1>(d, v));
    return hn::GetLane(v);
  }
#endif
}

// The fixed-point disparity of one pixel from its `count` sums `c`. Whole vectors of
// candidates are read plainly; only a last, partial one is masked.
inline int16_t PixelDisparity(const int16_t* c, int count, int base, const WtaSettings& settings) {
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const int whole = count / n * n;
  const auto none = hn::Set(d, kNoCandidate);
  auto lowest = none;
  for (int k = 0; k < whole; k += n) lowest = hn::Min(lowest, hn::LoadU(d, c + k));
  if (whole < count) {
    lowest = hn::Min(lowest, hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(count - whole)),
                                            hn::LoadU(d, c + whole), none));
  }
  const int16_t best = LowestLane(d, lowest);
  int kb = 0;
  for (int k = 0; k < count; k += n) {
    const intptr_t lane = hn::FindFirstTrue(d, hn::Eq(hn::LoadU(d, c + k), hn::Set(d, best)));
    if (lane >= 0 && k + lane < count) {
      kb = k + static_cast<int>(lane);
      break;
    }
  }
  if (settings.uniqueness > 0) {
    // The smallest sum more than one candidate from the winner: vectors clear of kb - 1 .. kb + 1
    // (and of the end) plainly, the one or two around it and a partial last one masked.
    auto others = none;
    const auto near_first = hn::Set(d, static_cast<int16_t>(kb - 1));
    const auto near_last = hn::Set(d, static_cast<int16_t>(kb + 1));
    for (int k = 0; k < count; k += n) {
      const auto v = hn::LoadU(d, c + k);
      if (k + n <= count && (k + n <= kb - 1 || k > kb + 1)) {
        others = hn::Min(others, v);
        continue;
      }
      const auto index = hn::Iota(d, k);
      const auto far = hn::Or(hn::Lt(index, near_first), hn::Gt(index, near_last));
      const auto candidate = hn::FirstN(d, static_cast<size_t>(count - k));
      others = hn::Min(others, hn::IfThenElse(hn::And(far, candidate), v, none));
    }
    const int second = LowestLane(d, others);
    if (second != kNoCandidate && static_cast<int64_t>(second) * (100 - settings.uniqueness) <
                                      static_cast<int64_t>(best) * 100) {
      return kInvalidFixedDisparity;
    }
  }
  if (static_cast<double>(best) > settings.max_cost) return kInvalidFixedDisparity;
  int offset = 0;
  if (settings.subpixel && kb > 0 && kb < count - 1) {
    offset = std::clamp(row_selection::subpixel_offset(best, c[kb - 1], c[kb + 1]),
                        -kDisparityScale / 2, kDisparityScale / 2);
  }
  return static_cast<int16_t>((base + kb) * kDisparityScale + offset);
}

// Row `sums` (pixel x's sums at x * stride) into `out` (the left view's disparities) and, when
// `right_out` is non-null, the right view's (backward matching) with `work` as space.
inline void SelectRow(const int16_t* sums, const int16_t* bases,
                      const row_selection::RowSelection& row, int16_t* out, int16_t* right_out,
                      ReversedRow& work) {
  const int width = row.width, count = row.count, stride = row.stride;
  for (int x = 0; x < width; ++x) {
    out[x] = PixelDisparity(sums + static_cast<size_t>(x) * stride, count, bases[x], row.settings);
  }
  if (right_out == nullptr) return;
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const size_t reversed_size = static_cast<size_t>(width) + 2 * row.pad + stride + n;
  // The row's left and right halves offer into reversed rows of their own, a pixel of each in
  // turn: a pixel's offers overlap its neighbour's by all but one lane, and a load that
  // overlaps a store just made waits for it to reach the cache, so neighbours are kept apart.
  for (ReversedRow::Offers& half : work.halves) {
    half.best_cost.assign(reversed_size, kNoCandidate);
    half.best_d.assign(reversed_size, 0);
  }
  const auto none = hn::Set(d, kNoCandidate);
  const auto offer_all = [&](int x, ReversedRow::Offers& half) {
    int16_t* best_cost = half.best_cost.data();
    int16_t* best_d = half.best_d.data();
    const int16_t* c = sums + static_cast<size_t>(x) * stride;
    const int base = bases[x];  // a local: the stores below may alias the bases
    const size_t first = static_cast<size_t>(width - 1 - x + base + row.pad);
    for (int k = 0; k < count; k += n) {
      auto offer = hn::LoadU(d, c + k);
      if (k + n > count) {
        offer = hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(count - k)), offer, none);
      }
      const auto held = hn::LoadU(d, best_cost + first + k);
      hn::StoreU(hn::Min(offer, held), d, best_cost + first + k);
      hn::BlendedStore(hn::Iota(d, base + k), hn::Lt(offer, held), d, best_d + first + k);
    }
  };
  const int middle = (width + 1) / 2;
  for (int x = 0; x < middle; ++x) {
    offer_all(x, work.halves[0]);
    if (middle + x < width) offer_all(middle + x, work.halves[1]);
  }
  // The right half's offers come from larger x, so larger d: they win only when strictly lower.
  const ReversedRow::Offers& low = work.halves[0];
  const ReversedRow::Offers& high = work.halves[1];
  for (int xr = 0; xr < width; ++xr) {
    const size_t i = static_cast<size_t>(width - 1 - xr + row.pad);
    const bool from_high = high.best_cost[i] < low.best_cost[i];
    const int16_t cost = from_high ? high.best_cost[i] : low.best_cost[i];
    const int16_t best_d = from_high ? high.best_d[i] : low.best_d[i];
    right_out[xr] = cost != kNoCandidate ? static_cast<int16_t>(best_d * kDisparityScale)
                                         : kInvalidFixedDisparity;
  }
}

}  // namespace row_selection_hwy
}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#endif  // SV_ROW_SELECTION_INL_H_
