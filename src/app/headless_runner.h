#pragma once

#include <ostream>

#include "src/app/cli_options.h"
#include "src/app/engine_factory.h"

namespace sv {

// Runs the pipeline without a window: takes frames from the source the options name (the
// synthetic scene, images, sequences, videos, cameras, datasets; rectified with --calib),
// computes disparities with the chosen engine, reports per-frame timings (and bad-pixel rates
// where the source has ground truth), and writes PFM + colorized images into --out. A file
// source is processed to its end unless --frames limits it. Source notices go to `err` as
// "note: ..." lines. Returns the process exit code; errors are reported on `err` (1: runtime
// failure). Two frames are in flight (frame_pipeline_queue.h); every output comes in frame
// order. A frame that fails (a pair whose views differ in size, a size that cannot fit) is
// reported as "error: frame N: ..." and the run goes on with the next (exit 1 at the end); three
// engine failures in a row end it. Ctrl-C, --frames and the end of the source collect and write
// the frames in flight before the run ends.
int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err);
// The same with the engine made by `make` (tests' fakes) instead of make_engine.
int run_headless(const CliOptions& options, std::ostream& out, std::ostream& err,
                 const EngineFactory& make);

}  // namespace sv
