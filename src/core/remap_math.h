#pragma once

// The per-pixel arithmetic of the bilinear remap (remap.cpp holds the definition), shared by the
// CPU reference and cuda/remap.cu so both quantize, weigh and round the same way. Float sums use
// explicitly rounded operations on the device, and remap.cpp is compiled without contraction:
// no fused multiply-add where the reference rounds twice.

#include <cmath>
#include <cstdint>

#include "src/core/host_device.h"

namespace sv::remap_math {

// Sub-pixel positions are quantized to 1/32 px (5 bits), as OpenCV's INTER_LINEAR remap does.
constexpr int kFractionBits = 5;
constexpr int kFractions = 1 << kFractionBits;
// Integer weights are in 1/32768 (15 bits).
constexpr int kWeightBits = 15;

// Where one rectified pixel reads the raw image: the top-left corner of its 2x2 neighbourhood
// and the fractions (0..31) towards the right and the bottom neighbours.
struct Tap {
  int x0 = 0, y0 = 0;
  int fx = 0, fy = 0;
  bool outside = false;  // a map value that is not a finite, representable position
};

// round(value * 32) half to even, split into cell and fraction. The product is exact (a power
// of two), so only the rounding differs between implementations, and both round half to even.
SV_HOST_DEVICE inline bool quantize(float value, int& cell, int& fraction) {
  const float scaled = value * static_cast<float>(kFractions);
  // Also false for NaN; OpenCV's conversion gives INT_MIN there, which lands far outside.
  if (!(scaled > -2147483520.0f && scaled < 2147483520.0f)) return false;
#ifdef __CUDA_ARCH__
  const int q = __float2int_rn(scaled);
#else
  const int q = static_cast<int>(std::nearbyint(scaled));
#endif
  cell = q >> kFractionBits;  // arithmetic shift: floor for negative positions too
  fraction = q & (kFractions - 1);
  return true;
}

SV_HOST_DEVICE inline Tap make_tap(float map_x, float map_y) {
  Tap tap;
  tap.outside = !quantize(map_x, tap.x0, tap.fx) || !quantize(map_y, tap.y0, tap.fy);
  return tap;
}

// Integer weights of the four neighbours (top-left, top-right, bottom-left, bottom-right):
// (32 - fx)(32 - fy) * 32 and so on, summing to 32768. The one exception is OpenCV's table entry
// for an exact pixel position: 32768 does not fit its 16-bit weights, so it holds 32767 and its
// correction puts the missing 1 on the bottom-right weight.
SV_HOST_DEVICE inline void fixed_weights(int fx, int fy, int w[4]) {
  if (fx == 0 && fy == 0) {
    w[0] = 32767;
    w[1] = 0;
    w[2] = 0;
    w[3] = 1;
    return;
  }
  const int scale = (1 << kWeightBits) / (kFractions * kFractions);  // 32
  w[0] = (kFractions - fx) * (kFractions - fy) * scale;
  w[1] = fx * (kFractions - fy) * scale;
  w[2] = (kFractions - fx) * fy * scale;
  w[3] = fx * fy * scale;
}

// Float weights: the same products / 1024, all exact in float (no exception at fx = fy = 0).
SV_HOST_DEVICE inline void float_weights(int fx, int fy, float w[4]) {
  const float unit = 1.0f / static_cast<float>(kFractions * kFractions);
  w[0] = static_cast<float>((kFractions - fx) * (kFractions - fy)) * unit;
  w[1] = static_cast<float>(fx * (kFractions - fy)) * unit;
  w[2] = static_cast<float>((kFractions - fx) * fy) * unit;
  w[3] = static_cast<float>(fx * fy) * unit;
}

// (sum of w_i v_i + 16384) >> 15 for 8-bit values: never above 255.
SV_HOST_DEVICE inline uint8_t blend_fixed(const int v[4], const int w[4]) {
  const int sum = v[0] * w[0] + v[1] * w[1] + v[2] * w[2] + v[3] * w[3];
  return static_cast<uint8_t>((sum + (1 << (kWeightBits - 1))) >> kWeightBits);
}

// ((v0 w0 + v1 w1) + v2 w2) + v3 w3, each product and sum rounded to float on its own.
SV_HOST_DEVICE inline float blend_float(const float v[4], const float w[4]) {
#ifdef __CUDA_ARCH__
  float sum = __fmul_rn(v[0], w[0]);
  sum = __fadd_rn(sum, __fmul_rn(v[1], w[1]));
  sum = __fadd_rn(sum, __fmul_rn(v[2], w[2]));
  return __fadd_rn(sum, __fmul_rn(v[3], w[3]));
#else
  float sum = v[0] * w[0];
  sum = sum + v[1] * w[1];
  sum = sum + v[2] * w[2];
  return sum + v[3] * w[3];
#endif
}

// The float sum of 16-bit values rounded half to even and clamped to 0..65535.
SV_HOST_DEVICE inline uint16_t round_to_u16(float sum) {
#ifdef __CUDA_ARCH__
  const int r = __float2int_rn(sum);
#else
  const int r = static_cast<int>(std::nearbyint(sum));
#endif
  return static_cast<uint16_t>(r < 0 ? 0 : (r > 65535 ? 65535 : r));
}

}  // namespace sv::remap_math
