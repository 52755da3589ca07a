#pragma once

// The bilinear remap of src/core/remap.h on the GPU: the rectification of raw views inside the
// CUDA pipeline. Bit for bit the core's remap_bilinear (definition at the top of
// src/core/remap.cpp). Device pointers, dense images (row stride = width); the maps and the
// output are width x height, the raw image raw_width x raw_height (at most 32767 on a side).
// Each launcher is asynchronous on `stream` and checks its launch.

#include <cuda_runtime.h>

#include <cstdint>

#include "src/core/image.h"

namespace sv::cuda {

struct DeviceRemapMaps {
  const float* map_x = nullptr;
  const float* map_y = nullptr;
  int width = 0, height = 0;
};

void remap_bilinear(const uint8_t* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    uint8_t* out, cudaStream_t stream);
// Colour, with the rectified view's gray (image.h's rgb_to_gray) written to `gray_out` in the same
// pass when it is not null: the pipeline matches the gray of the rectified colour view.
void remap_bilinear(const Rgb8* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    Rgb8* out, uint8_t* gray_out, cudaStream_t stream);
void remap_bilinear(const uint16_t* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    uint16_t* out, cudaStream_t stream);
// NaN outside the raw image, NaN samples spread (remap.cpp, step 5).
void remap_bilinear(const float* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    float* out, cudaStream_t stream);

}  // namespace sv::cuda
