#pragma once

#include "src/core/stereo_engine.h"

namespace sv {

// The CPU engine's cost of one frame (CpuEngine::frame_cost), for valid parameters:
//   memory: the largest pyramid level's buffers (its cost volumes, at the bytes per candidate
//     disparity of the algorithm's volumes, and its per-pixel images such as the census codes)
//     plus the full-size images every frame keeps (views, disparities, confidence), measured
//     against the peak resident memory of real frames (tests/unit/frame_cost_test.cpp);
//   time: candidates and pixels of every level at a cost per candidate and per pixel of the
//     algorithm (and of the confidence when the parameters want it, over the whole search
//     range), measured on one core of the project's x86-64 build machine, divided among
//     `threads` (a loaded machine takes longer: it is an order of magnitude, not a promise).
// Throws InputError for a pyramid deeper than the image allows, as compute() does.
FrameCost cpu_frame_cost(int width, int height, const StereoParams& params, int threads);

}  // namespace sv
