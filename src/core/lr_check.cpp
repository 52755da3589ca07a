// Left-right consistency check, the CPU reference.
//
// EXACT DEFINITION (disparities in 1/16 px fixed point, disparity.h)
//   For every left pixel (x, y) with a valid disparity dl:
//     xr = x - floor((dl + 8) / 16)      -- dl rounded to whole pixels, halves up (toward +inf),
//                                           floor division also for negative dl
//     the pixel becomes invalid when xr lies outside [0, width), when right(xr, y) is invalid,
//     or when |dl - right(xr, y)| > max_diff * 16.
//   Invalid left pixels stay invalid; the right image is only read.
// Parallel over rows: each row reads the right image and writes only its own left row.

#include "src/core/lr_check.h"

#include <cstdlib>
#include <string>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

// floor(value / 16) for any sign; spelled out because >> on negatives is implementation
// defined before C++20.
int floor_div16(int value) {
  return value >= 0 ? value / kDisparityScale : -((-value + kDisparityScale - 1) / kDisparityScale);
}

}  // namespace

void lr_check(ImageI16& left_fixed, const ImageI16& right_fixed, int max_diff) {
  if (!left_fixed.same_size(right_fixed)) {
    throw InputError("LR check: the left and right disparity images differ in size.");
  }
  if (max_diff < 0) {
    throw InputError("LR check: max_diff must not be negative, got " + std::to_string(max_diff) +
                     ".");
  }
  const int width = left_fixed.width();
  const int tolerance = max_diff * kDisparityScale;
  parallel_for(0, left_fixed.height(), [&](int y) {
    int16_t* left = left_fixed.row(y);
    const int16_t* right = right_fixed.row(y);
    for (int x = 0; x < width; ++x) {
      const int dl = left[x];
      if (!is_valid_fixed_disparity(left[x])) continue;
      const int xr = x - floor_div16(dl + kDisparityScale / 2);
      const bool consistent = xr >= 0 && xr < width && is_valid_fixed_disparity(right[xr]) &&
                              std::abs(dl - static_cast<int>(right[xr])) <= tolerance;
      if (!consistent) left[x] = kInvalidFixedDisparity;
    }
  });
}

}  // namespace sv
