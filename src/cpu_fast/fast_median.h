#pragma once

#include "src/core/image.h"

namespace sv {

// median_filter (median_filter.h) with SIMD over pixels, bit for bit: the median of the valid
// disparities of the size x size window, invalid pixels staying invalid. Throws InputError for
// sizes other than 0, 1, 3 and 5.
ImageI16 fast_median_filter(const ImageI16& disparity_fixed, int size);

}  // namespace sv
