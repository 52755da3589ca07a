// Truncated absolute-difference matching cost (Yu et al. 2009, eq. 3).
//
// EXACT DEFINITION (per left pixel p = (x, y), candidate k in [0, count), d = base(p) + k)
//   xr = x - d. When 0 <= xr < width:
//     C0(p, k) = lambda * min(float(|IL(x, y) - IR(xr, y)|), tau)      (float arithmetic)
//   otherwise (the match would lie outside the right image, so there is no evidence either way):
//     C0(p, k) = lambda * tau, the largest cost any candidate can have.
//   |IL - IR| is the exact integer difference of the two 8-bit gray levels, converted to float.
//
// Gray, not colour: the engines receive gray pairs (StereoEngine::compute), and the paper itself
// defines I as "the grayscale luminance of pixel p" for this cost. The aggregation weights
// (esaw_aggregation.cpp) are the part of the paper that looks at colour; see there.

#include "src/core/truncated_ad_cost.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

CostVolume<float> truncated_ad_cost_volume(const ImageU8& left, const ImageU8& right,
                                           const SearchRange& range, float lambda, float tau) {
  if (!left.same_size(right)) throw InputError("truncated AD cost: left and right differ in size");
  if (!(lambda > 0.0f)) throw InputError("truncated AD cost: lambda must be > 0, got " + std::to_string(lambda));
  if (!(tau > 0.0f)) throw InputError("truncated AD cost: tau must be > 0, got " + std::to_string(tau));
  if (!range.is_uniform() && !range.per_pixel_base().same_size(left)) {
    throw InputError("truncated AD cost: the per-pixel search range has another size");
  }
  const int width = left.width();
  const float outside = lambda * tau;
  CostVolume<float> costs(left.width(), left.height(), range);
  parallel_for(0, left.height(), [&](int y) {
    const uint8_t* l = left.row(y);
    const uint8_t* r = right.row(y);
    for (int x = 0; x < width; ++x) {
      float* c = costs.pixel(x, y);
      const int base = range.base(x, y);
      for (int k = 0; k < range.count(); ++k) {
        const int xr = x - (base + k);
        if (xr < 0 || xr >= width) {
          c[k] = outside;
          continue;
        }
        const float difference = static_cast<float>(std::abs(l[x] - r[xr]));
        c[k] = lambda * std::min(difference, tau);
      }
    }
  });
  return costs;
}

}  // namespace sv
