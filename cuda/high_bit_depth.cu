// The 8-bit views of 16-bit and float input on the GPU (high_bit_depth.cpp: the high byte, v >> 8;
// the pair's range view for float), for the stages that read intensities themselves while the
// census reads the full-depth values.
#include "cuda/cuda_check.h"
#include "cuda/stages.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

// Memory bound: one thread per pixel, coalesced 2-byte reads and 1-byte writes.
__global__ void eight_bit_view_kernel(const uint16_t* __restrict__ image, size_t pixels,
                                      uint8_t* __restrict__ view) {
  const size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < pixels) view[i] = static_cast<uint8_t>(image[i] >> 8);
}

// Memory bound like the above. Explicit _rn intrinsics: the subtraction and the product are
// rounded separately, as on the CPU, and ties round to even like std::nearbyint.
__global__ void float_view_kernel(const float* __restrict__ image, size_t pixels, float lo,
                                  float scale, uint8_t* __restrict__ view) {
  const size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= pixels) return;
  const float q = __fmul_rn(__fsub_rn(image[i], lo), scale);
  view[i] = isnan(q) ? 0 : static_cast<uint8_t>(__float2int_rn(fminf(fmaxf(q, 0.0f), 255.0f)));
}

}  // namespace

void eight_bit_view(const float* image, int width, int height, float lo, float scale,
                    uint8_t* view, cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  const unsigned blocks = static_cast<unsigned>((pixels + kThreads - 1) / kThreads);
  float_view_kernel<<<blocks, kThreads, 0, stream>>>(image, pixels, lo, scale, view);
  SV_CUDA_CHECK_LAUNCH();
}

void eight_bit_view(const uint16_t* image, int width, int height, uint8_t* view,
                    cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  const unsigned blocks = static_cast<unsigned>((pixels + kThreads - 1) / kThreads);
  eight_bit_view_kernel<<<blocks, kThreads, 0, stream>>>(image, pixels, view);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
