// How fast can SGM directions add their path costs into one 16-bit S volume? Issue 21 asks for S
// written once instead of eight 8-bit volumes; without an on-chip exchange between the warps of
// different directions, the adds would be reductions in L2. This measures, on a volume of 16-bit
// cells, the bytes a second of: plain stores, packed-pair integer adds (red.add.u32: two 16-bit
// sums per word, exact while a sum stays below 65536) and packed-half adds (red.add.noftz.v2.f16x2:
// exact for integers up to 2048, 8 x 255 fits), each over a region that stays in L2 and over one
// that does not. Not part of the build; run on a GPU of sm_90:
//   nvcc -O3 -arch=sm_90 scripts/experiments/l2_reduction_bench.cu -o /tmp/l2rb && /tmp/l2rb
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

enum Mode { kStore = 0, kAddU32 = 1, kAddF16x2 = 2 };

// Each thread writes 8 bytes (four 16-bit cells) per pass, `passes` times over the region (as
// several directions would add into the same cells).
template <int kMode>
__global__ void write_cells(uint2* region, size_t words, int passes) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const uint32_t one = 0x00010001u;                      // +1 in each 16-bit integer half
  const uint32_t one_half = 0x3C003C00u;                 // +1.0 in each half
  for (int p = 0; p < passes; ++p) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words; i += stride) {
      if constexpr (kMode == kStore) {
        region[i] = make_uint2(one * p, one * p);
      } else if constexpr (kMode == kAddU32) {
        atomicAdd(&region[i].x, one);
        atomicAdd(&region[i].y, one);
      } else {
        asm volatile("red.global.add.noftz.v2.f16x2 [%0], {%1, %2};" ::"l"(region + i), "r"(one_half),
                     "r"(one_half) : "memory");
      }
    }
  }
}

template <int kMode>
float time_ms(uint2* region, size_t words, int passes, int blocks) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> runs;
  for (int r = 0; r < 7; ++r) {
    cudaEventRecord(a);
    write_cells<kMode><<<blocks, 256>>>(region, words, passes);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (r >= 2) runs.push_back(ms);  // two warm-up runs
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = sms * 8;
  const size_t sizes[] = {size_t(16) << 20, size_t(530) << 20};  // in L2; 1080p D128's S
  uint2* region = nullptr;
  if (cudaMalloc(&region, sizes[1]) != cudaSuccess) return 1;
  cudaMemset(region, 0, sizes[1]);
  printf("%-10s %10s %7s %10s %10s\n", "mode", "region MB", "passes", "ms", "GB/s");
  for (size_t bytes : sizes) {
    const size_t words = bytes / sizeof(uint2);
    const int passes = bytes < (size_t(64) << 20) ? 32 : 3;
    const float t[3] = {time_ms<kStore>(region, words, passes, blocks),
                        time_ms<kAddU32>(region, words, passes, blocks),
                        time_ms<kAddF16x2>(region, words, passes, blocks)};
    const char* names[3] = {"store", "red.u32", "red.f16x2"};
    for (int m = 0; m < 3; ++m) {
      printf("%-10s %10zu %7d %10.3f %10.0f\n", names[m], bytes >> 20, passes, t[m],
             static_cast<double>(bytes) * passes / (t[m] * 1e6));
    }
  }
  const cudaError_t e = cudaDeviceSynchronize();
  printf("status: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
