#pragma once

#include "src/core/frame_source.h"
#include "src/core/stereo_engine.h"

namespace sv {

// How the frame loops match a source's pair: at full depth (full_depth_view), rectified where it
// is cheapest when it comes from a rectifying source (pair.remap, remap_handoff.h):
//   - the engine can remap (can_rectify(), the CUDA engine): a RAW pair goes to the engine as it
//     is, with the maps in the request (a 16-bit or float pair with its colour views beside it),
//     and the engine's rectified views and planes replace the pair's; the source is told to keep
//     sending raw pairs;
//   - it cannot (the CPU engine): a RAW pair (sent before the engine changed) is rectified here
//     on the host, bit for bit as the source would have, and the source is told to rectify again.
// request_for_pair() makes the request (the pair's planes must outlive its submit());
// take_rectified_views() then leaves in `pair` the rectified views (and 16-bit or float planes)
// the result belongs to.
FrameRequest request_for_pair(const StereoEngine& engine, StereoPair& pair,
                              const StereoParams& params, const ResultParts& want);
void take_rectified_views(StereoPair& pair, DisparityResult& result);

// Both, around one synchronous frame. Throws what the engine throws.
DisparityResult match_rectifying_pair(StereoEngine& engine, StereoPair& pair,
                                      const StereoParams& params,
                                      const ResultParts& want = ResultParts());

}  // namespace sv
