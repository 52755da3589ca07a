#pragma once

#include "ui/viewer_state.h"

namespace sv {

// The side panel: source, engine and algorithm, every parameter of the active algorithm with its
// help as tooltip, presets, display settings, pause/step/snapshot, cursor readout and log (the
// timings have a window of their own, timings_panel.h). Fills state.requests for the app.
void draw_control_panel(ViewerState& state, const ViewerStatus& status, const Rect& area);

// The menu bar (File, View with the windows and their docking, Help with the key list); returns
// its height.
float draw_main_menu(ViewerState& state, const ViewerStatus& status);

// One parameter widget; true when the value changed (to a valid one: a value validate() rejects,
// such as an even window, snaps to the nearest valid one in the direction of the change).
bool draw_param_widget(StereoParams& params, const std::string& key);

}  // namespace sv
