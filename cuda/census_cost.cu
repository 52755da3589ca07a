// Normalized Hamming cost volume of census codes on the GPU; reproduces census_cost.cpp bit for
// bit (cost = (h * 64 + v / 2) / v over the bits valid in both codes, 64 when v == 0 or when the
// right pixel lies outside the image).
#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/census_cost.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ int census_cost_device(const CensusCode& l, const CensusCode& r) {
  const uint64_t both0 = l.valid[0] & r.valid[0];
  const uint64_t both1 = l.valid[1] & r.valid[1];
  const int v = __popcll(both0) + __popcll(both1);
  const int h = __popcll((l.bits[0] ^ r.bits[0]) & both0) + __popcll((l.bits[1] ^ r.bits[1]) & both1);
  if (v == 0) return kMaxMatchCost;
  return (h * kMaxMatchCost + v / 2) / v;
}

// Designed around memory bandwidth: one thread per (pixel, candidate) of a row, so consecutive
// threads write consecutive cost bytes; the codes come through L1 (a left code is shared by
// `count` neighbouring threads, right codes by overlapping candidates of neighbouring pixels).
__global__ void census_cost_volume_kernel(const CensusCode* __restrict__ left,
                                          const CensusCode* __restrict__ right, int width,
                                          int uniform_base, const int16_t* __restrict__ per_pixel_base,
                                          int count, uint8_t* __restrict__ costs) {
  const int y = blockIdx.y;
  const int i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= width * count) return;
  const int x = i / count;
  const int k = i - x * count;
  const size_t pixel = static_cast<size_t>(y) * width + x;
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  const int xr = x - (base + k);
  int cost = kMaxMatchCost;
  if (xr >= 0 && xr < width) {
    cost = census_cost_device(left[pixel], right[static_cast<size_t>(y) * width + xr]);
  }
  costs[pixel * count + k] = static_cast<uint8_t>(cost);
}

}  // namespace

void census_cost_volume(const CensusCode* left, const CensusCode* right, int width, int height,
                        DeviceSearchRange range, uint8_t* costs, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  const dim3 grid((width * range.count + kThreads - 1) / kThreads, height);
  census_cost_volume_kernel<<<grid, kThreads, 0, stream>>>(left, right, width, range.uniform_base,
                                                           range.per_pixel_base, range.count, costs);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
