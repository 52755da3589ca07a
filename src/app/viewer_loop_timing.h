#pragma once

#include <string>
#include <vector>

#include "src/app/engine_factory.h"
#include "src/core/frame_source.h"
#include "src/core/stereo_engine.h"

namespace sv {

// The viewer's frame loop without its window: pairs handed to the viewer's ProcessingThread as
// its capture thread hands them (a queue of two, never empty), results asked for as the viewer
// asks (every host part, and the device results for CUDA-GL interop when `device_results`).
// What the display would wait on is left out; what is measured is the thread's own time on each
// frame outside the engine's work (ProcessedFrame::host_ms), on a machine with no display.
struct ViewerLoopTimes {
  double frames_per_second = 0.0;  // published frames after the warm-up
  std::vector<double> host_ms;     // of every published frame after the warm-up
  // The part of each host_ms the engine spent copying images in memory (StageTimings::host_copy_ms).
  std::vector<double> copy_ms;
};

// `warmup` frames, then `runs` more; throws the thread's error if a frame fails.
ViewerLoopTimes time_viewer_loop(const EngineFactory& factory, const std::string& engine_kind,
                                 const StereoPair& pair, const StereoParams& params,
                                 bool device_results, int warmup, int runs);

}  // namespace sv
