// Speckle removal, the CPU reference.
//
// EXACT DEFINITION (disparities in 1/16 px fixed point, disparity.h)
//   Two 4-connected neighbours (left/right/up/down) belong to one region when both are valid and
//   |d1 - d2| <= max_difference * 16. Regions are the connected components of that relation
//   (a chain may drift by more than max_difference overall). Every region with fewer than
//   max_region_size pixels becomes invalid; larger or equal regions and invalid pixels are
//   untouched. max_region_size 0 (or 1) changes nothing. OpenCV's filterSpeckles removes regions
//   of up to maxSpeckleSize pixels inclusive; here the bound is exclusive.
// Sequential (one labelling pass with an explicit stack, no recursion); the result does not
// depend on the visiting order because components are unique.

#include "src/core/speckle_filter.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {

void remove_speckles(ImageI16& disparity_fixed, int max_region_size, int max_difference) {
  if (max_region_size < 0 || max_difference < 0) {
    throw InputError("Speckle filter: region size and difference must not be negative, got " +
                     std::to_string(max_region_size) + " and " + std::to_string(max_difference) +
                     ".");
  }
  if (max_region_size <= 1) return;
  const int width = disparity_fixed.width();
  const int height = disparity_fixed.height();
  const int tolerance = max_difference * kDisparityScale;
  int16_t* d = disparity_fixed.data();

  std::vector<char> visited(disparity_fixed.size(), 0);
  std::vector<int> region;  // pixel indices of the region being filled; doubles as the stack
  for (int start = 0; start < width * height; ++start) {
    if (visited[start] || !is_valid_fixed_disparity(d[start])) continue;
    region.clear();
    region.push_back(start);
    visited[start] = 1;
    // region[0, next) are expanded; region[next, end) wait to be.
    for (size_t next = 0; next < region.size(); ++next) {
      const int i = region[next];
      const int x = i % width;
      const int y = i / width;
      const int neighbours[4] = {x > 0 ? i - 1 : -1, x + 1 < width ? i + 1 : -1,
                                 y > 0 ? i - width : -1, y + 1 < height ? i + width : -1};
      for (int n : neighbours) {
        if (n < 0 || visited[n] || !is_valid_fixed_disparity(d[n])) continue;
        if (std::abs(static_cast<int>(d[n]) - static_cast<int>(d[i])) > tolerance) continue;
        visited[n] = 1;
        region.push_back(n);
      }
    }
    if (static_cast<int>(region.size()) < max_region_size) {
      for (int i : region) d[i] = kInvalidFixedDisparity;
    }
  }
}

}  // namespace sv
