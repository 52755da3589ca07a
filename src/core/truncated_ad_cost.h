#pragma once

#include "src/core/cost_volume.h"
#include "src/core/image.h"

namespace sv {

// The matching cost of ESAW and ESMP (Yu et al. 2009, eq. 3): lambda * min(|IL - IR|, tau) on
// gray levels. A candidate whose right pixel lies outside the image compares with the nearest
// right-image column (clamped, as the paper's texture reads).
// Throws InputError for mismatched sizes, lambda <= 0, tau <= 0 or a per-pixel base of another
// size. Multi-threaded over rows. EXACT DEFINITION in truncated_ad_cost.cpp.
CostVolume<float> truncated_ad_cost_volume(const ImageU8& left, const ImageU8& right,
                                           const SearchRange& range, float lambda, float tau);

}  // namespace sv
