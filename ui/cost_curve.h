#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/core/pixel_costs.h"

namespace sv {

// Which pixel the Cost curve window asks the engine about (ResultParts::probe): the one under
// the cursor over any 2D view, or a pinned one (a click on a view, --cost-curve X,Y), so the
// curve can be watched while the parameters change.
class CostCurveTarget {
 public:
  bool open() const { return open_; }
  void set_open(bool open) { open_ = open; }
  bool pinned() const { return pinned_.has_value(); }
  // The cursor's pixel this frame; nullopt when it is over no view.
  void hover(std::optional<ProbePixel> pixel);
  void pin(ProbePixel pixel);
  void unpin() { pinned_.reset(); }
  // The pixel to probe: the pinned one, else the last one hovered; nullopt while closed.
  std::optional<ProbePixel> wanted() const;

 private:
  bool open_ = false;
  std::optional<ProbePixel> pinned_;
  std::optional<ProbePixel> hovered_;
};

// The numbers of the window under its plot, a line each: the pixel and range, the chosen
// disparity with its subpixel fit, the runner-up and the uniqueness ratio against its limit,
// and, for an invalid pixel, which stage rejected it.
std::vector<std::string> cost_curve_lines(const PixelCosts& costs);

// What the window says when it shows no curve: no pixel to follow yet, or the engine's reason;
// "" when there are curves.
std::string cost_curve_unavailable_text(const CostCurveTarget& target,
                                        const std::optional<PixelCosts>& costs);

}  // namespace sv
