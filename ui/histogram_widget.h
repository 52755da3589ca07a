#pragma once

#include "src/core/colorize.h"
#include "src/core/disparity_histogram.h"
#include "ui/view_layout.h"
#include "ui/viewer_settings.h"

namespace sv {

// The histogram of the shown disparity across the available width of the current ImGui window:
// each bin a bar in the colour its disparity is shown in, the colour range as two white lines
// with the span outside it dimmed, the axis ends and the invalid share below. Dragging across
// it sets `edit` to a fixed range over the dragged span (shown while dragging); a double click
// goes back to the smoothed automatic range. True when `edit` changed.
bool draw_histogram(const Histogram& histogram, ValueRange shown, Colormap map, ColorRange& edit);

// Where the last draw_histogram put its plot, in window coordinates (for the screenshot log).
Rect last_histogram_rect();

}  // namespace sv
