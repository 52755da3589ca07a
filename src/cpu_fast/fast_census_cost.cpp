// Census matching costs (census_cost.cpp's EXACT DEFINITION) with one SIMD lane per candidate.
//
// For left pixel x the candidates k = 0, 1, ... match right pixels x - base - k, a run that
// walks the right row backwards. Each right row is therefore copied reversed into a buffer
// padded with all-invalid codes: candidate k of pixel x then sits at index i0 + k, contiguous
// in k, and a right pixel outside the image is an invalid code, whose cost (no common valid bit)
// is kMaxMatchCost exactly as the definition asks, with no bounds test.
// The cost (h * 64 + v / 2) / v is computed in float: numerator and v are below 2^13, so the
// quotient's float rounding never reaches the next integer and truncation gives the exact floor.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_census_cost.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/census_cost.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_census_cost.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// `pad`: invalid codes on each side of the reversed right rows, enough for every candidate.
void CensusCostRows(const PackedCensus& left, const PackedCensus& right, const ImageI16& bases,
                    int pad, PaddedVolume<uint8_t>& costs) {
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const hn::RebindToFloat<decltype(du)> df;
  const hn::Rebind<uint8_t, decltype(di)> d8;
  const int n = static_cast<int>(hn::Lanes(du));
  const int width = left.width;
  const int words = left.words;
  const int stride = costs.stride();
  const size_t reversed_size = static_cast<size_t>(width) + 2 * pad + stride + n;
  parallel_for(0, left.height, [&](int y) {
    std::vector<uint32_t> reversed_bits(reversed_size * words, 0u);
    std::vector<uint32_t> reversed_valid(reversed_size * words, 0u);
    for (int w = 0; w < words; ++w) {
      const uint32_t* bits = right.bits_row(w, y);
      const uint32_t* valid = right.valid_row(w, y);
      uint32_t* rbits = reversed_bits.data() + w * reversed_size + pad + width - 1;
      uint32_t* rvalid = reversed_valid.data() + w * reversed_size + pad + width - 1;
      for (int xr = 0; xr < width; ++xr) {
        rbits[-xr] = bits[xr];
        rvalid[-xr] = valid[xr];
      }
    }
    const int16_t* base_row = bases.row(y);
    const auto max_cost = hn::Set(di, kMaxMatchCost);
    for (int x = 0; x < width; ++x) {
      const size_t first = static_cast<size_t>(width - 1 - x + base_row[x] + pad);
      uint8_t* out = costs.pixel(x, y);
      for (int k = 0; k < stride; k += n) {
        auto common = hn::Zero(du);
        auto differ = hn::Zero(du);
        for (int w = 0; w < words; ++w) {
          const auto left_bits = hn::Set(du, left.bits_row(w, y)[x]);
          const auto left_valid = hn::Set(du, left.valid_row(w, y)[x]);
          const size_t at = w * reversed_size + first + k;
          const auto both = hn::And(left_valid, hn::LoadU(du, reversed_valid.data() + at));
          const auto diff = hn::And(hn::Xor(left_bits, hn::LoadU(du, reversed_bits.data() + at)), both);
          common = hn::Add(common, hn::PopulationCount(both));
          differ = hn::Add(differ, hn::PopulationCount(diff));
        }
        const auto v = hn::BitCast(di, common);
        const auto numerator = hn::Add(hn::ShiftLeft<6>(hn::BitCast(di, differ)), hn::ShiftRight<1>(v));
        // v = 0 (no common valid bit) takes max_cost below; dividing by at least 1 keeps its
        // lane a number, since a NaN converted to int is undefined (the scalar target traps).
        const auto divisor = hn::Max(hn::ConvertTo(df, v), hn::Set(df, 1.0f));
        const auto quotient = hn::ConvertTo(di, hn::Div(hn::ConvertTo(df, numerator), divisor));
        const auto cost = hn::IfThenElse(hn::Eq(v, hn::Zero(di)), max_cost, quotient);
        hn::StoreU(hn::DemoteTo(d8, cost), d8, out + k);
      }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(CensusCostRows);

PaddedVolume<uint8_t> fast_census_cost_volume(const PackedCensus& left, const PackedCensus& right,
                                              const SearchRange& range) {
  PaddedVolume<uint8_t> costs;
  fast_census_cost_volume(left, right, range, costs);
  return costs;
}

void fast_census_cost_volume(const PackedCensus& left, const PackedCensus& right,
                             const SearchRange& range, PaddedVolume<uint8_t>& costs) {
  if (left.width != right.width || left.height != right.height || left.words != right.words) {
    throw InputError("census cost: left and right codes differ in size or window");
  }
  if (!range.is_uniform() && !range.per_pixel_base().same_size(left.width, left.height)) {
    throw InputError("census cost: the per-pixel search range differs in size from the images");
  }
  costs.reshape(left.width, left.height, range);
  if (left.width == 0 || left.height == 0 || range.count() == 0) return;
  const ImageI16 bases = base_plane(range, left.width, left.height);
  const auto [lowest, highest] = std::minmax_element(bases.data(), bases.data() + bases.size());
  // Index width-1-x+base+k+pad must stay inside the reversed row for every x and k < stride.
  const int pad = std::max({0, -static_cast<int>(*lowest), static_cast<int>(*highest) + costs.stride()}) + 1;
  HWY_DYNAMIC_DISPATCH(CensusCostRows)(left, right, bases, pad, costs);
}

}  // namespace sv
#endif  // HWY_ONCE
