#pragma once

#include <ostream>

#include "src/app/cli_options.h"

namespace sv {

// Runs the pipeline without a window: takes frames from the source the options name (the
// synthetic scene, images, sequences, videos, cameras, datasets; rectified with --calib),
// computes disparities with the chosen engine, reports per-frame timings (and bad-pixel rates
// where the source has ground truth), and writes PFM + colorized images into --out. A file
// source is processed to its end unless --frames limits it. Source notices go to `err` as
// "note: ..." lines. Returns the process exit code; errors are reported on `err` (1: runtime
// failure).
int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err);

}  // namespace sv
