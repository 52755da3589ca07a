#pragma once

#include "src/core/image.h"

namespace sv {

// Median of the valid disparities in a size x size window (3 or 5; 0 or 1 return a copy),
// clipped at the border; invalid pixels stay invalid; with an even count the upper median.
// Multi-threaded over rows. Throws InputError for other sizes.
// EXACT DEFINITION in median_filter.cpp.
ImageI16 median_filter(const ImageI16& disparity_fixed, int size);

}  // namespace sv
