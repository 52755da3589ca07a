#pragma once

#include <cstdint>

#include "src/core/image.h"
#include "tests/support/test_images.h"

namespace sv::test {

// Float stereo pairs for the float input path (src/core/high_bit_depth.h, float_view_range).

struct ShiftedPairF {
  ImageF32 left, right;
};

// Like shifted_pair (disparity `shift` everywhere), with all the texture inside less than half a
// gray level: value = 100 + texture * 0.45 / 255. Two anchor pixels (0 at (0, 0), 255 at (1, 0)
// in both views) fix the pair's range to 0..255, so the 8-bit view is round(value): a flat 100
// everywhere else, and only a float census can see the texture.
inline ShiftedPairF sub_gray_shifted_pair(int width, int height, int shift, uint32_t seed) {
  const ShiftedPair pair8 = shifted_pair(width, height, shift, seed);
  ShiftedPairF pair{ImageF32(width, height), ImageF32(width, height)};
  for (size_t i = 0; i < pair8.left.size(); ++i) {
    pair.left.data()[i] = 100.0f + pair8.left.data()[i] * (0.45f / 255.0f);
    pair.right.data()[i] = 100.0f + pair8.right.data()[i] * (0.45f / 255.0f);
  }
  for (ImageF32* image : {&pair.left, &pair.right}) {
    image->at(0, 0) = 0.0f;
    image->at(1, 0) = 255.0f;
  }
  return pair;
}

// A block of `value` at (x0, y0), size w x h.
inline void fill_block(ImageF32& image, int x0, int y0, int w, int h, float value) {
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) image.at(x, y) = value;
}

}  // namespace sv::test
