#pragma once

#include <limits>

#include "src/core/cost_volume.h"
#include "src/core/image.h"
#include "src/core/pixel_costs.h"

namespace sv {

struct WtaSettings {
  // 0..99 percent: invalid when a candidate more than 1 px from the winner has
  // cost * (100 - u) < best * 100 (OpenCV's rule; 0 rejects nothing).
  int uniqueness = 0;
  bool subpixel = true;   // parabola fit through the winner and its neighbours, rounded to 1/16 px
  double max_cost = std::numeric_limits<double>::infinity();  // best cost above it: invalid
};

// Left-view disparity in fixed point (disparity.h) with kInvalidFixedDisparity where rejected.
// Ties go to the lower disparity; a best cost equal to the type's maximum (non-finite for
// float) means "no real candidate" and is invalid. Multi-threaded over rows.
// Defined for cost types uint8_t, uint16_t, uint32_t and float. EXACT DEFINITION in the .cpp.
// Throws InputError for uniqueness outside 0..99 or a per-pixel base of another size.
template <typename T>
ImageI16 winner_takes_all(const CostVolume<T>& costs, const WtaSettings& settings);

// Right-view disparity by backward matching on the same costs: for right pixel xr the winner of
// costs(xr + d, y, d) over the d each left pixel offers (ties to the smaller d); whole pixels,
// fixed point; invalid where no left pixel's candidate lands. EXACT DEFINITION in the .cpp.
// The same decision for one pixel's costs c[0..count) with the numbers behind it (the runner-up,
// the uniqueness ratio, the subpixel parabola, the reason for a rejection): its disparity is the
// one winner_takes_all gives that pixel. For the viewer's cost curve.
template <typename T>
PixelSelection explain_selection(const T* c, int count, int base, const WtaSettings& settings);

template <typename T>
ImageI16 right_view_disparity(const CostVolume<T>& costs);

}  // namespace sv
