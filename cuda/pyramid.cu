// Coarse-to-fine helpers on the GPU: the 2x2 averaging reductions (8-bit, 16-bit, float) and the
// per-pixel search range of a finer level. Exact definitions: src/core/pyramid.cpp, reproduced
// bit for bit.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/full_depth_pyramid.h"
#include "cuda/stages.h"
#include "src/core/disparity.h"
#include "src/core/pyramid_reduction.h"

namespace sv::cuda {
namespace {

constexpr int kWarp = 32;
constexpr int kDownsampleBlockX = 32;
constexpr int kDownsampleBlockY = 8;

__device__ __host__ __forceinline__ int floor_div(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
__device__ __host__ __forceinline__ int ceil_div(int a, int b) { return -floor_div(-a, b); }

__device__ __forceinline__ int clamp_index(int v, int size) {
  return v < 0 ? 0 : (v >= size ? size - 1 : v);
}

// One thread per output pixel; memory bound.
__global__ void downsample_2x2_kernel(const uint8_t* __restrict__ in, int width, int height,
                                      uint8_t* __restrict__ out, int out_width, int out_height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out_width || y >= out_height) return;
  const uint8_t* row0 = in + static_cast<size_t>(clamp_index(2 * y, height)) * width;
  const uint8_t* row1 = in + static_cast<size_t>(clamp_index(2 * y + 1, height)) * width;
  const int x0 = clamp_index(2 * x, width), x1 = clamp_index(2 * x + 1, width);
  const int sum = row0[x0] + row0[x1] + row1[x0] + row1[x1];
  out[static_cast<size_t>(y) * out_width + x] = static_cast<uint8_t>((sum + 2) / 4);
}

// One thread per output pixel; memory bound (the double arithmetic of the float form is a few
// operations per 16 bytes read).
template <typename T, typename Missing>
__global__ void downsample_with_missing_kernel(const T* __restrict__ in, int width, int height,
                                               Missing missing_value, T* __restrict__ out,
                                               int out_width, int out_height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out_width || y >= out_height) return;
  const T* row0 = in + static_cast<size_t>(clamp_index(2 * y, height)) * width;
  const T* row1 = in + static_cast<size_t>(clamp_index(2 * y + 1, height)) * width;
  const int x0 = clamp_index(2 * x, width), x1 = clamp_index(2 * x + 1, width);
  const T samples[4] = {row0[x0], row0[x1], row1[x0], row1[x1]};
  out[static_cast<size_t>(y) * out_width + x] = reduce_block(samples, missing_value);
}

template <typename T, typename Missing>
void launch_downsample_with_missing(const T* in, int width, int height, Missing missing_value,
                                    T* out, cudaStream_t stream) {
  const int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
  if (out_width <= 0 || out_height <= 0) return;
  const dim3 block(kDownsampleBlockX, kDownsampleBlockY);
  const dim3 grid((out_width + block.x - 1) / block.x, (out_height + block.y - 1) / block.y);
  downsample_with_missing_kernel<<<grid, block, 0, stream>>>(in, width, height, missing_value, out,
                                                             out_width, out_height);
  SV_CUDA_CHECK_LAUNCH();
}

// One warp per fine row. The coarse row's nearest valid estimate (ties to the left) comes from
// two ballot scans over 32-column chunks into shared memory; then the row's bases are written.
// Latency bound (sequential chunks), tiny next to the matching it prepares.
__global__ void refine_search_range_kernel(const int16_t* __restrict__ coarse, int coarse_width,
                                           int coarse_height, int width, int radius, int lo,
                                           int hi, int count, int centre,
                                           int16_t* __restrict__ base) {
  extern __shared__ int16_t predicted[];  // coarse_width estimates, then as many "after" indices
  int16_t* after_index = predicted + coarse_width;
  const int lane = threadIdx.x;
  const int y = blockIdx.x;
  const int cy = min(y / 2, coarse_height - 1);
  const int16_t* row = coarse + static_cast<size_t>(cy) * coarse_width;
  const int chunks = (coarse_width + kWarp - 1) / kWarp;

  // Right to left: smallest valid index >= x (-1 for none).
  int carry = -1;
  for (int chunk = chunks - 1; chunk >= 0; --chunk) {
    const int x = chunk * kWarp + lane;
    const unsigned valid =
        __ballot_sync(0xffffffffu, x < coarse_width && row[x] != kInvalidFixedDisparity);
    const unsigned from = valid & (0xffffffffu << lane);
    if (x < coarse_width) {
      after_index[x] = static_cast<int16_t>(from ? chunk * kWarp + __ffs(from) - 1 : carry);
    }
    if (valid) carry = chunk * kWarp + __ffs(valid) - 1;
  }
  __syncwarp();
  // Left to right: largest valid index <= x; the nearer of the two wins, ties to the left.
  carry = -1;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    const int x = chunk * kWarp + lane;
    const unsigned valid =
        __ballot_sync(0xffffffffu, x < coarse_width && row[x] != kInvalidFixedDisparity);
    const unsigned upto = valid & (0xffffffffu >> (kWarp - 1 - lane));
    if (x < coarse_width) {
      const int before = upto ? chunk * kWarp + kWarp - 1 - __clz(upto) : carry;
      const int after = after_index[x];
      int nearest = before;
      if (before < 0 || (after >= 0 && after - x < x - before)) nearest = after;
      predicted[x] = nearest >= 0 ? row[nearest] : kInvalidFixedDisparity;
    }
    if (valid) carry = chunk * kWarp + kWarp - 1 - __clz(valid);
  }
  __syncwarp();

  int16_t* out = base + static_cast<size_t>(y) * width;
  for (int x = lane; x < width; x += kWarp) {
    const int16_t estimate = predicted[min(x / 2, coarse_width - 1)];
    // Twice the coarse estimate, in whole px at this level, rounded half up.
    const int prediction = estimate != kInvalidFixedDisparity
                               ? floor_div(2 * estimate + kDisparityScale / 2, kDisparityScale)
                               : centre;
    out[x] = static_cast<int16_t>(min(max(prediction - radius, lo), hi - count + 1));
  }
}

}  // namespace

void downsample_2x2(const uint8_t* in, int width, int height, uint8_t* out, cudaStream_t stream) {
  const int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
  if (out_width <= 0 || out_height <= 0) return;
  const dim3 block(kDownsampleBlockX, kDownsampleBlockY);
  const dim3 grid((out_width + block.x - 1) / block.x, (out_height + block.y - 1) / block.y);
  downsample_2x2_kernel<<<grid, block, 0, stream>>>(in, width, height, out, out_width, out_height);
  SV_CUDA_CHECK_LAUNCH();
}

void downsample_2x2(const uint16_t* in, int width, int height, int missing_value, uint16_t* out,
                    cudaStream_t stream) {
  launch_downsample_with_missing(in, width, height, missing_value, out, stream);
}

void downsample_2x2(const float* in, int width, int height, float missing_value, float* out,
                    cudaStream_t stream) {
  launch_downsample_with_missing(in, width, height, missing_value, out, stream);
}

void refine_search_range(const int16_t* coarse_fixed, int coarse_width, int coarse_height,
                         int width, int height, int radius, int min_disparity,
                         int num_disparities, int level, int16_t* base, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || coarse_width <= 0 || coarse_height <= 0) return;
  // Inclusive bounds of the full range scaled to `level`, as pyramid.cpp's level_bounds.
  const int scale = 1 << level;
  const int lo = floor_div(min_disparity, scale);
  const int hi = ceil_div(min_disparity + num_disparities - 1, scale);
  const int span = hi - lo + 1;
  const int count = 2 * radius + 1 < span ? 2 * radius + 1 : span;
  const int centre = (lo + hi) / 2;
  const size_t shared = sizeof(int16_t) * 2 * static_cast<size_t>(coarse_width);
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(refine_search_range_kernel, shared);
  refine_search_range_kernel<<<height, kWarp, shared, stream>>>(
      coarse_fixed, coarse_width, coarse_height, width, radius, lo, hi, count, centre, base);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
