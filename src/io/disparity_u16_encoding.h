#pragma once

#include <cstdint>

#include "src/core/disparity.h"
#include "src/core/image.h"

namespace sv {

// How a lossless recording stores the engine's fixed-point disparity (1/16 px) in unsigned 16-bit
// samples: value = fixed + offset, with offset = 16 * (1 - min_disparity), so the smallest
// disparity the search can give lands on 16 (one pixel of headroom below it), and 0 means
// invalid. Decoding: disparity_px = (value - offset) / 16 for value != 0. The offset is written
// into the recording's sidecar. Values outside 1..65535 (impossible for a validated disparity
// range) are clamped and counted.
struct DisparityU16Encoding {
  int offset = kDisparityScale;

  static DisparityU16Encoding for_min_disparity(int min_disparity) {
    return DisparityU16Encoding{kDisparityScale * (1 - min_disparity)};
  }

  uint16_t encode(int16_t fixed, int64_t* clamped = nullptr) const {
    if (!is_valid_fixed_disparity(fixed)) return 0;
    const int value = fixed + offset;
    if (value >= 1 && value <= 65535) return static_cast<uint16_t>(value);
    if (clamped) ++*clamped;
    return static_cast<uint16_t>(value < 1 ? 1 : 65535);
  }

  int16_t decode(uint16_t value) const {
    return value == 0 ? kInvalidFixedDisparity : static_cast<int16_t>(value - offset);
  }

  ImageU16 encode(const ImageI16& fixed, int64_t* clamped = nullptr) const {
    ImageU16 out(fixed.width(), fixed.height());
    for (size_t i = 0; i < fixed.size(); ++i) out.data()[i] = encode(fixed.data()[i], clamped);
    return out;
  }

  ImageI16 decode(const ImageU16& values) const {
    ImageI16 out(values.width(), values.height());
    for (size_t i = 0; i < values.size(); ++i) out.data()[i] = decode(values.data()[i]);
    return out;
  }
};

}  // namespace sv
