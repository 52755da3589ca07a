#pragma once

// IEEE 754 binary16 ("half") conversions, exact and portable, for the half-precision cost
// storage of ESAW / ESMP (StereoParams::half_costs). The CPU reference rounds every stored cost
// through round_to_half(); the CUDA engine stores __half written by __float2half_rn, which rounds
// the same way (to nearest, ties to even, subnormals kept, overflow to infinity), so both hold
// identical values.

#include <cstdint>
#include <cstring>

#include "src/core/cost_volume.h"
#include "src/core/parallel_for.h"

namespace sv {

// Rounds to the nearest half, ties to even. Magnitudes from 65520 up become infinity (65520 lies
// halfway between the largest half, 65504, and 2^16, and 65504 is odd); magnitudes up to 2^-25
// become zero; NaN stays NaN.
inline uint16_t float_to_half_bits(float value) {
  uint32_t f;
  std::memcpy(&f, &value, sizeof f);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t magnitude = f & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return sign | 0x7E00u;    // NaN
  if (magnitude >= 0x477FF000u) return sign | 0x7C00u;   // >= 65520: infinity
  // Keeps the bits of `bits` above `shift`, rounding the dropped ones to nearest, ties to even.
  auto round_shift = [](uint32_t bits, int shift) {
    const uint32_t kept = bits >> shift;
    const uint32_t dropped = bits & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    return kept + ((dropped > halfway || (dropped == halfway && (kept & 1u))) ? 1u : 0u);
  };
  if (magnitude < 0x38800000u) {                         // below 2^-14: a subnormal half
    if (magnitude <= 0x33000000u) return sign;           // <= 2^-25 rounds to zero
    const int exponent = static_cast<int>(magnitude >> 23);  // 102..112 here
    const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    // value = mantissa * 2^(exponent - 150); in units of 2^-24 that is mantissa >> (126 - exponent).
    return sign | static_cast<uint16_t>(round_shift(mantissa, 126 - exponent));
  }
  // Normal: rebias the exponent (127 -> 15) and drop 13 mantissa bits; a carry out of the
  // mantissa correctly steps the exponent (up to 0x7C00 = infinity only from >= 65520).
  return sign | static_cast<uint16_t>(round_shift(magnitude - 0x38000000u, 13));
}

// Exact: every half is a float.
inline float half_bits_to_float(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  const uint32_t mantissa = half & 0x3FFu;
  uint32_t f;
  if (exponent == 0) {
    if (mantissa == 0) {
      f = sign;
    } else {  // subnormal: normalize the mantissa into a float
      int shift = 0;
      uint32_t m = mantissa;
      while ((m & 0x400u) == 0) m <<= 1, ++shift;
      f = sign | ((113u - shift) << 23) | ((m & 0x3FFu) << 13);
    }
  } else if (exponent == 31) {
    f = sign | 0x7F800000u | (mantissa << 13);
  } else {
    f = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &f, sizeof value);
  return value;
}

// The float nearest to `value` that a half can hold.
inline float round_to_half(float value) { return half_bits_to_float(float_to_half_bits(value)); }

// Rounds every cost of the volume, as storing it in half precision would; parallel over rows.
inline void round_to_half(CostVolume<float>& volume) {
  const size_t row = static_cast<size_t>(volume.width()) * volume.count();
  float* costs = volume.costs().data();
  parallel_for(0, volume.height(), [&](int y) {
    float* c = costs + static_cast<size_t>(y) * row;
    for (size_t i = 0; i < row; ++i) c[i] = round_to_half(c[i]);
  });
}

}  // namespace sv
