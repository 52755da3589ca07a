// Census matching costs (census_cost.cpp's EXACT DEFINITION) with one SIMD lane per candidate.
//
// For left pixel x the candidates k = 0, 1, ... match right pixels x - base - k, a run that
// walks the right row backwards. Each right row is therefore copied reversed into a buffer
// padded with all-invalid codes: candidate k of pixel x then sits at index i0 + k, contiguous
// in k, and a right pixel outside the image is an invalid code, whose cost (no common valid bit)
// is kMaxMatchCost exactly as the definition asks, with no bounds test.
// The cost (h * 64 + v / 2) / v is computed in float: numerator and v are below 2^13, so the
// quotient's float rounding never reaches the next integer and truncation gives the exact floor.
// Where every bit of both codes is valid (the left pixel's and a whole vector of right pixels':
// a prefix count over the reversed row says so in two loads), v is the window's bit count P, so
// the validity masks and the division drop out: cost = (h * 64 + P / 2) * M >> shift, with M and
// shift chosen once (FullCodeCost) and checked against the division for every h in 0..P.
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

#ifndef SV_FAST_CENSUS_COST_SHARED
#define SV_FAST_CENSUS_COST_SHARED
namespace sv {
namespace census_cost_detail {

// The cost of two fully valid codes of `bits` bits, h bits apart: (h * 64 + bits / 2) / bits as
// (h * 64 + bits / 2) * multiplier >> shift, exact for every h in 0..bits (checked here).
struct FullCodeCost {
  int bits = 0;
  uint32_t multiplier = 0;
  int shift = 0;
  bool exact = false;

  explicit FullCodeCost(int code_bits) : bits(code_bits) {
    for (shift = 12; shift <= 18 && !exact; ++shift) {
      multiplier = ((uint32_t{1} << shift) + bits - 1) / bits;
      exact = true;
      for (int h = 0; h <= bits && exact; ++h) {
        const uint32_t numerator = static_cast<uint32_t>(h * 64 + bits / 2);
        exact = (numerator * multiplier) >> shift == numerator / static_cast<uint32_t>(bits);
      }
    }
    --shift;
  }
};

// Valid-word masks of a code whose every bit is valid.
inline uint32_t full_word(int bits, int word) {
  const int in_word = std::clamp(bits - 32 * word, 0, 32);
  return in_word == 32 ? ~0u : (uint32_t{1} << in_word) - 1u;
}

}  // namespace census_cost_detail
}  // namespace sv
#endif

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// `pad`: invalid codes on each side of the reversed right rows, enough for every candidate.
// `code_bits`: the window's bits.
void CensusCostRows(const PackedCensus& left, const PackedCensus& right, const ImageI16& bases,
                    int pad, int code_bits, PaddedVolume<uint8_t>& costs) {
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const hn::RebindToFloat<decltype(du)> df;
  const hn::Rebind<uint8_t, decltype(di)> d8;
  const int n = static_cast<int>(hn::Lanes(du));
  const int width = left.width;
  const int words = left.words;
  const int stride = costs.stride();
  const size_t reversed_size = static_cast<size_t>(width) + 2 * pad + stride + n;
  const census_cost_detail::FullCodeCost full_cost(code_bits);
  uint32_t full[4] = {};
  for (int w = 0; w < words; ++w) full[w] = census_cost_detail::full_word(code_bits, w);
  parallel_for(0, left.height, [&](int y) {
    std::vector<uint32_t> reversed_bits(reversed_size * words, 0u);
    std::vector<uint32_t> reversed_valid(reversed_size * words, 0u);
    // partial[i]: reversed positions before i whose code is not wholly valid.
    std::vector<int> partial(reversed_size + 1, 0);
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
    for (size_t i = 0; i < reversed_size; ++i) {
      bool whole = full_cost.exact;
      for (int w = 0; w < words; ++w) whole = whole && reversed_valid[w * reversed_size + i] == full[w];
      partial[i + 1] = partial[i] + (whole ? 0 : 1);
    }
    const int16_t* base_row = bases.row(y);
    const auto max_cost = hn::Set(di, kMaxMatchCost);
    const auto half_bits = hn::Set(du, static_cast<uint32_t>(code_bits / 2));
    const auto multiplier = hn::Set(du, full_cost.multiplier);
    // Locals, not loads through the codes or the captures: a store of bytes may alias anything,
    // so the compiler would read those again after every store.
    const uint32_t* reversed = reversed_bits.data();
    const int* partial_before = partial.data();
    const size_t word_step = reversed_size;
    const int shift = full_cost.shift;
    const int code_words = words;
    const int row_stride = stride;
    for (int x = 0; x < width; ++x) {
      const size_t first = static_cast<size_t>(width - 1 - x + base_row[x] + pad);
      uint8_t* out = costs.pixel(x, y);
      bool left_whole = true;
      uint32_t left_code[4] = {};
      for (int w = 0; w < words; ++w) {
        left_whole = left_whole && left.valid_row(w, y)[x] == full[w];
        left_code[w] = left.bits_row(w, y)[x];
      }
      decltype(hn::Zero(du)) left_vector[4];
      for (int w = 0; w < code_words; ++w) left_vector[w] = hn::Set(du, left_code[w]);
      for (int k = 0; k < row_stride; k += n) {
        const size_t at = first + k;
        if (left_whole && partial_before[at + n] == partial_before[at]) {
          auto differ = hn::PopulationCount(hn::Xor(left_vector[0], hn::LoadU(du, reversed + at)));
          for (int w = 1; w < code_words; ++w) {
            const auto right_bits = hn::LoadU(du, reversed + w * word_step + at);
            differ = hn::Add(differ, hn::PopulationCount(hn::Xor(left_vector[w], right_bits)));
          }
          const auto numerator = hn::Add(hn::ShiftLeft<6>(differ), half_bits);
          const auto cost = hn::ShiftRightSame(hn::Mul(numerator, multiplier), shift);
          hn::StoreU(hn::U8FromU32(cost), d8, out + k);  // costs are at most 64
          continue;
        }
        auto common = hn::Zero(du);
        auto differ = hn::Zero(du);
        for (int w = 0; w < words; ++w) {
          const auto left_bits = hn::Set(du, left.bits_row(w, y)[x]);
          const auto left_valid = hn::Set(du, left.valid_row(w, y)[x]);
          const size_t word_at = w * reversed_size + at;
          const auto both = hn::And(left_valid, hn::LoadU(du, reversed_valid.data() + word_at));
          const auto diff = hn::And(hn::Xor(left_bits, hn::LoadU(du, reversed_bits.data() + word_at)), both);
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
  if (left.width != right.width || left.height != right.height || left.words != right.words ||
      left.code_bits != right.code_bits || left.code_bits > 32 * left.words) {
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
  HWY_DYNAMIC_DISPATCH(CensusCostRows)(left, right, bases, pad, left.code_bits, costs);
}

}  // namespace sv
#endif  // HWY_ONCE
