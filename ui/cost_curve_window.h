#pragma once

#include <optional>
#include <vector>

#include "src/core/pixel_costs.h"
#include "ui/cost_curve.h"
#include "ui/view_layout.h"

namespace sv {

// The Cost curve window (P, View > Cost curve, --cost-curve): the matching cost and the
// aggregated cost of the probed pixel over its disparity range, side by side, with the winner,
// the uniqueness rival, the subpixel parabola and the numbers (cost_curve_lines). `costs` is
// the shown frame's probe (nullopt: none yet). First placed in `slot` (the layout's side column,
// beside the views it explains); closing it clears open. Returns where the window is (empty
// while closed).
Rect draw_cost_curve_window(CostCurveTarget& target, const std::optional<PixelCosts>& costs,
                            const Rect& views);

// A cross over the probed pixel in every view cell, so the user sees which pixel the curve is of.
void draw_probe_marker(const ProbePixel& pixel, const std::vector<Rect>& cells,
                       const std::vector<Rect>& images, int image_width, int image_height);

}  // namespace sv
