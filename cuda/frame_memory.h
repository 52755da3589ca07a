#pragma once

#include <cstdint>

#include "src/core/stereo_engine.h"

namespace sv::cuda {

// The CUDA engine's cost of one frame (CudaEngine::frame_cost), a host-side formula mirroring
// the reserve() calls of cuda_engine.cu and fast_sgm.cu: the buffers are grow-only, so each
// holds the largest size any pyramid level asks of it, and the frame needs their sum:
//   two frame slots (input planes of up to 4 bytes a pixel, the colour guide) and their pinned
//   staging (host); the pyramid's images and range bases; the census codes or rank images; the
//   cost volumes of the path taken (FastSgm's padded costs and one path volume per direction,
//   the general uint8 costs and uint16 sums, 16-bit SAD, uint32 SAD/SSD, float ZNCC, the two
//   float or half volumes of ESAW/ESMP); the disparity, scratch and right-view images; the
//   confidence's peaks and maps; the speckle labels.
// The CUDA context itself is not counted: it is already taken from the free memory the engine
// reports. Throws InputError for a pyramid deeper than the image allows.
FrameCost cuda_frame_cost(int width, int height, const StereoParams& params);

}  // namespace sv::cuda
