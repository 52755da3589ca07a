#pragma once

#include "src/core/disparity.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv::test {

// Pixels of [x0, x1) x [y0, y1) whose disparity is exactly `expected` (integer disparities).
inline int count_equal(const ImageF32& d, float expected, int x0, int x1, int y0, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) n += is_valid_disparity(d.at(x, y)) && d.at(x, y) == expected;
  return n;
}

// Census-SGM over 16 candidates with integer disparities and no filling, so every pixel shows
// what the matching itself found.
inline StereoParams plain_census_sgm() {
  StereoParams params;
  params.algorithm = "census-sgm";
  params.num_disparities = 16;
  params.subpixel = false;
  params.lr_check = false;
  params.median = 0;
  params.fill_holes = false;
  return params;
}

}  // namespace sv::test
