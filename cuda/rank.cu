// Rank transform and rank matching cost on the GPU; reproduce rank_transform.cpp bit for bit.
// The transform stages a tile plus its apron in shared memory (each pixel is read by M*M
// threads); the cost reads a table of rank_cost() by rank difference, consecutive threads
// writing consecutive candidates (four per thread when the stride allows), so the volume is
// written coalesced.
#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/error.h"
#include "src/core/rank_transform.h"

namespace sv::cuda {
namespace {

constexpr int kTile = 16;
constexpr int kMaxRadius = 7;
constexpr int kCostThreads = 256;

__global__ void rank_transform_kernel(const uint8_t* __restrict__ image, int width, int height,
                                      int radius, uint8_t* __restrict__ ranks) {
  // 256 marks window positions outside the image: never darker than a centre.
  __shared__ int tile[kTile + 2 * kMaxRadius][kTile + 2 * kMaxRadius];
  const int span = kTile + 2 * radius;
  const int x0 = blockIdx.x * kTile - radius, y0 = blockIdx.y * kTile - radius;
  for (int i = threadIdx.y * kTile + threadIdx.x; i < span * span; i += kTile * kTile) {
    const int tx = i % span, ty = i / span;
    const int x = x0 + tx, y = y0 + ty;
    tile[ty][tx] = (x >= 0 && x < width && y >= 0 && y < height) ? image[y * width + x] : 256;
  }
  __syncthreads();
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x >= width || y >= height) return;
  const int centre = tile[threadIdx.y + radius][threadIdx.x + radius];
  int count = 0;
  for (int dy = 0; dy <= 2 * radius; ++dy) {
    for (int dx = 0; dx <= 2 * radius; ++dx) count += tile[threadIdx.y + dy][threadIdx.x + dx] < centre;
  }
  ranks[y * width + x] = static_cast<uint8_t>(count);
}

// rank_cost() of every absolute rank difference (ranks are < 225), so the per-cell work is a
// table read instead of a division.
__device__ void fill_rank_cost_table(uint8_t* table, int window) {
  for (int d = threadIdx.x; d < 256; d += blockDim.x) table[d] = rank_cost(d, 0, window);
  __syncthreads();
}

__device__ uint8_t rank_cell(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                             const uint8_t* table, int width, int y, int x, int k, int base,
                             int count) {
  if (k >= count) return kMaxMatchCost;  // padding cells
  const int xr = x - (base + k);
  if (xr < 0 || xr >= width) return kMaxMatchCost;
  const size_t row = static_cast<size_t>(y) * width;
  const int a = left[row + x], b = right[row + xr];
  return table[a > b ? a - b : b - a];
}

// One thread per (pixel, candidate) cell of a row; any stride.
__global__ void rank_cost_kernel(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                                 int width, int uniform_base, const int16_t* __restrict__ per_pixel_base,
                                 int count, int stride, int window, uint8_t* __restrict__ costs) {
  __shared__ uint8_t table[256];
  fill_rank_cost_table(table, window);
  const int y = blockIdx.y;
  const int i = blockIdx.x * kCostThreads + threadIdx.x;
  if (i >= width * stride) return;
  const int x = i / stride;
  const int k = i - x * stride;
  const size_t pixel = static_cast<size_t>(y) * width + x;
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  costs[pixel * stride + k] = rank_cell(left, right, table, width, y, x, k, base, count);
}

// Strides that are a multiple of 4: one thread writes four candidates of one pixel as one word.
__global__ void rank_cost_kernel_x4(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                                    int width, int uniform_base, const int16_t* __restrict__ per_pixel_base,
                                    int count, int stride, int window, uchar4* __restrict__ costs) {
  __shared__ uint8_t table[256];
  fill_rank_cost_table(table, window);
  const int y = blockIdx.y;
  const int quads = stride / 4;
  const int i = blockIdx.x * kCostThreads + threadIdx.x;
  if (i >= width * quads) return;
  const int x = i / quads;
  const int k = (i - x * quads) * 4;
  const size_t pixel = static_cast<size_t>(y) * width + x;
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  uchar4 out;
  out.x = rank_cell(left, right, table, width, y, x, k, base, count);
  out.y = rank_cell(left, right, table, width, y, x, k + 1, base, count);
  out.z = rank_cell(left, right, table, width, y, x, k + 2, base, count);
  out.w = rank_cell(left, right, table, width, y, x, k + 3, base, count);
  costs[pixel * quads + (k / 4)] = out;
}

void check_window(int window) {
  if (window < 3 || window > 2 * kMaxRadius + 1 || window % 2 == 0) {
    throw InputError("rank window must be odd and in 3..15, got " + std::to_string(window));
  }
}

}  // namespace

void rank_transform(const uint8_t* image, int width, int height, int window, uint8_t* ranks,
                    cudaStream_t stream) {
  check_window(window);
  if (width <= 0 || height <= 0) return;
  const dim3 block(kTile, kTile);
  const dim3 grid((width + kTile - 1) / kTile, (height + kTile - 1) / kTile);
  rank_transform_kernel<<<grid, block, 0, stream>>>(image, width, height, window / 2, ranks);
  SV_CUDA_CHECK_LAUNCH();
}

void rank_cost_volume(const uint8_t* left_ranks, const uint8_t* right_ranks, int width, int height,
                      int window, DeviceSearchRange range, int stride, uint8_t* costs,
                      cudaStream_t stream) {
  check_window(window);
  if (stride < range.count) throw InputError("rank cost: the candidate stride must hold every candidate");
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  if (stride % 4 == 0 && reinterpret_cast<uintptr_t>(costs) % 4 == 0) {
    const dim3 grid((width * (stride / 4) + kCostThreads - 1) / kCostThreads, height);
    rank_cost_kernel_x4<<<grid, kCostThreads, 0, stream>>>(
        left_ranks, right_ranks, width, range.uniform_base, range.per_pixel_base, range.count,
        stride, window, reinterpret_cast<uchar4*>(costs));
  } else {
    const dim3 grid((width * stride + kCostThreads - 1) / kCostThreads, height);
    rank_cost_kernel<<<grid, kCostThreads, 0, stream>>>(left_ranks, right_ranks, width,
                                                        range.uniform_base, range.per_pixel_base,
                                                        range.count, stride, window, costs);
  }
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
