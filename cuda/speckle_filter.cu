// Speckle removal on the GPU: connected components by concurrent union-find, then a size count
// per component. Matches speckle_filter.cpp exactly, because connected components are unique
// whatever order the unions happen in. Memory/latency bound: a few passes over int32 labels.
#include "cuda/stages.h"

#include <cstdint>
#include <cstdlib>

#include "cuda/cuda_check.h"
#include "src/core/disparity.h"

namespace sv::cuda {
namespace {

constexpr int kBlock = 256;

__device__ int find_root(const int32_t* labels, int i) {
  while (labels[i] != i) i = labels[i];
  return i;
}

// Links the roots of a and b, the larger root under the smaller; retries when another thread
// re-linked the root in between (atomicMin returns what was there).
__device__ void unite(int32_t* labels, int a, int b) {
  while (true) {
    a = find_root(labels, a);
    b = find_root(labels, b);
    if (a == b) return;
    if (a < b) {
      const int t = a;
      a = b;
      b = t;
    }
    const int old = atomicMin(&labels[a], b);
    if (old == a) return;
    a = old;
  }
}

__device__ bool connected(const int16_t* d, int i, int j, int tolerance) {
  return d[i] != kInvalidFixedDisparity && d[j] != kInvalidFixedDisparity &&
         abs(static_cast<int>(d[i]) - static_cast<int>(d[j])) <= tolerance;
}

__global__ void init_labels_kernel(const int16_t* d, int n, int32_t* labels, int32_t* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  labels[i] = d[i] != kInvalidFixedDisparity ? i : -1;
  counts[i] = 0;
}

__global__ void merge_kernel(const int16_t* d, int width, int height, int tolerance,
                             int32_t* labels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * height || labels[i] < 0) return;
  const int x = i % width;
  const int y = i / width;
  if (x + 1 < width && connected(d, i, i + 1, tolerance)) unite(labels, i, i + 1);
  if (y + 1 < height && connected(d, i, i + width, tolerance)) unite(labels, i, i + width);
}

__global__ void count_kernel(int n, int32_t* labels, int32_t* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || labels[i] < 0) return;
  const int root = find_root(labels, i);
  atomicAdd(&counts[root], 1);
}

__global__ void invalidate_kernel(int16_t* d, int n, const int32_t* labels, const int32_t* counts,
                                  int max_region_size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || labels[i] < 0) return;
  if (counts[find_root(labels, i)] < max_region_size) d[i] = kInvalidFixedDisparity;
}

}  // namespace

void remove_speckles(int16_t* disparity_fixed, int width, int height, int max_region_size,
                     int max_difference, int32_t* labels, int32_t* counts, cudaStream_t stream) {
  if (max_region_size <= 1) return;
  const int n = width * height;
  const int grid = (n + kBlock - 1) / kBlock;
  const int tolerance = max_difference * kDisparityScale;
  init_labels_kernel<<<grid, kBlock, 0, stream>>>(disparity_fixed, n, labels, counts);
  SV_CUDA_CHECK_LAUNCH();
  merge_kernel<<<grid, kBlock, 0, stream>>>(disparity_fixed, width, height, tolerance, labels);
  SV_CUDA_CHECK_LAUNCH();
  count_kernel<<<grid, kBlock, 0, stream>>>(n, labels, counts);
  SV_CUDA_CHECK_LAUNCH();
  invalidate_kernel<<<grid, kBlock, 0, stream>>>(disparity_fixed, n, labels, counts, max_region_size);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
