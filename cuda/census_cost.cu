// Normalized Hamming cost volume of census codes on the GPU; reproduces census_cost.cpp bit for
// bit (cost = (h * 64 + v / 2) / v over the bits valid in both codes, 64 when v == 0 or when the
// right pixel lies outside the image).
#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/error.h"

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
                                          int count, int stride, uint8_t* __restrict__ costs) {
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
  costs[pixel * stride + k] = static_cast<uint8_t>(cost);
}

// The padded volume of a uniform range, tiled: a block owns kTilePixels pixels of one row and
// stages every right code they can match in shared memory (as separate word arrays, so the
// lanes' neighbouring codes fall in different banks); each code is read from global memory once
// per tile instead of once per candidate. Thread t handles cells k = chunk + t % 8 + 8 c of pixel
// t / 8. Interior pairs (all bits valid in both) take the multiply-high division of
// census_cost_interior; the rest the general formula.
constexpr int kTilePixels = 32;
constexpr int kTileThreads = 256;

template <int kWords>
__global__ void __launch_bounds__(kTileThreads)
    census_cost_tile_kernel(const CensusCode* __restrict__ left, const CensusCode* __restrict__ right,
                            int width, int base, int count, int stride, int window_bits,
                            uint32_t magic, uint8_t* __restrict__ costs) {
  extern __shared__ uint64_t tile_words[];  // bits[w][span], valid[w][span]
  const int y = blockIdx.y;
  const int x0 = blockIdx.x * kTilePixels;
  const int span = kTilePixels + count - 1;      // right pixels x0 - base - count + 1 ...
  const int first_xr = x0 - base - (count - 1);  // ... up to x0 + 31 - base
  uint64_t* bits = tile_words;
  uint64_t* valid = tile_words + kWords * span;
  const CensusCode* right_row = right + static_cast<size_t>(y) * width;
  for (int i = threadIdx.x; i < span; i += kTileThreads) {
    const int xr = first_xr + i;
    if (xr >= 0 && xr < width) {
      const CensusCode r = right_row[xr];
#pragma unroll
      for (int w = 0; w < kWords; ++w) {
        bits[w * span + i] = r.bits[w];
        valid[w * span + i] = r.valid[w];
      }
    }
  }
  __syncthreads();

  // Costs go to a shared staging tile first: the tile's pixels are contiguous in the volume, so
  // it leaves in 16-byte stores instead of single bytes.
  uint8_t* staged = reinterpret_cast<uint8_t*>(valid + kWords * span);  // [kTilePixels][stride]
  const int px = threadIdx.x / 8;
  const int x = x0 + px;
  const int lane8 = threadIdx.x % 8;
  if (x < width) {
    const CensusCode l = left[static_cast<size_t>(y) * width + x];
    for (int chunk = 0; chunk < stride; chunk += 32) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int k = chunk + lane8 + 8 * c;
        const int xr = x - base - k;
        int cost = kMaxMatchCost;
        if (k < count && xr >= 0 && xr < width) {
          const int i = xr - first_xr;
          int v = 0, h = 0;
#pragma unroll
          for (int w = 0; w < kWords; ++w) {
            const uint64_t both = l.valid[w] & valid[w * span + i];
            v += __popcll(both);
            h += __popcll((l.bits[w] ^ bits[w * span + i]) & both);
          }
          if (v == window_bits) {
            cost = static_cast<int>(__umulhi(static_cast<uint32_t>(h * kMaxMatchCost + window_bits / 2), magic));
          } else if (v > 0) {
            cost = (h * kMaxMatchCost + v / 2) / v;
          }
        }
        staged[px * stride + k] = static_cast<uint8_t>(cost);
      }
    }
  }
  __syncthreads();
  const int pixels = min(kTilePixels, width - x0);
  const int vectors = pixels * stride / 16;
  const uint4* from = reinterpret_cast<const uint4*>(staged);
  uint4* to = reinterpret_cast<uint4*>(costs + (static_cast<size_t>(y) * width + x0) * stride);
  for (int i = threadIdx.x; i < vectors; i += kTileThreads) to[i] = from[i];
}

template <int kWords>
void launch_cost_tiles(const CensusCode* left, const CensusCode* right, int width, int height,
                       int base, int count, int stride, int window_bits, uint8_t* costs,
                       cudaStream_t stream) {
  const size_t shared = sizeof(uint64_t) * 2 * kWords * (kTilePixels + count - 1) +
                        static_cast<size_t>(kTilePixels) * stride;
  if (shared > 48 * 1024) {
    SV_CUDA_CHECK(cudaFuncSetAttribute(census_cost_tile_kernel<kWords>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(shared)));
  }
  const uint32_t magic = static_cast<uint32_t>(((1ull << 32) + window_bits - 1) / window_bits);
  const dim3 grid((width + kTilePixels - 1) / kTilePixels, height);
  census_cost_tile_kernel<kWords><<<grid, kTileThreads, shared, stream>>>(
      left, right, width, base, count, stride, window_bits, magic, costs);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void census_cost_volume(const CensusCode* left, const CensusCode* right, int width, int height,
                        DeviceSearchRange range, uint8_t* costs, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || range.count <= 0) return;
  const dim3 grid((width * range.count + kThreads - 1) / kThreads, height);
  census_cost_volume_kernel<<<grid, kThreads, 0, stream>>>(left, right, width, range.uniform_base,
                                                           range.per_pixel_base, range.count, range.count, costs);
  SV_CUDA_CHECK_LAUNCH();
}

void census_cost_volume_strided(const CensusCode* left, const CensusCode* right, int width,
                                int height, int uniform_base, int count, int stride, int window_bits,
                                uint8_t* costs, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || count <= 0) return;
  if (stride % 32 != 0 || stride < count) {
    throw InputError("census cost: the candidate stride must be a multiple of 32 holding every candidate");
  }
  if (window_bits <= 64) {
    launch_cost_tiles<1>(left, right, width, height, uniform_base, count, stride, window_bits, costs, stream);
  } else {
    launch_cost_tiles<2>(left, right, width, height, uniform_base, count, stride, window_bits, costs, stream);
  }
}

}  // namespace sv::cuda
