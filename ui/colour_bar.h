#pragma once

#include <imgui.h>

#include "src/core/image.h"
#include "src/core/stereo_params.h"
#include "ui/colour_range_tracker.h"
#include "ui/view_layout.h"
#include "ui/viewer_settings.h"

namespace sv {


// About `count` evenly spaced round values (1, 2 or 5 times a power of ten) within [lo, hi].
std::vector<float> nice_ticks(float lo, float hi, int count);

// A vertical colour bar in `area` (window coordinates) under the title "disparity": high
// disparities (near) on top, ticks labelled in px and, when the calibration is known, depth in
// metres; a swatch for invalid. Width wanted for the labels: colour_bar_width().
void draw_colour_bar(ImDrawList* draw, const Rect& area, Colormap map, DisparityRange range,
                     const DepthCalibration& calibration);
float colour_bar_width(const DepthCalibration& calibration);

// The confidence view's bar: confidence 0..1 through inferno (the view's colours), 1 (sure) on
// top, in an area as wide as confidence_bar_width().
void draw_confidence_bar(ImDrawList* draw, const Rect& area);
float confidence_bar_width();

// Where a bar's colours lie in its area (a line for the title above, room for the invalid
// swatch below): the top row is the range's high end, the bottom row its low end.
Rect colour_bar_stripes(const Rect& area, float line_height);

}  // namespace sv
