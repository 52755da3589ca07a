// Colorized disparity as RGBA8 for display and recording, with the CPU's colormaps
// (colormap_math.h) byte for byte. Memory bound: one thread per pixel, 2 bytes in, 4 out.
#include "cuda/stages.h"

#include "cuda/cuda_check.h"
#include "src/core/colormap_math.h"
#include "src/core/disparity.h"

namespace sv::cuda {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void colorize_kernel(const int16_t* disparity_fixed, int width, int height,
                                float min_value, float inverse_range, int map, uchar4 invalid,
                                uchar4* rgba) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  const int16_t fixed = disparity_fixed[i];
  if (fixed == kInvalidFixedDisparity) {
    rgba[i] = invalid;
    return;
  }
  // Exactly the CPU's float: fixed / 16 is exact, then (d - min) * (1 / range).
  const float d = static_cast<float>(fixed) / kDisparityScale;
  uint8_t rgb[3];
  colormap_math::color(map, (d - min_value) * inverse_range, rgb);
  rgba[i] = make_uchar4(rgb[0], rgb[1], rgb[2], 255);
}

}  // namespace

void colorize_disparity(const int16_t* disparity_fixed, int width, int height, float min_value,
                        float inverse_range, Colormap map, Rgb8 invalid_color, uchar4* rgba,
                        cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width + kBlockX - 1) / kBlockX, (height + kBlockY - 1) / kBlockY);
  const uchar4 invalid = make_uchar4(invalid_color.r, invalid_color.g, invalid_color.b, 255);
  colorize_kernel<<<grid, block, 0, stream>>>(disparity_fixed, width, height, min_value,
                                              inverse_range, static_cast<int>(map), invalid, rgba);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
