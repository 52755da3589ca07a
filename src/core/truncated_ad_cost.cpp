// Truncated absolute-difference matching cost (Yu et al. 2009, eq. 3).
//
// EXACT DEFINITION (per left pixel p = (x, y), candidate k in [0, count), d = base(p) + k)
//   xr = clamp(x - d, 0, width - 1)
//   C0(p, k) = lambda * min(float(|IL(x, y) - IR(xr, y)|), tau)        (float arithmetic)
//   |IL - IR| is the exact integer difference of the two 8-bit gray levels, converted to float.
//
// Matches outside the right image compare with its nearest column, as the paper's GPU code
// reads its images through textures with clamped addressing. A fixed cost there (lambda * tau,
// our first version) is a systematic penalty on every large disparity of the left border
// strip, and ESAW's support (about 350 px wide at T 9, b 1.9) spreads it far into the image:
// Middlebury bad-1 (docs/accuracy.md) went from 10.64 to 9.78 for ESAW with this rule.
//
// Gray, not colour, also for colour pairs: the paper defines I as "the grayscale luminance of
// pixel p" for this cost. The aggregation weights (esaw_aggregation.cpp, colour weights) are the
// part of the paper that looks at colour; see there.

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
  CostVolume<float> costs(left.width(), left.height(), range);
  parallel_for(0, left.height(), [&](int y) {
    const uint8_t* l = left.row(y);
    const uint8_t* r = right.row(y);
    for (int x = 0; x < width; ++x) {
      float* c = costs.pixel(x, y);
      const int base = range.base(x, y);
      for (int k = 0; k < range.count(); ++k) {
        const int xr = std::clamp(x - (base + k), 0, width - 1);
        const float difference = static_cast<float>(std::abs(l[x] - r[xr]));
        c[k] = lambda * std::min(difference, tau);
      }
    }
  });
  return costs;
}

}  // namespace sv
