// Winner-takes-all on the GPU; the exact definition is src/core/winner_takes_all.cpp's, reproduced
// bit for bit for every cost type.
//
// winner_takes_all: one warp per pixel. The lanes read the pixel's candidates together
// (coalesced), reduce (cost, k) to the first minimum, then vote on uniqueness; lane 0 does the
// subpixel fit. Reading the cost volume once is the bound.
// right_view_disparity: one block per row. Every (left pixel, candidate) of the row offers its
// cost to right pixel x - d through a 64-bit atomicMin in shared memory on the key
// (ordered cost, ordered d), which is exactly "smallest cost, ties to the smaller d"; the row's
// costs are read once, coalesced.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/stages.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarp = 32;
constexpr int kWtaWarpsPerBlock = 8;
constexpr int kRightViewThreads = 256;
constexpr unsigned long long kNoOffer = ~0ull;

// Exact products for the uniqueness test (as the CPU: uint64 for integers, double for float).
template <typename T>
using WideCost = std::conditional_t<std::is_floating_point<T>::value, double, unsigned long long>;

template <typename T>
__device__ __forceinline__ bool is_real_cost(T c) {
  if constexpr (std::is_floating_point<T>::value) {
    return isfinite(c);
  } else {
    return c != static_cast<T>(~T{0});
  }
}

// Butterfly exchange of a cost; 8- and 16-bit costs travel as 32-bit words.
template <typename T>
__device__ __forceinline__ T shuffle_xor(T value, int offset) {
  if constexpr (std::is_floating_point<T>::value) {
    return __shfl_xor_sync(0xffffffffu, value, offset);
  } else {
    return static_cast<T>(__shfl_xor_sync(0xffffffffu, static_cast<uint32_t>(value), offset));
  }
}

// Same integer rounding as the CPU: half away from zero, in int64.
__device__ __forceinline__ int subpixel_offset(int64_t c0, int64_t cm, int64_t cp) {
  const int64_t denom = cm + cp - 2 * c0;
  if (denom <= 0) return 0;
  const int64_t n = 8 * (cm - cp);
  const int64_t magnitude = (2 * (n < 0 ? -n : n) + denom) / (2 * denom);
  return static_cast<int>(n < 0 ? -magnitude : magnitude);
}

// Float path: every step rounded explicitly (no FMA contraction), lroundf = std::lround.
__device__ __forceinline__ int subpixel_offset(float c0, float cm, float cp) {
  const float denom = __fsub_rn(__fadd_rn(cm, cp), __fmul_rn(2.0f, c0));
  if (!(denom > 0.0f)) return 0;
  return static_cast<int>(
      lroundf(__fdiv_rn(__fmul_rn(16.0f, __fsub_rn(cm, cp)), __fmul_rn(2.0f, denom))));
}

// One warp per pixel; memory bound on the cost volume read.
template <typename T>
__global__ void __launch_bounds__(kWarp* kWtaWarpsPerBlock)
    winner_takes_all_kernel(const T* __restrict__ costs, int width, int height, int uniform_base,
                            const int16_t* __restrict__ per_pixel_base, int count, int uniqueness,
                            bool subpixel, double max_cost, int16_t* __restrict__ out) {
  const int lane = threadIdx.x % kWarp;
  const size_t pixel = static_cast<size_t>(blockIdx.x) * kWtaWarpsPerBlock + threadIdx.x / kWarp;
  if (pixel >= static_cast<size_t>(width) * height) return;  // whole warps leave together
  const T* c = costs + pixel * count;

  // First minimum: lexicographic (cost, k) so ties go to the lower k as in the sequential scan.
  T best = T{};
  int kb = count;  // "none yet"
  for (int k = lane; k < count; k += kWarp) {
    const T v = c[k];
    if (kb == count || v < best) {
      best = v;
      kb = k;
    }
  }
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    const T other = shuffle_xor(best, offset);
    const int other_k = __shfl_xor_sync(0xffffffffu, kb, offset);
    if (other_k < count && (kb == count || other < best || (other == best && other_k < kb))) {
      best = other;
      kb = other_k;
    }
  }
  if (count == 0 || !is_real_cost(best) || static_cast<double>(best) > max_cost) {
    if (lane == 0) out[pixel] = kInvalidFixedDisparity;
    return;
  }

  const WideCost<T> best_scaled = static_cast<WideCost<T>>(best) * 100;
  const WideCost<T> keep_percent = static_cast<WideCost<T>>(100 - uniqueness);
  bool rejected = false;
  for (int k = lane; k < count; k += kWarp) {
    const int gap = k > kb ? k - kb : kb - k;
    if (gap > 1 && static_cast<WideCost<T>>(c[k]) * keep_percent < best_scaled) rejected = true;
  }
  if (__any_sync(0xffffffffu, rejected)) {
    if (lane == 0) out[pixel] = kInvalidFixedDisparity;
    return;
  }
  if (lane != 0) return;

  int offset = 0;
  if (subpixel && kb > 0 && kb < count - 1 && is_real_cost(c[kb - 1]) && is_real_cost(c[kb + 1])) {
    if constexpr (std::is_floating_point<T>::value) {
      offset = subpixel_offset(static_cast<float>(best), static_cast<float>(c[kb - 1]),
                               static_cast<float>(c[kb + 1]));
    } else {
      offset = subpixel_offset(static_cast<int64_t>(best), static_cast<int64_t>(c[kb - 1]),
                               static_cast<int64_t>(c[kb + 1]));
    }
    offset = min(max(offset, -kDisparityScale / 2), kDisparityScale / 2);
  }
  const int base = per_pixel_base ? per_pixel_base[pixel] : uniform_base;
  out[pixel] = static_cast<int16_t>((base + kb) * kDisparityScale + offset);
}

// Order-preserving 32-bit image of a cost: integers as they are; floats by the usual sign
// flip, with -0 mapped to +0 because the CPU compares them equal (the tie then goes by d).
template <typename T>
__device__ __forceinline__ uint32_t ordered_cost(T c) {
  if constexpr (std::is_floating_point<T>::value) {
    const uint32_t bits = c == 0.0f ? 0u : __float_as_uint(c);
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  } else {
    return static_cast<uint32_t>(c);
  }
}

// One block per row, a shared-memory atomicMin per offer; memory bound on the row's costs.
template <typename T>
__global__ void __launch_bounds__(kRightViewThreads)
    right_view_disparity_kernel(const T* __restrict__ costs, int width, int uniform_base,
                                const int16_t* __restrict__ per_pixel_base, int count,
                                int16_t* __restrict__ out) {
  extern __shared__ unsigned long long best_key[];  // one per right pixel of the row
  const int y = blockIdx.x;
  for (int x = threadIdx.x; x < width; x += blockDim.x) best_key[x] = kNoOffer;
  __syncthreads();

  const size_t row_offers = static_cast<size_t>(width) * count;
  const T* row_costs = costs + static_cast<size_t>(y) * row_offers;
  const int16_t* row_base = per_pixel_base ? per_pixel_base + static_cast<size_t>(y) * width : nullptr;
  for (size_t i = threadIdx.x; i < row_offers; i += blockDim.x) {
    const int x = static_cast<int>(i / count);
    const int k = static_cast<int>(i % count);
    const int d = (row_base ? row_base[x] : uniform_base) + k;
    const int xr = x - d;
    if (xr < 0 || xr >= width) continue;
    // d's sign bit flipped orders int32 as uint32.
    const unsigned long long key =
        (static_cast<unsigned long long>(ordered_cost(row_costs[i])) << 32) |
        (static_cast<uint32_t>(d) ^ 0x80000000u);
    atomicMin(&best_key[xr], key);
  }
  __syncthreads();

  int16_t* out_row = out + static_cast<size_t>(y) * width;
  for (int x = threadIdx.x; x < width; x += blockDim.x) {
    const unsigned long long key = best_key[x];
    if (key == kNoOffer) {
      out_row[x] = kInvalidFixedDisparity;
    } else {
      const int d = static_cast<int>(static_cast<uint32_t>(key) ^ 0x80000000u);
      out_row[x] = static_cast<int16_t>(d * kDisparityScale);
    }
  }
}

}  // namespace

template <typename T>
void winner_takes_all(const T* costs, int width, int height, DeviceSearchRange range,
                      const WtaSettings& settings, int16_t* disparity_fixed, cudaStream_t stream) {
  if (settings.uniqueness < 0 || settings.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " +
                     std::to_string(settings.uniqueness) + ".");
  }
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  const unsigned blocks =
      static_cast<unsigned>((pixels + kWtaWarpsPerBlock - 1) / kWtaWarpsPerBlock);
  winner_takes_all_kernel<T><<<blocks, kWarp * kWtaWarpsPerBlock, 0, stream>>>(
      costs, width, height, range.uniform_base, range.per_pixel_base, range.count,
      settings.uniqueness, settings.subpixel, settings.max_cost, disparity_fixed);
  SV_CUDA_CHECK_LAUNCH();
}

template <typename T>
void right_view_disparity(const T* costs, int width, int height, DeviceSearchRange range,
                          int16_t* right_fixed, cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  const size_t shared = sizeof(unsigned long long) * static_cast<size_t>(width);
  auto kernel = right_view_disparity_kernel<T>;
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(kernel, shared);
  kernel<<<height, kRightViewThreads, shared, stream>>>(costs, width, range.uniform_base,
                                                        range.per_pixel_base, range.count,
                                                        right_fixed);
  SV_CUDA_CHECK_LAUNCH();
}

#define SV_INSTANTIATE_WTA(T)                                                                  \
  template void winner_takes_all<T>(const T*, int, int, DeviceSearchRange, const WtaSettings&, \
                                    int16_t*, cudaStream_t);                                   \
  template void right_view_disparity<T>(const T*, int, int, DeviceSearchRange, int16_t*,       \
                                        cudaStream_t);
SV_INSTANTIATE_WTA(uint8_t)
SV_INSTANTIATE_WTA(uint16_t)
SV_INSTANTIATE_WTA(uint32_t)
SV_INSTANTIATE_WTA(float)
#undef SV_INSTANTIATE_WTA

}  // namespace sv::cuda
