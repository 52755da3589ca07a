#pragma once

// The colormaps as plain arithmetic shared by the CPU (colorize.cpp) and the CUDA colorize kernel,
// so both give the same bytes. Definitions:
//   gray:    every channel = round(255 t).
//   jet:     r = clamp(1.5 - |4t - 3|), g = clamp(1.5 - |4t - 2|), b = clamp(1.5 - |4t - 1|).
//   turbo:   piecewise-linear through 17 key colours taken every 1/16 along Google's Turbo; an
//            approximation within a few levels of the published map, good enough for display.
//   inferno: piecewise-linear through 11 key colours every 1/10 along matplotlib's inferno.
// t is clamped to [0, 1] first (NaN counts as 0); each channel, a float in [0, 1], becomes
// floor(255 v + 0.5). The CUDA file that includes this compiles with -fmad=false so no
// multiply-add is fused where the CPU rounds twice.

#include <cmath>
#include <cstdint>

#include "src/core/host_device.h"

namespace sv::colormap_math {

// Same order as sv::Colormap.
enum Map : int { kTurbo = 0, kJet = 1, kInferno = 2, kGray = 3 };

SV_HOST_DEVICE inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

SV_HOST_DEVICE inline uint8_t to_byte(float v) {
  return static_cast<uint8_t>(floorf(clamp01(v) * 255.0f + 0.5f));
}

// Linear interpolation through `count` key colours (rgb triples) spread evenly over [0, 1].
SV_HOST_DEVICE inline void interpolate_keys(const unsigned char (*keys)[3], int count, float t,
                                            uint8_t rgb[3]) {
  const float position = t * static_cast<float>(count - 1);
  int index = static_cast<int>(position);
  if (index >= count - 1) index = count - 2;
  const float w = position - static_cast<float>(index);
  for (int c = 0; c < 3; ++c) {
    const float lo = keys[index][c];
    const float hi = keys[index + 1][c];
    rgb[c] = to_byte((lo + w * (hi - lo)) / 255.0f);
  }
}

SV_HOST_DEVICE inline void color(int map, float t, uint8_t rgb[3]) {
  t = t != t ? 0.0f : clamp01(t);
  if (map == kTurbo) {
    const unsigned char keys[17][3] = {
        {48, 18, 59},   {66, 64, 155},  {70, 107, 227}, {61, 149, 253}, {40, 188, 235},
        {24, 220, 196}, {50, 242, 152}, {110, 254, 98}, {164, 252, 60}, {205, 235, 53},
        {237, 208, 58}, {254, 170, 50}, {251, 128, 34}, {234, 86, 14},  {208, 52, 5},
        {168, 22, 2},   {122, 4, 3}};
    interpolate_keys(keys, 17, t, rgb);
  } else if (map == kInferno) {
    const unsigned char keys[11][3] = {
        {0, 0, 4},      {22, 11, 57},  {66, 10, 104},  {106, 23, 110}, {147, 38, 103}, {188, 55, 84},
        {221, 81, 58},  {243, 120, 25}, {252, 165, 10}, {246, 215, 70}, {252, 255, 164}};
    interpolate_keys(keys, 11, t, rgb);
  } else if (map == kJet) {
    rgb[0] = to_byte(1.5f - fabsf(4.0f * t - 3.0f));
    rgb[1] = to_byte(1.5f - fabsf(4.0f * t - 2.0f));
    rgb[2] = to_byte(1.5f - fabsf(4.0f * t - 1.0f));
  } else {
    rgb[0] = rgb[1] = rgb[2] = to_byte(t);
  }
}

}  // namespace sv::colormap_math
