// The host-side conversions of a frame's input and result, done on the GPU so the host only
// copies: the gray of a colour pair (image.h's to_gray) and the float disparity of the fixed
// point (disparity.h's fixed_to_float_disparity), both bit for bit.
#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/disparity.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void colour_to_gray_kernel(const Rgb8* __restrict__ colour, size_t pixels,
                                      uint8_t* __restrict__ gray) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const Rgb8 p = colour[i];
  gray[i] = static_cast<uint8_t>((77 * p.r + 150 * p.g + 29 * p.b + 128) >> 8);
}

__global__ void fixed_to_float_kernel(const int16_t* __restrict__ fixed, size_t pixels,
                                      float* __restrict__ out) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const int16_t d = fixed[i];
  // Division by 16 is exact in float, so this equals the host's conversion.
  out[i] = d == kInvalidFixedDisparity ? __int_as_float(0x7f800000)
                                       : static_cast<float>(d) / kDisparityScale;
}

unsigned blocks_for(size_t pixels) { return static_cast<unsigned>((pixels + kThreads - 1) / kThreads); }

}  // namespace

void colour_to_gray(const Rgb8* colour, size_t pixels, uint8_t* gray, cudaStream_t stream) {
  if (pixels == 0) return;
  colour_to_gray_kernel<<<blocks_for(pixels), kThreads, 0, stream>>>(colour, pixels, gray);
  SV_CUDA_CHECK(cudaGetLastError());
}

void fixed_to_float_disparity(const int16_t* fixed, size_t pixels, float* out, cudaStream_t stream) {
  if (pixels == 0) return;
  fixed_to_float_kernel<<<blocks_for(pixels), kThreads, 0, stream>>>(fixed, pixels, out);
  SV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace sv::cuda
