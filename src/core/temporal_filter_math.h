#pragma once

#include <cstdint>

#include "src/core/host_device.h"

namespace sv {

// The temporal filter's per-pixel rule, one definition for the CPU reference and the CUDA
// kernel (bit for bit: integers only). All disparities are 1/16 px fixed point (disparity.h).
//
// State per pixel: `previous` (the last output, kTemporalInvalid for none) and `age` (frames the
// held value has been kept without a valid input).
//   input valid, previous valid, |input - previous| <= delta:
//       out = floor((previous * 256 + alpha_q8 * (input - previous) + 128) / 256)
//       (previous moved alpha of the way towards the input, rounded half up); age = 0.
//   input valid otherwise (no history, or a change larger than delta: the scene moved):
//       out = input (reset); age = 0.
//   input invalid, previous valid and age < persistence: out = previous; age + 1 (the hole is
//       bridged by the last value for up to `persistence` frames).
//   input invalid otherwise: out = invalid; age unchanged.
// previous = out afterwards. So a valid output never differs from a valid input by more than
// delta: a moving surface leaves no trail beyond the reset threshold.
struct TemporalFilterSettings {
  int alpha_q8 = 102;     // 1..256: weight of the new frame, in 1/256
  int delta_fixed = 24;   // 0..1024: largest change (1/16 px) still smoothed
  int persistence = 0;    // 0..255 frames
};

constexpr int16_t kTemporalInvalid = INT16_MIN;  // = kInvalidFixedDisparity (disparity.h)

SV_HOST_DEVICE inline int16_t temporal_filter_pixel(int16_t input, int16_t& previous,
                                                    uint8_t& age,
                                                    const TemporalFilterSettings& s) {
  int16_t out;
  if (input != kTemporalInvalid) {
    age = 0;
    const int change = static_cast<int>(input) - static_cast<int>(previous);
    if (previous != kTemporalInvalid && change <= s.delta_fixed && -change <= s.delta_fixed) {
      const int scaled = static_cast<int>(previous) * 256 + s.alpha_q8 * change + 128;
      // Floor division by 256 (C++ division truncates towards zero).
      out = static_cast<int16_t>((scaled - (scaled < 0 ? 255 : 0)) / 256);
    } else {
      out = input;
    }
  } else if (previous != kTemporalInvalid && age < s.persistence) {
    ++age;
    out = previous;
  } else {
    out = kTemporalInvalid;
  }
  previous = out;
  return out;
}

}  // namespace sv
