#pragma once

// The pyramid's 2x2 reduction of 16-bit and float input on the GPU (pyramid.cu), bit for bit the
// CPU's downsample_2x2(ImageU16 / ImageF32, missing) in src/core/pyramid.cpp: missing pixels are
// left out of the means and a block without data stays missing. `out` is
// ceil(width / 2) x ceil(height / 2); both images are dense (pitch = width).
#include <cuda_runtime.h>

#include <cstdint>

namespace sv::cuda {

// `missing_value`: -1 (none) or 0..65535.
void downsample_2x2(const uint16_t* in, int width, int height, int missing_value, uint16_t* out,
                    cudaStream_t stream);
// `missing_value`: NaN (nothing beyond the NaNs) or the value marking no data.
void downsample_2x2(const float* in, int width, int height, float missing_value, float* out,
                    cudaStream_t stream);

}  // namespace sv::cuda
