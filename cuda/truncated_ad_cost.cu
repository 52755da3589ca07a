// Truncated absolute-difference matching cost (ESAW / ESMP) on the GPU; reproduces
// truncated_ad_cost.cpp bit for bit: one float multiply per cost, rounded the same way, stored as
// float or as half. One thread per (pixel, candidate), consecutive threads writing consecutive
// candidates, so the volume is written coalesced; the kernel is bound by that write.
#include <string>

#include "cuda/adaptive_weight_stages.h"
#include "cuda/cost_storage.cuh"
#include "cuda/cuda_check.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    truncated_ad_cost_kernel(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                             int width, int uniform_base, const int16_t* __restrict__ per_pixel_base,
                             int count, float lambda, float tau, T* __restrict__ costs) {
  const int y = blockIdx.y;
  const int i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= width * count) return;
  const int x = i / count;
  const int k = i - x * count;
  const size_t pixel = static_cast<size_t>(y) * width + x;
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  const int xr = min(max(x - (base + k), 0), width - 1);  // outside: the nearest column
  const float difference = static_cast<float>(abs(left[pixel] - right[pixel - x + xr]));
  store_cost(costs + pixel * count + k, __fmul_rn(lambda, tau < difference ? tau : difference));
}

template <typename T>
void launch(const uint8_t* left, const uint8_t* right, int width, int height,
            DeviceSearchRange range, float lambda, float tau, T* costs, cudaStream_t stream) {
  if (!(lambda > 0.0f)) throw InputError("truncated AD cost: lambda must be > 0, got " + std::to_string(lambda));
  if (!(tau > 0.0f)) throw InputError("truncated AD cost: tau must be > 0, got " + std::to_string(tau));
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  const dim3 grid((width * range.count + kThreads - 1) / kThreads, height);
  truncated_ad_cost_kernel<<<grid, kThreads, 0, stream>>>(left, right, width, range.uniform_base,
                                                          range.per_pixel_base, range.count,
                                                          lambda, tau, costs);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void truncated_ad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height,
                              DeviceSearchRange range, float lambda, float tau, float* costs,
                              cudaStream_t stream) {
  launch(left, right, width, height, range, lambda, tau, costs, stream);
}

void truncated_ad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height,
                              DeviceSearchRange range, float lambda, float tau, __half* costs,
                              cudaStream_t stream) {
  launch(left, right, width, height, range, lambda, tau, costs, stream);
}

}  // namespace sv::cuda
