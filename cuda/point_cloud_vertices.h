#pragma once

// The 3D view's vertices on the GPU: cloud_vertex() of src/core/point_cloud_math.h at every pixel
// of a fixed-point disparity, the same bytes build_cloud_vertices gives on the host from the same
// result's float disparity (fixed / 16 is exact).

#include <cuda_runtime.h>

#include <cstdint>

#include "src/core/point_cloud_math.h"

namespace sv::cuda {

// `disparity_fixed`: width x height, 1/16 px, kInvalidFixedDisparity invalid. `left`: the left
// view, `left_channels` (3: Rgb8, 4: RGBA8) bytes a pixel, or null; `confidence`: floats or null
// (no confidence). Writes width * height CloudVertex into `vertices`, on `stream`.
void point_cloud_vertices(const int16_t* disparity_fixed, const uint8_t* left, int left_channels,
                          const float* confidence, int width, int height,
                          const CloudProjection& projection, const CloudStyle& style,
                          CloudVertex* vertices, cudaStream_t stream);

}  // namespace sv::cuda
