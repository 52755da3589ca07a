#pragma once

#include "src/core/image.h"

namespace sv {

// Invalidates 4-connected regions smaller than max_region_size whose neighbouring disparities
// differ by at most max_difference px (OpenCV's filterSpeckles, except that a region of exactly
// max_region_size pixels is kept). max_region_size 0 is a no-op. Throws InputError for negative
// arguments. EXACT DEFINITION in speckle_filter.cpp.
void remove_speckles(ImageI16& disparity_fixed, int max_region_size, int max_difference);

}  // namespace sv
