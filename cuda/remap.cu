// Bilinear remap (rectification) on the GPU. One thread per output pixel: the four samples are
// gathers along a curve through the raw image, so the kernel is bound by memory latency; the
// L1/texture path (__ldg) serves the neighbours that adjacent threads share. The arithmetic is
// remap_math.h, shared with the CPU reference.
#include <cuda_runtime.h>

#include <cmath>

#include "cuda/cuda_check.h"
#include "cuda/remap.h"
#include "src/core/remap_math.h"

namespace sv::cuda {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

struct RawImage {
  int width, height;
  __device__ bool inside(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height;
  }
};

// The four samples of `tap` (remap.cpp step 3), `border` where a sample is outside.
template <typename T, typename Out, typename Channel>
__device__ __forceinline__ void gather(const T* __restrict__ raw, RawImage size,
                                       const remap_math::Tap& tap, Channel channel, Out border,
                                       Out v[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int x = tap.x0 + (i & 1), y = tap.y0 + (i >> 1);
    v[i] = !tap.outside && size.inside(x, y)
               ? static_cast<Out>(channel(raw[static_cast<size_t>(y) * size.width + x]))
               : border;
  }
}

// The output pixel of this thread and its tap; false for threads past the image.
__device__ __forceinline__ bool output_tap(const DeviceRemapMaps& maps, size_t& index,
                                           remap_math::Tap& tap) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= maps.width || y >= maps.height) return false;
  index = static_cast<size_t>(y) * maps.width + x;
  tap = remap_math::make_tap(__ldg(maps.map_x + index), __ldg(maps.map_y + index));
  return true;
}

__global__ void remap_u8_kernel(const uint8_t* __restrict__ raw, RawImage size,
                                DeviceRemapMaps maps, uint8_t* __restrict__ out) {
  size_t index;
  remap_math::Tap tap;
  if (!output_tap(maps, index, tap)) return;
  int w[4], v[4];
  remap_math::fixed_weights(tap.fx, tap.fy, w);
  gather(raw, size, tap, [](uint8_t p) { return p; }, 0, v);
  out[index] = remap_math::blend_fixed(v, w);
}

// image.h's rgb_to_gray: BT.601 luma in 8-bit fixed point, rounded.
__device__ __forceinline__ uint8_t luma(const Rgb8& p) {
  return static_cast<uint8_t>((77 * p.r + 150 * p.g + 29 * p.b + 128) >> 8);
}

__global__ void remap_rgb_kernel(const Rgb8* __restrict__ raw, RawImage size,
                                 DeviceRemapMaps maps, Rgb8* __restrict__ out,
                                 uint8_t* __restrict__ gray_out) {
  size_t index;
  remap_math::Tap tap;
  if (!output_tap(maps, index, tap)) return;
  int w[4], v[4];
  remap_math::fixed_weights(tap.fx, tap.fy, w);
  Rgb8 p;
  gather(raw, size, tap, [](const Rgb8& q) { return q.r; }, 0, v);
  p.r = remap_math::blend_fixed(v, w);
  gather(raw, size, tap, [](const Rgb8& q) { return q.g; }, 0, v);
  p.g = remap_math::blend_fixed(v, w);
  gather(raw, size, tap, [](const Rgb8& q) { return q.b; }, 0, v);
  p.b = remap_math::blend_fixed(v, w);
  out[index] = p;
  if (gray_out != nullptr) gray_out[index] = luma(p);
}

template <typename T>
__device__ __forceinline__ float float_sum(const T* __restrict__ raw, RawImage size,
                                           const remap_math::Tap& tap, float border) {
  float w[4], v[4];
  remap_math::float_weights(tap.fx, tap.fy, w);
  gather(raw, size, tap, [](T p) { return static_cast<float>(p); }, border, v);
  return remap_math::blend_float(v, w);
}

__global__ void remap_u16_kernel(const uint16_t* __restrict__ raw, RawImage size,
                                 DeviceRemapMaps maps, uint16_t* __restrict__ out) {
  size_t index;
  remap_math::Tap tap;
  if (!output_tap(maps, index, tap)) return;
  out[index] = remap_math::round_to_u16(float_sum(raw, size, tap, 0.0f));
}

__global__ void remap_f32_kernel(const float* __restrict__ raw, RawImage size,
                                 DeviceRemapMaps maps, float* __restrict__ out) {
  size_t index;
  remap_math::Tap tap;
  if (!output_tap(maps, index, tap)) return;
  out[index] = float_sum(raw, size, tap, __int_as_float(0x7fc00000));  // quiet NaN
}

dim3 grid_for(const DeviceRemapMaps& maps) {
  return dim3((maps.width + kBlockX - 1) / kBlockX, (maps.height + kBlockY - 1) / kBlockY);
}

bool nothing_to_do(const DeviceRemapMaps& maps) { return maps.width <= 0 || maps.height <= 0; }

}  // namespace

void remap_bilinear(const uint8_t* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    uint8_t* out, cudaStream_t stream) {
  if (nothing_to_do(maps)) return;
  remap_u8_kernel<<<grid_for(maps), dim3(kBlockX, kBlockY), 0, stream>>>(
      raw, RawImage{raw_width, raw_height}, maps, out);
  SV_CUDA_CHECK(cudaGetLastError());
}

void remap_bilinear(const Rgb8* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    Rgb8* out, uint8_t* gray_out, cudaStream_t stream) {
  if (nothing_to_do(maps)) return;
  remap_rgb_kernel<<<grid_for(maps), dim3(kBlockX, kBlockY), 0, stream>>>(
      raw, RawImage{raw_width, raw_height}, maps, out, gray_out);
  SV_CUDA_CHECK(cudaGetLastError());
}

void remap_bilinear(const uint16_t* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    uint16_t* out, cudaStream_t stream) {
  if (nothing_to_do(maps)) return;
  remap_u16_kernel<<<grid_for(maps), dim3(kBlockX, kBlockY), 0, stream>>>(
      raw, RawImage{raw_width, raw_height}, maps, out);
  SV_CUDA_CHECK(cudaGetLastError());
}

void remap_bilinear(const float* raw, int raw_width, int raw_height, DeviceRemapMaps maps,
                    float* out, cudaStream_t stream) {
  if (nothing_to_do(maps)) return;
  remap_f32_kernel<<<grid_for(maps), dim3(kBlockX, kBlockY), 0, stream>>>(
      raw, RawImage{raw_width, raw_height}, maps, out);
  SV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace sv::cuda
