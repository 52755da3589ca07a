#pragma once

#include <string>

#include "src/core/cost_volume.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

// The cost volume of a per-pixel matching cost (census, rank): costs(x, y, k) =
// match(x, xr, y) for the right pixel xr = x - (base(x, y) + k) when it lies in the image, and
// `outside` otherwise. Rows run in parallel. `what` names the cost in error messages; throws
// InputError for images of different sizes or a per-pixel base of another size.
template <typename T, typename Image, typename Match>
CostVolume<T> pixel_cost_volume(const char* what, const Image& left, const Image& right,
                                const SearchRange& range, T outside, Match match) {
  if (!left.same_size(right)) {
    throw InputError(std::string(what) + ": left and right images differ in size");
  }
  if (!range.is_uniform() && !range.per_pixel_base().same_size(left)) {
    throw InputError(std::string(what) + ": the per-pixel search range differs in size from the images");
  }
  const int width = left.width();
  CostVolume<T> costs(width, left.height(), range);
  parallel_for(0, left.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      T* out = costs.pixel(x, y);
      const int base = range.base(x, y);
      for (int k = 0; k < range.count(); ++k) {
        const int xr = x - (base + k);
        out[k] = (xr < 0 || xr >= width) ? outside : match(x, xr, y);
      }
    }
  });
  return costs;
}

}  // namespace sv
