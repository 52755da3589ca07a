#pragma once

#include "src/core/image.h"

namespace sv {

// Left-right consistency: a left disparity survives when the right view's disparity at the
// pixel it points to (x - round(d), halves rounded up) differs from it by at most max_diff px;
// otherwise, or when that pixel is outside the image or invalid, it becomes invalid. Both images
// are 1/16 px fixed point of one size; multi-threaded over rows. Throws InputError for
// different sizes or max_diff < 0. EXACT DEFINITION in lr_check.cpp.
void lr_check(ImageI16& left_fixed, const ImageI16& right_fixed, int max_diff);

}  // namespace sv
