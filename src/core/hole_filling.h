#pragma once

#include "src/core/image.h"

namespace sv {

// Fills invalid disparities from the nearest valid ones on the same row, taking the smaller
// (farther) of the left and right neighbours: holes left by the LR check are mostly occlusions,
// and an occluded pixel belongs to the background (Hirschmueller's SGM does the same).
// Rows without any valid pixel stay invalid. Integer, fixed point, deterministic.
void fill_holes(ImageI16& disparity_fixed);

}  // namespace sv
