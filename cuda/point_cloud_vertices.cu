// The 3D view's vertex kernel: one thread per pixel, 2 bytes (and a colour, a confidence) in,
// 16 out; memory bound. The arithmetic is cloud_vertex() itself (point_cloud_math.h), compiled
// with -fmad=false so positions round as on the host.
#include "cuda/point_cloud_vertices.h"

#include "cuda/cuda_check.h"
#include "src/core/disparity.h"

namespace sv::cuda {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void point_cloud_vertices_kernel(const int16_t* disparity_fixed, const uint8_t* left,
                                            int left_channels, const float* confidence, int width,
                                            int height, CloudProjection projection,
                                            CloudStyle style, CloudVertex* vertices) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  const int16_t fixed = disparity_fixed[i];
  // The host's float disparity: +inf where invalid, else fixed / 16 (exact).
  const float d = fixed == kInvalidFixedDisparity ? __int_as_float(0x7f800000)
                                                  : static_cast<float>(fixed) / kDisparityScale;
  const uint8_t* rgb = left ? left + static_cast<size_t>(i) * left_channels : nullptr;
  const float c = confidence ? confidence[i] : -1.0f;
  vertices[i] = cloud_vertex(projection, style, x, y, d, rgb, c);
}

}  // namespace

void point_cloud_vertices(const int16_t* disparity_fixed, const uint8_t* left, int left_channels,
                          const float* confidence, int width, int height,
                          const CloudProjection& projection, const CloudStyle& style,
                          CloudVertex* vertices, cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width + kBlockX - 1) / kBlockX, (height + kBlockY - 1) / kBlockY);
  point_cloud_vertices_kernel<<<grid, block, 0, stream>>>(disparity_fixed, left, left_channels,
                                                          confidence, width, height, projection,
                                                          style, vertices);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
