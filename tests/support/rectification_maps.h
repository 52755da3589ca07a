#pragma once

// Remap tables like those of a calibrated rig (radial distortion, a small rotation, a shift),
// made without OpenCV so the GPU machine can build the tests that use them. They reach a few
// pixels outside the raw image near the borders, and their positions fall between the 1/32 px
// steps, like initUndistortRectifyMap's.

#include <cmath>
#include <limits>

#include "src/core/remap.h"

namespace sv::test {

// One view's maps for a width x height image: rotation `angle` (radians) and radial distortion
// k1 about the image centre, shifted by (dx, dy) px.
inline void lens_like_maps(int width, int height, float angle, float k1, float dx, float dy,
                           ImageF32& map_x, ImageF32& map_y) {
  map_x = ImageF32(width, height);
  map_y = ImageF32(width, height);
  const double cx = 0.5 * (width - 1), cy = 0.5 * (height - 1);
  const double scale = 1.0 / (0.5 * (width > height ? width : height));
  const double c = std::cos(angle), s = std::sin(angle);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double u = (x - cx) * scale, v = (y - cy) * scale;
      const double r2 = u * u + v * v;
      const double radial = 1.0 + k1 * r2;
      const double ru = (c * u - s * v) * radial, rv = (s * u + c * v) * radial;
      map_x.at(x, y) = static_cast<float>(ru / scale + cx + dx);
      map_y.at(x, y) = static_cast<float>(rv / scale + cy + dy);
    }
  }
}

// Maps for both views of a pair, different per view as a real rig's are.
inline RectificationMaps lens_like_rectification(int width, int height) {
  RectificationMaps maps;
  lens_like_maps(width, height, 0.012f, -0.06f, 1.3f, -0.7f, maps.left_x, maps.left_y);
  lens_like_maps(width, height, -0.009f, -0.045f, -2.1f, 0.4f, maps.right_x, maps.right_y);
  return maps;
}

}  // namespace sv::test
