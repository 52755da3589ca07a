// Normalized Hamming cost of census codes (Fuerntratt poster), in integers.
//
// EXACT DEFINITION (the CUDA engine reproduces this bit for bit)
//   census_cost(L, R): with both = L.valid & R.valid (per 64-bit word),
//     v = popcount(both), h = popcount((L.bits ^ R.bits) & both);
//     cost = (h * kMaxMatchCost + v / 2) / v in integer division (rounded half up),
//     and cost = kMaxMatchCost when v == 0 (nothing to compare: as bad as a full mismatch).
//     Counting only bits valid in both keeps borders and missing pixels from biasing the cost.
//   census_cost_volume: for left pixel (x, y) and k in [0, count): d = range.base(x, y) + k,
//     xr = x - d; cost(x, y, k) = kMaxMatchCost when xr is outside [0, width), otherwise
//     census_cost(left(x, y), right(xr, y)).
#include "src/core/census_cost.h"

#include "src/core/error.h"
#include "src/core/pixel_cost_volume.h"

namespace sv {
namespace {

int popcount64(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_popcountll(v);
#else
  int n = 0;
  for (; v != 0; v &= v - 1) ++n;
  return n;
#endif
}

}  // namespace

uint8_t census_cost(const CensusCode& left, const CensusCode& right) {
  int v = 0;
  int h = 0;
  for (int w = 0; w < 2; ++w) {
    const uint64_t both = left.valid[w] & right.valid[w];
    v += popcount64(both);
    h += popcount64((left.bits[w] ^ right.bits[w]) & both);
  }
  if (v == 0) return static_cast<uint8_t>(kMaxMatchCost);
  return static_cast<uint8_t>((h * kMaxMatchCost + v / 2) / v);
}

CostVolume<uint8_t> census_cost_volume(const CensusImage& left, const CensusImage& right,
                                       const SearchRange& range) {
  return pixel_cost_volume("census cost", left, right, range, static_cast<uint8_t>(kMaxMatchCost),
                           [&](int x, int xr, int y) { return census_cost(left.at(x, y), right.at(xr, y)); });
}

}  // namespace sv
