#pragma once

#include <cstdint>

#include "src/core/image.h"

namespace sv::test {

// Deterministic pseudo-random texture (a hash of the coordinates, no std:: distributions, so it
// is the same on every platform), optionally blurred by a box of `smooth` px for block matching
// and pyramids.
inline uint8_t hash_value(uint32_t x, uint32_t y, uint32_t seed) {
  uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return static_cast<uint8_t>((h ^ (h >> 16)) & 0xff);
}

inline ImageU8 random_texture(int width, int height, uint32_t seed, int smooth = 0) {
  ImageU8 image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int sum = 0, n = 0;
      for (int j = -smooth; j <= smooth; ++j) {
        for (int i = -smooth; i <= smooth; ++i, ++n) sum += hash_value(x + i + 64, y + j + 64, seed);
      }
      image.at(x, y) = static_cast<uint8_t>(sum / n);
    }
  }
  return image;
}

// left(x, y) = texture(x, y); right(x, y) = texture(x + shift, y): every left pixel's match lies
// `shift` px to its left in the right image, i.e. disparity `shift`.
struct ShiftedPair {
  ImageU8 left, right;
};

inline ShiftedPair shifted_pair(int width, int height, int shift, uint32_t seed, int smooth = 0) {
  const int margin = shift < 0 ? -shift : shift;
  const ImageU8 wide = random_texture(width + 2 * margin, height, seed, smooth);
  ShiftedPair pair{ImageU8(width, height), ImageU8(width, height)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      pair.left.at(x, y) = wide.at(x + margin, y);
      pair.right.at(x, y) = wide.at(x + margin + shift, y);
    }
  }
  return pair;
}

}  // namespace sv::test
