#pragma once

#include "src/core/image.h"

namespace sv {

// Prehn 2007's confidence-driven outlier repair (section 5.3.3): the paper's constants.
struct RepairSettings {
  int radius = 10;     // pixels searched on each side of a pixel
  float step = 0.1f;   // confidence margin of a supporter, and the boost of a repaired pixel
  int tolerance = 16;  // 1/16 px: supporters agree, and a pixel is an outlier, beyond 1 px
};

// Three passes, horizontal, vertical, horizontal: a pixel (invalid, or more than `tolerance`
// from the value its supporters agree on) takes the mean disparity of the nearest clearly more
// confident valid pixel on each side when those two agree; its confidence rises by `step`.
// Changes both images in place; returns the number of pixel updates over the three passes.
// Throws InputError for images of different sizes or bad settings. EXACT DEFINITION in
// disparity_repair.cpp.
int repair_disparity(ImageI16& disparity_fixed, ImageF32& confidence,
                     const RepairSettings& settings = RepairSettings{});

}  // namespace sv
