// Disparity post-filters on the GPU: LR check, median of valid values, hole filling. The exact
// definitions are those of src/core/lr_check.cpp, median_filter.cpp and hole_filling.cpp; all
// integer, reproduced bit for bit.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/stages.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarp = 32;
constexpr int kPixelThreads = 256;
constexpr int kFillWarps = 8;  // warps sharing one row
constexpr int kFillLoads = 8;  // staging loads a thread keeps in flight

__device__ __forceinline__ bool is_valid(int16_t d) { return d != kInvalidFixedDisparity; }

// floor(value / 16) for any sign, as the CPU spells it.
__device__ __forceinline__ int floor_div16(int value) {
  return value >= 0 ? value / kDisparityScale
                    : -((-value + kDisparityScale - 1) / kDisparityScale);
}

// One thread per left pixel, in place; memory bound.
__global__ void __launch_bounds__(kPixelThreads)
    lr_check_kernel(int16_t* __restrict__ left, const int16_t* __restrict__ right, int width,
                    int height, int tolerance) {
  const size_t pixel = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (pixel >= static_cast<size_t>(width) * height) return;
  const int dl = left[pixel];
  if (!is_valid(static_cast<int16_t>(dl))) return;
  const int x = static_cast<int>(static_cast<unsigned>(pixel) % static_cast<unsigned>(width));
  const int xr = x - floor_div16(dl + kDisparityScale / 2);
  bool consistent = xr >= 0 && xr < width;
  if (consistent) {
    const int16_t dr = right[pixel - x + xr];
    const int diff = dl - dr;
    consistent = is_valid(dr) && (diff < 0 ? -diff : diff) <= tolerance;
  }
  if (!consistent) left[pixel] = kInvalidFixedDisparity;
}

// The median of the valid values in the kSize x kSize window around a valid pixel (x, y). The
// window's values go into registers with absent and invalid ones replaced by keys outside the
// disparities: the first kCount / 2 - n / 2 of them below every disparity, the others above.
// The middle of the sorted window is then element n / 2 of the n valid values sorted (the CPU's
// result; n >= 1, as the centre is valid), so a fixed network with a fixed output position does
// the rest: no register is indexed at run time and nothing spills to local memory.
template <int kSize>
__device__ __forceinline__ int16_t window_median(const int16_t* __restrict__ in, int width, int height,
                                                 int x, int y) {
  constexpr int kRadius = kSize / 2;
  constexpr int kCount = kSize * kSize;
  constexpr int kAbove = 1 << 16;    // above any int16 disparity
  constexpr int kBelow = -(1 << 16);  // below any
  int values[kCount];
  int n = 0;
  // Pixels whose window lies inside the image (nearly all) read it without bounds checks, which
  // were most of the kernel's instructions.
  const bool interior = x >= kRadius && x < width - kRadius && y >= kRadius && y < height - kRadius;
  if (interior) {
    const int16_t* centre = in + static_cast<size_t>(y) * width + x;
#pragma unroll
    for (int j = -kRadius; j <= kRadius; ++j) {
#pragma unroll
      for (int i = -kRadius; i <= kRadius; ++i) {
        const int16_t d = __ldg(centre + j * width + i);
        const bool valid = is_valid(d);
        n += valid;
        values[(j + kRadius) * kSize + (i + kRadius)] = valid ? d : kAbove;
      }
    }
  } else {
#pragma unroll
    for (int j = -kRadius; j <= kRadius; ++j) {
#pragma unroll
      for (int i = -kRadius; i <= kRadius; ++i) {
        const int wx = x + i, wy = y + j;
        int v = kAbove;
        if (wx >= 0 && wx < width && wy >= 0 && wy < height) {
          const int16_t d = __ldg(in + static_cast<size_t>(wy) * width + wx);
          if (is_valid(d)) v = d;
        }
        n += v != kAbove;
        values[(j + kRadius) * kSize + (i + kRadius)] = v;
      }
    }
  }
  if (n < kCount) {
    int below = kCount / 2 - n / 2;
#pragma unroll
    for (int k = 0; k < kCount; ++k) {
      if (values[k] == kAbove) {
        if (below > 0) values[k] = kBelow;
        --below;
      }
    }
  }
  auto exchange = [&](int a, int b) {
    const int lo = min(values[a], values[b]);
    values[b] = max(values[a], values[b]);
    values[a] = lo;
  };
  if constexpr (kCount == 9) {
    // A 19-exchange median network for 9 values (sort the rows' triples, then narrow in on the
    // middle; checked on all 512 0/1 inputs); the halves that reach no output are dropped.
    constexpr int kNet[19][2] = {{1, 2}, {4, 5}, {7, 8}, {0, 1}, {3, 4}, {6, 7}, {1, 2},
                                 {4, 5}, {7, 8}, {0, 3}, {5, 8}, {4, 7}, {3, 6}, {1, 4},
                                 {2, 5}, {4, 7}, {4, 2}, {6, 4}, {4, 2}};
#pragma unroll
    for (int e = 0; e < 19; ++e) exchange(kNet[e][0], kNet[e][1]);
  } else {
#pragma unroll
    for (int pass = 0; pass < kCount; ++pass) {
#pragma unroll
      for (int k = pass & 1; k + 1 < kCount; k += 2) exchange(k, k + 1);
    }
  }
  return static_cast<int16_t>(values[kCount / 2]);
}

// One thread per pixel, rows along the grid's y (strided beyond its limit). Compute bound (tiny
// windows, L1-cached reads).
template <int kSize>
__global__ void __launch_bounds__(kPixelThreads)
    median_filter_kernel(const int16_t* __restrict__ in, int16_t* __restrict__ out, int width,
                         int height) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= width) return;
  for (int y = static_cast<int>(blockIdx.y); y < height; y += static_cast<int>(gridDim.y)) {
    const size_t pixel = static_cast<size_t>(y) * width + x;
    out[pixel] = is_valid(in[pixel]) ? window_median<kSize>(in, width, height, x, y) : kInvalidFixedDisparity;
  }
}

// Index of the nearest valid pixel at or before each lane's column (`before`), or at or after
// it, from one ballot of a 32-column chunk; `carry` is the answer from the neighbouring chunks
// (-1 for none).
__device__ __forceinline__ int nearest_valid_before(unsigned valid, int lane, int chunk_x,
                                                    int carry) {
  const unsigned upto = valid & (0xffffffffu >> (kWarp - 1 - lane));
  return upto ? chunk_x + kWarp - 1 - __clz(upto) : carry;
}
__device__ __forceinline__ int nearest_valid_after(unsigned valid, int lane, int chunk_x,
                                                   int carry) {
  const unsigned from = valid & (0xffffffffu << lane);
  return from ? chunk_x + __ffs(from) - 1 : carry;
}

// One block per row, its warps on consecutive stretches of the row: each warp finds the first and
// last valid column of its stretch, which give every warp the nearest valid columns beyond its
// stretch; then each warp runs two ballot scans (right to left, then left to right) over the
// 32-column chunks of its stretch alone. One warp scanning a whole row was latency bound on its
// sequential chunks (60 a scan at 1920 columns; now 8). The row is staged in shared memory so
// the output can be written in place while the scans still read the input row.
__global__ void __launch_bounds__(kWarp* kFillWarps)
    fill_holes_kernel(int16_t* disparity, int width) {
  extern __shared__ int16_t staged[];  // the input row, then the nearest valid value at or after x
  __shared__ int stretch_first[kFillWarps], stretch_last[kFillWarps];  // valid columns, -1: none
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  int16_t* row = disparity + static_cast<size_t>(blockIdx.x) * width;
  int16_t* input = staged;
  int16_t* next_valid = staged + width;
  // kFillLoads loads of a thread in flight together, then their stores: one latency, not eight.
  for (int base = threadIdx.x; base < width; base += kFillLoads * blockDim.x) {
    int16_t values[kFillLoads];
#pragma unroll
    for (int k = 0; k < kFillLoads; ++k) {
      const int x = base + k * static_cast<int>(blockDim.x);
      values[k] = x < width ? row[x] : int16_t{0};
    }
#pragma unroll
    for (int k = 0; k < kFillLoads; ++k) {
      const int x = base + k * static_cast<int>(blockDim.x);
      if (x < width) input[x] = values[k];
    }
  }
  __syncthreads();

  const int chunks = (width + kWarp - 1) / kWarp;
  const int per_warp = (chunks + kFillWarps - 1) / kFillWarps;
  const int begin = min(chunks, warp * per_warp), end = min(chunks, begin + per_warp);
  int first = -1, last = -1;
  for (int chunk = begin; chunk < end; ++chunk) {
    const int x = chunk * kWarp + lane;
    const unsigned mask = __ballot_sync(0xffffffffu, x < width && is_valid(input[x]));
    if (mask && first < 0) first = chunk * kWarp + __ffs(mask) - 1;
    if (mask) last = chunk * kWarp + kWarp - 1 - __clz(mask);
  }
  if (lane == 0) {
    stretch_first[warp] = first;
    stretch_last[warp] = last;
  }
  __syncthreads();
  int before = -1, after = -1;  // the nearest valid columns outside the stretch
  for (int w = 0; w < warp; ++w) before = stretch_last[w] >= 0 ? stretch_last[w] : before;
  for (int w = kFillWarps - 1; w > warp; --w) after = stretch_first[w] >= 0 ? stretch_first[w] : after;

  int carry = after;
  for (int chunk = end - 1; chunk >= begin; --chunk) {
    const int x = chunk * kWarp + lane;
    const bool valid = x < width && is_valid(input[x]);
    const unsigned mask = __ballot_sync(0xffffffffu, valid);
    const int index = nearest_valid_after(mask, lane, chunk * kWarp, carry);
    if (x < width) next_valid[x] = index >= 0 ? input[index] : kInvalidFixedDisparity;
    if (mask) carry = chunk * kWarp + __ffs(mask) - 1;
  }
  __syncwarp();  // next_valid of the stretch is written and read by this warp alone
  carry = before;
  for (int chunk = begin; chunk < end; ++chunk) {
    const int x = chunk * kWarp + lane;
    const bool valid = x < width && is_valid(input[x]);
    const unsigned mask = __ballot_sync(0xffffffffu, valid);
    const int index = nearest_valid_before(mask, lane, chunk * kWarp, carry);
    if (x < width && !valid) {
      // The pixel itself is invalid, so "at or before" is strictly before (and likewise after).
      const int16_t l = index >= 0 ? input[index] : kInvalidFixedDisparity;
      const int16_t r = next_valid[x];
      row[x] = is_valid(l) && is_valid(r) ? (l < r ? l : r) : (is_valid(l) ? l : r);
    }
    if (mask) carry = chunk * kWarp + kWarp - 1 - __clz(mask);
  }
}

unsigned pixel_blocks(int width, int height) {
  return static_cast<unsigned>((static_cast<size_t>(width) * height + kPixelThreads - 1) /
                               kPixelThreads);
}

// Blocks of kPixelThreads columns, one row each (the kernel strides over rows beyond the grid's
// y limit).
dim3 row_blocks(int width, int height) {
  return dim3(static_cast<unsigned>((width + kPixelThreads - 1) / kPixelThreads),
              static_cast<unsigned>(height < 65535 ? height : 65535));
}

}  // namespace

void lr_check(int16_t* left_fixed, const int16_t* right_fixed, int width, int height, int max_diff,
              cudaStream_t stream) {
  if (max_diff < 0) {
    throw InputError("LR check: max_diff must not be negative, got " + std::to_string(max_diff) +
                     ".");
  }
  if (width <= 0 || height <= 0) return;
  lr_check_kernel<<<pixel_blocks(width, height), kPixelThreads, 0, stream>>>(
      left_fixed, right_fixed, width, height, max_diff * kDisparityScale);
  SV_CUDA_CHECK_LAUNCH();
}

void median_filter(const int16_t* in, int16_t* out, int width, int height, int size,
                   cudaStream_t stream) {
  if (size != 0 && size != 1 && size != 3 && size != 5) {
    throw InputError("Median filter size must be 0, 1, 3 or 5, got " + std::to_string(size) + ".");
  }
  if (width <= 0 || height <= 0) return;
  if (size <= 1) {
    if (in != out) {
      SV_CUDA_CHECK(cudaMemcpyAsync(out, in, sizeof(int16_t) * width * height,
                                    cudaMemcpyDeviceToDevice, stream));
    }
    return;
  }
  if (size == 3) {
    median_filter_kernel<3><<<row_blocks(width, height), kPixelThreads, 0, stream>>>(in, out, width, height);
  } else {
    median_filter_kernel<5><<<row_blocks(width, height), kPixelThreads, 0, stream>>>(in, out, width, height);
  }
  SV_CUDA_CHECK_LAUNCH();
}

void fill_holes(int16_t* disparity_fixed, int width, int height, cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  const size_t shared = sizeof(int16_t) * 2 * static_cast<size_t>(width);
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(fill_holes_kernel, shared);
  fill_holes_kernel<<<static_cast<unsigned>(height), kWarp * kFillWarps, shared, stream>>>(
      disparity_fixed, width);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace sv::cuda
