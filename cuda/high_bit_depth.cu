// The 8-bit views of 16-bit and float input on the GPU (high_bit_depth.cpp: the high byte, v >> 8;
// the pair's range view for float, with the range found here too), for the stages that read
// intensities themselves while the census reads the full-depth values.
#include <climits>

#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "cuda/warp_min.cuh"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

// Memory bound: one thread per pixel, coalesced 2-byte reads and 1-byte writes.
__global__ void eight_bit_view_kernel(const uint16_t* __restrict__ image, size_t pixels,
                                      uint8_t* __restrict__ view) {
  const size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < pixels) view[i] = static_cast<uint8_t>(image[i] >> 8);
}

// Memory bound like the above; the range as float_view_range left it in device memory. Explicit
// _rn intrinsics: the subtraction and the product are rounded separately, as on the CPU, and ties
// round to even like std::nearbyint.
__global__ void float_view_kernel(const float* __restrict__ image, size_t pixels,
                                  const FloatViewRange* __restrict__ range, uint8_t* __restrict__ view) {
  const size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= pixels) return;
  const float q = __fmul_rn(__fsub_rn(image[i], range->lo), range->scale);
  view[i] = isnan(q) ? 0 : static_cast<uint8_t>(__float2int_rn(fminf(fmaxf(q, 0.0f), 255.0f)));
}

// A key per non-NaN float that orders as the floats do (-0 just below +0), so that the range's
// ends are integer atomics: the bits for v >= +0, the magnitude's bits flipped below.
__device__ __forceinline__ int order_key(float v) {
  const int bits = __float_as_int(v);
  return bits >= 0 ? bits : bits ^ 0x7FFFFFFF;
}
__device__ __forceinline__ float key_value(int key) { return __int_as_float(key >= 0 ? key : key ^ 0x7FFFFFFF); }

__global__ void clear_range_keys_kernel(int* keys) {
  keys[0] = INT_MAX;  // lowest value's key
  keys[1] = INT_MIN;  // highest value's key
}

// The lowest and highest finite value other than `missing` of both planes: each warp's ends, then
// one atomic each. Memory bound: grid-stride, coalesced.
__global__ void range_keys_kernel(const float* __restrict__ left, const float* __restrict__ right,
                                  size_t pixels, float missing, int* keys) {
  int low = INT_MAX, high = INT_MIN;
  const size_t stride = static_cast<size_t>(gridDim.x) * kThreads;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; i < 2 * pixels; i += stride) {
    const float v = i < pixels ? left[i] : right[i - pixels];
    if (!isfinite(v) || v == missing) continue;
    const int key = order_key(v);
    low = min(low, key);
    high = max(high, key);
  }
  low = warp_min(low);
  high = ~warp_min(~high);  // ~ reverses the order of ints
  if (threadIdx.x % 32 == 0) {
    if (low != INT_MAX) atomicMin(&keys[0], low);
    if (high != INT_MIN) atomicMax(&keys[1], high);
  }
}

// float_view_range's rule on the ends: no range for no finite value or a flat pair, the scale in
// IEEE single precision as on the CPU.
__global__ void range_from_keys_kernel(const int* keys, FloatViewRange* range) {
  FloatViewRange r;
  r.lo = 0.0f;
  r.scale = 0.0f;
  if (keys[0] != INT_MAX) {
    const float lo = key_value(keys[0]), hi = key_value(keys[1]);
    const float scale = __fdiv_rn(255.0f, __fsub_rn(hi, lo));
    if (lo < hi && isfinite(scale)) {
      r.lo = lo;
      r.scale = scale;
    }
  }
  *range = r;
}

}  // namespace

void float_view_range(const float* left, const float* right, size_t pixels, float missing,
                      int* keys, FloatViewRange* range, cudaStream_t stream) {
  clear_range_keys_kernel<<<1, 1, 0, stream>>>(keys);
  SV_CUDA_CHECK_LAUNCH();
  if (pixels > 0) {
    // Enough blocks to fill the GPU a few times over; each thread strides through the rest.
    const size_t wanted = (2 * pixels + kThreads - 1) / kThreads;
    const unsigned blocks = static_cast<unsigned>(wanted < 1024 ? wanted : 1024);
    range_keys_kernel<<<blocks, kThreads, 0, stream>>>(left, right, pixels, missing, keys);
    SV_CUDA_CHECK_LAUNCH();
  }
  range_from_keys_kernel<<<1, 1, 0, stream>>>(keys, range);
  SV_CUDA_CHECK_LAUNCH();
}

void eight_bit_view(const float* image, int width, int height, const FloatViewRange* range,
                    uint8_t* view, cudaStream_t stream) {
  const size_t pixels = static_cast<size_t>(width) * height;
  if (pixels == 0) return;
  const unsigned blocks = static_cast<unsigned>((pixels + kThreads - 1) / kThreads);
  float_view_kernel<<<blocks, kThreads, 0, stream>>>(image, pixels, range, view);
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
