#pragma once

#include "src/core/frame_source.h"
#include "src/core/stereo_engine.h"

namespace sv {

// Matches one pair of the frame loop (match_at_full_depth), rectifying it where it is cheapest
// when it comes from a rectifying source (pair.remap, remap_handoff.h):
//   - the engine can remap (StereoEngine::set_rectification is true, the CUDA engine): a RAW pair
//     is matched as it is and rectified by the engine, whose rectified views replace the pair's;
//     the source is told to keep sending raw pairs;
//   - it cannot (the CPU engine): a RAW pair (sent before the engine changed) is rectified here
//     on the host, bit for bit as the source would have, and the source is told to rectify again.
// Afterwards `pair` holds the rectified views the result belongs to, and needs_remap is false.
// Throws what the engine throws.
DisparityResult match_rectifying_pair(StereoEngine& engine, StereoPair& pair,
                                      const StereoParams& params);

}  // namespace sv
