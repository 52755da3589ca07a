#pragma once

#include "ui/viewer_state.h"

namespace sv {

// The panel's Source section: the kind of source and its paths or devices, a calibration file,
// Open; what runs, its errors, notices and a camera's retries; for files the position, a scrub
// slider, loop and pace; raw or rectified and the epipolar lines once a calibration is loaded.
// Fills state.requests for the app to act on.
void draw_source_section(ViewerState& state, const ViewerStatus& status);

}  // namespace sv
