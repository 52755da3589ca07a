// Median filter over valid disparities, the CPU reference.
//
// EXACT DEFINITION (disparities in 1/16 px fixed point, disparity.h)
//   size 0 or 1: a copy. size 3 or 5: for every pixel p,
//     - p invalid: stays invalid;
//     - otherwise gather the valid values of the size x size window centred on p, clipped at the
//       image border (no replication; pixels outside are simply absent), n >= 1 of them since p
//       itself is valid; sort ascending; the output is the element at index n / 2 (integer
//       division: the upper median when n is even).
// Parallel over rows; each row writes only its own output row.

#include "src/core/median_filter.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

ImageI16 median_filter(const ImageI16& disparity_fixed, int size) {
  if (size == 0 || size == 1) return disparity_fixed;
  if (size != 3 && size != 5) {
    throw InputError("Median filter size must be 0, 1, 3 or 5, got " + std::to_string(size) + ".");
  }
  const int width = disparity_fixed.width();
  const int height = disparity_fixed.height();
  const int radius = size / 2;
  ImageI16 out(width, height, kInvalidFixedDisparity);
  parallel_for(0, height, [&](int y) {
    std::vector<int16_t> window;
    window.reserve(static_cast<size_t>(size) * size);
    const int y0 = std::max(0, y - radius);
    const int y1 = std::min(height - 1, y + radius);
    for (int x = 0; x < width; ++x) {
      if (!is_valid_fixed_disparity(disparity_fixed.at(x, y))) continue;
      window.clear();
      const int x0 = std::max(0, x - radius);
      const int x1 = std::min(width - 1, x + radius);
      for (int wy = y0; wy <= y1; ++wy) {
        for (int wx = x0; wx <= x1; ++wx) {
          const int16_t v = disparity_fixed.at(wx, wy);
          if (is_valid_fixed_disparity(v)) window.push_back(v);
        }
      }
      const auto middle = window.begin() + window.size() / 2;
      std::nth_element(window.begin(), middle, window.end());
      out.at(x, y) = *middle;
    }
  });
  return out;
}

}  // namespace sv
