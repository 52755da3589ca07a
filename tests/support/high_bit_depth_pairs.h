#pragma once

#include <cstdint>

#include "src/core/image.h"
#include "tests/support/test_images.h"

namespace sv::test {

// 16-bit stereo pairs for the high bit depth path (src/core/high_bit_depth.h).

struct ShiftedPair16 {
  ImageU16 left, right;
};

// Like shifted_pair (disparity `shift` everywhere), with the texture only in the low byte:
// value = 0x4000 + texture, so the 8-bit view (the high byte) is a flat 0x40 and only a 16-bit
// census can see the texture.
inline ShiftedPair16 low_byte_shifted_pair(int width, int height, int shift, uint32_t seed) {
  const ShiftedPair pair8 = shifted_pair(width, height, shift, seed);
  ShiftedPair16 pair{ImageU16(width, height), ImageU16(width, height)};
  for (size_t i = 0; i < pair8.left.size(); ++i) {
    pair.left.data()[i] = static_cast<uint16_t>(0x4000 + pair8.left.data()[i]);
    pair.right.data()[i] = static_cast<uint16_t>(0x4000 + pair8.right.data()[i]);
  }
  return pair;
}

// Full-range 16-bit values whose order and high byte are those of an 8-bit pair: v * 257 maps
// 0..255 onto 0..65535 keeping every comparison, and its high byte is v.
inline ImageU16 widened(const ImageU8& image) {
  ImageU16 wide(image.width(), image.height());
  for (size_t i = 0; i < image.size(); ++i) wide.data()[i] = static_cast<uint16_t>(image.data()[i] * 257);
  return wide;
}

// A block of `value` at (x0, y0), size w x h.
inline void fill_block(ImageU16& image, int x0, int y0, int w, int h, uint16_t value) {
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) image.at(x, y) = value;
}

}  // namespace sv::test
