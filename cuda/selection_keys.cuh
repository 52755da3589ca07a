#pragma once

#include <climits>
#include <cmath>
#include <cstdint>

// The pieces of the fused disparity selection (disparity_selection.cu) that other kernels share:
// candidate keys, the subpixel offset and the cost limit, exactly as winner_takes_all.cpp decides.
namespace sv::cuda {

// Keys order candidates by cost, then by k (the reference's tie rule): cost << 8 | k, below
// 2^24. A padding candidate's key_low has every bit set, so its key is 2^24 or more: it never
// wins, and its offers are dropped.
constexpr uint32_t kNoOffer = 0xffffffffu;
constexpr uint32_t kRealKeyLimit = 1u << 24;

// The key of the 16-bit cost in the low (or high) half of `word`: one byte permute, as key_low
// is k (its bytes 1..3 zero) or all ones.
__device__ __forceinline__ uint32_t make_key(uint32_t word, bool high, uint32_t key_low) {
  return __byte_perm(word, key_low, high ? 0x7324 : 0x7104);
}

// winner_takes_all.cpp's offset: sign(n) * floor((2|n| + denom) / (2 denom)), n = 8 (cm - cp),
// for denom > 0. As c0 is the smallest cost, |cm - cp| <= denom, so the quotient lies in 0..8
// (the reference's clamp to [-8, 8] never acts) and four comparisons find it where an integer
// division takes about 20 instructions.
__device__ __forceinline__ int subpixel_offset(int c0, int cm, int cp) {
  const int denom = cm + cp - 2 * c0;
  if (denom <= 0) return 0;
  const int n = 8 * (cm - cp);
  const int numerator = 2 * (n < 0 ? -n : n) + denom;
  const int unit = 2 * denom;  // the quotient is the largest q with q * unit <= numerator
  int magnitude = numerator >= 4 * unit ? 4 : 0;
  magnitude += numerator >= (magnitude + 2) * unit ? 2 : 0;
  magnitude += numerator >= (magnitude + 1) * unit ? 1 : 0;
  magnitude += numerator >= 8 * unit ? 1 : 0;  // 7 so far can still be 8
  return n < 0 ? -magnitude : magnitude;
}

// WtaSettings::max_cost as the integer bound of an integer cost: best > max_cost exactly when
// best > floor(max_cost); below 0 every cost is above it, NaN never compares greater.
inline int cost_limit_of(double max_cost) {
  if (std::isnan(max_cost) || max_cost >= static_cast<double>(INT_MAX)) return INT_MAX;
  if (max_cost < 0.0) return -1;
  return static_cast<int>(std::floor(max_cost));
}

}  // namespace sv::cuda
