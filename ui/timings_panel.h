#pragma once

#include "ui/viewer_state.h"

namespace sv {

// The timings section of the side panel: per-stage last / mean / max over the history window
// (from the engine's StageTimings), the frame-time plot, capture / processing / display rates,
// dropped pairs and GPU memory.
void draw_timings_section(const ViewerStatus& status);

}  // namespace sv
