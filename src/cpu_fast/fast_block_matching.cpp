// Block-matching SAD (block_matching.cpp's EXACT DEFINITION) with one SIMD lane per candidate.
//
// The reference's scheme, turned so that the candidates are the lanes: for a band of rows,
// column sums over the window's rows are kept per virtual column c (-r .. width + r - 1) and
// candidate, rolled down the band (add the row entering the window, subtract the one leaving),
// and each output row's window sums are slid along x from them. Candidate k of column c reads
// right pixel c - base - k, a run that walks the right row backwards, so every right row is
// copied reversed, with its border replicated as far as any candidate reaches: candidates are
// then one contiguous load. All sums are integers, as in the reference, so the results match bit
// for bit: column sums (at most 21 * 255) in 16-bit lanes, window sums in 32-bit ones.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_block_matching.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "src/core/block_matching.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_block_matching.h"

#ifndef SV_FAST_BLOCK_MATCHING_SHARED
#define SV_FAST_BLOCK_MATCHING_SHARED
namespace sv {
namespace bm_detail {

// Rows per independently rolled band, as in the reference (any value gives the same sums).
constexpr int kBandRows = 16;

}  // namespace bm_detail
}  // namespace sv
#endif

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The window sums of |L - R| for the uniform range starting at `base`, into `sums`.
void SadWindowSums(const ImageU8& left, const ImageU8& right, int radius, int base,
                   CostVolume<uint32_t>& sums) {
  const hn::ScalableTag<uint16_t> d16;
  const hn::ScalableTag<int32_t> d32;
  const hn::Rebind<uint16_t, decltype(d32)> dh16;  // as many 16-bit lanes as 32-bit ones
  const hn::Rebind<int16_t, decltype(d32)> dhi16;
  const int n16 = static_cast<int>(hn::Lanes(d16));
  const int n32 = static_cast<int>(hn::Lanes(d32));
  const int width = left.width();
  const int height = left.height();
  const int count = sums.count();
  const int stride = (count + n16 - 1) / n16 * n16;  // candidates computed per column
  const int columns = width + 2 * radius;

  // Reversed right rows: entry i holds R(clamp(highest - i)), highest being the rightmost
  // coordinate any candidate reads; `span` entries reach the leftmost.
  const int highest = width + radius - 1 - base;
  const int span = width + 2 * radius + stride - 1;
  std::vector<uint16_t> reversed(static_cast<size_t>(height) * span);
  parallel_for(0, height, [&](int y) {
    uint16_t* out = reversed.data() + static_cast<size_t>(y) * span;
    const uint8_t* row = right.row(y);
    for (int i = 0; i < span; ++i) out[i] = row[std::clamp(highest - i, 0, width - 1)];
  });

  const int bands = (height + bm_detail::kBandRows - 1) / bm_detail::kBandRows;
  parallel_for(0, bands, [&](int band) {
    const int y_begin = band * bm_detail::kBandRows;
    const int y_end = std::min(height, y_begin + bm_detail::kBandRows);
    std::vector<uint16_t> column_sums(static_cast<size_t>(columns) * stride);
    std::vector<uint32_t> tail(2 * static_cast<size_t>(n32));
    // |L(c, y) - R(c - base - k, y)| for candidates k0 .. k0 + n16 - 1, borders replicated.
    auto term = [&](int c, int y, int k0) {
      const int row = std::clamp(y, 0, height - 1);
      const auto l = hn::Set(d16, left.row(row)[std::clamp(c, 0, width - 1)]);
      const auto r = hn::LoadU(d16, reversed.data() + static_cast<size_t>(row) * span + highest - c + base + k0);
      return hn::Sub(hn::Max(l, r), hn::Min(l, r));
    };
    for (int y = y_begin; y < y_end; ++y) {
      for (int c = -radius; c < width + radius; ++c) {
        uint16_t* column = column_sums.data() + static_cast<size_t>(c + radius) * stride;
        for (int k0 = 0; k0 < stride; k0 += n16) {
          auto s = hn::Zero(d16);
          if (y == y_begin) {
            for (int j = -radius; j <= radius; ++j) s = hn::Add(s, term(c, y + j, k0));
          } else {
            // Wrap-around is harmless: the true column sum is never negative.
            s = hn::Sub(hn::Add(hn::LoadU(d16, column + k0), term(c, y + radius, k0)),
                        term(c, y - radius - 1, k0));
          }
          hn::StoreU(s, d16, column + k0);
        }
      }
      for (int k0 = 0; k0 < count; k0 += n32) {
        auto window_sum = hn::Zero(d32);
        for (int c = 0; c <= 2 * radius; ++c) {
          const auto column = hn::LoadU(dh16, column_sums.data() + static_cast<size_t>(c) * stride + k0);
          window_sum = hn::Add(window_sum, hn::BitCast(d32, hn::PromoteTo(hn::Rebind<uint32_t, decltype(d32)>(), column)));
        }
        const int lanes = std::min(n32, count - k0);
        for (int x = 0; x < width; ++x) {
          if (x > 0) {
            const uint16_t* entering = column_sums.data() + static_cast<size_t>(x + 2 * radius) * stride + k0;
            const uint16_t* leaving = column_sums.data() + static_cast<size_t>(x - 1) * stride + k0;
            const auto change = hn::BitCast(dhi16, hn::Sub(hn::LoadU(dh16, entering), hn::LoadU(dh16, leaving)));
            window_sum = hn::Add(window_sum, hn::PromoteTo(d32, change));
          }
          uint32_t* out = sums.pixel(x, y) + k0;
          if (lanes == n32) {
            hn::StoreU(hn::BitCast(hn::Rebind<uint32_t, decltype(d32)>(), window_sum),
                       hn::Rebind<uint32_t, decltype(d32)>(), out);
          } else {  // the last candidates of the pixel: the next pixel's follow
            hn::StoreU(hn::BitCast(hn::Rebind<uint32_t, decltype(d32)>(), window_sum),
                       hn::Rebind<uint32_t, decltype(d32)>(), tail.data());
            std::memcpy(out, tail.data(), sizeof(uint32_t) * lanes);
          }
        }
      }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(SadWindowSums);

CostVolume<uint32_t> fast_sad_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                          const SearchRange& range) {
  if (!range.is_uniform()) return sad_cost_volume(left, right, window, range);
  // The reference checks the inputs (one message for both engines) and has nothing to sum on
  // an empty image or range.
  if (window < 3 || window > 21 || window % 2 == 0 || !left.same_size(right) ||
      range.count() <= 0 || left.width() == 0 || left.height() == 0) {
    return sad_cost_volume(left, right, window, range);
  }
  CostVolume<uint32_t> sums(left.width(), left.height(), range);
  HWY_DYNAMIC_DISPATCH(SadWindowSums)(left, right, window / 2, range.uniform_base(), sums);
  const int width = left.width();
  const int count = range.count();
  const int base = range.uniform_base();
  parallel_for(0, left.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      // Candidates k with x - base - k outside [0, width): k > x - base or k <= x - base - width.
      uint32_t* pixel = sums.pixel(x, y);
      const int first_inside = std::clamp(x - base - width + 1, 0, count);
      const int past_inside = std::clamp(x - base + 1, 0, count);
      std::fill(pixel, pixel + first_inside, kBlockMatchingOutsideCost);
      std::fill(pixel + std::max(first_inside, past_inside), pixel + count, kBlockMatchingOutsideCost);
    }
  });
  return sums;
}

}  // namespace sv
#endif  // HWY_ONCE
