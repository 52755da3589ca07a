#pragma once

#include <ostream>

#include "src/app/cli_options.h"

namespace sv {

// Runs the pipeline without a window: takes frames from the source (the synthetic scene or an
// image pair), computes disparities with the chosen engine, reports per-frame timings (and
// bad-pixel rates against the synthetic ground truth), and writes PFM + colorized images into
// --out. Returns the process exit code; errors are reported on `err` (1: runtime failure).
int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err);

}  // namespace sv
