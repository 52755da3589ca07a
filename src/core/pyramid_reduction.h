#pragma once

// The block rules of the full-depth pyramid (pyramid.cpp's definition): how the four samples of
// a 2x2 block of a 16-bit or float plane become one coarse sample. One definition for both
// engines (cuda/pyramid.cu calls these too).
#include <cmath>
#include <cstdint>

#include "src/core/host_device.h"

namespace sv {

// 16-bit: the mean of the samples that are not `missing_value`, rounded half up; no sample
// left: missing; a mean equal to the missing value moves one step away from it.
SV_HOST_DEVICE inline uint16_t reduce_block(const uint16_t samples[4], int missing_value) {
  int sum = 0, n = 0;
  for (int i = 0; i < 4; ++i) {
    if (samples[i] == missing_value) continue;
    sum += samples[i];
    ++n;
  }
  if (n == 0) return static_cast<uint16_t>(missing_value);
  int mean = (sum + n / 2) / n;
  if (mean == missing_value) mean = missing_value < 65535 ? missing_value + 1 : missing_value - 1;
  return static_cast<uint16_t>(mean);
}

// Float: NaN and `missing_value` left out, the sum in double in sample order (additions only,
// so no contraction can change it), rounded once to float; no sample left: NaN; a mean equal to
// the missing value moves to the next float above it.
SV_HOST_DEVICE inline float reduce_block(const float samples[4], float missing_value) {
  double sum = 0.0;
  int n = 0;
  for (int i = 0; i < 4; ++i) {
    const float s = samples[i];
    if (s != s || s == missing_value) continue;  // s != s: NaN
    sum += static_cast<double>(s);
    ++n;
  }
  if (n == 0) return nanf("");
  const float mean = static_cast<float>(sum / n);
  if (mean == missing_value) return nextafterf(missing_value, INFINITY);
  return mean;
}

}  // namespace sv
