#pragma once

#include <cstdint>
#include <random>

#include "src/core/image.h"

namespace sv::test {

// `image` with independent uniform noise of +-amplitude levels on every channel, from `seed`
// (a static scene filmed by a noisy sensor: the same view, other noise each frame).
inline ImageRgb8 with_noise(const ImageRgb8& image, int amplitude, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> noise(-amplitude, amplitude);
  ImageRgb8 noisy = image;
  auto add = [&](uint8_t& v) {
    const int n = v + noise(random);
    v = static_cast<uint8_t>(n < 0 ? 0 : n > 255 ? 255 : n);
  };
  for (Rgb8& p : noisy.pixels()) add(p.r), add(p.g), add(p.b);
  return noisy;
}

}  // namespace sv::test
