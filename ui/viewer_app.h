#pragma once

#include <memory>
#include <string>

#include "ui/viewer_options.h"

namespace sv {

// Runs the viewer until the window closes, Q/Esc, a script's quit, or --frames is reached.
// Returns the process exit code: 0 done, 1 a runtime failure (no display, no GL 3.3, shaders
// missing, screenshot not written), each said on stderr in one line.
int run_viewer(const ViewerOptions& options);

}  // namespace sv
