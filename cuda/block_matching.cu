// Block-matching costs (SAD, SSD, ZNCC) on the GPU; the exact definitions are those of
// src/core/block_matching.cpp, reproduced bit for bit (ZNCC included: every window sum is an
// integer, and the one rounding formula runs in IEEE double exactly as on the CPU).
//
// Uniform range (the hot path): a block owns a tile of kTileWidth columns x kBandRows rows and a
// chunk of consecutive disparities, one thread per disparity. The band's left and right samples
// (clamped) are staged once in shared memory; each thread keeps the column sums of its disparity
// in registers, rolls them down the rows and slides the window along the tile, as in the NVIDIA
// stereo sample. Consecutive threads write consecutive k of one pixel, so the cost volume is
// written with full coalescing, which is the bound at realistic sizes.
// Per-pixel range: one thread per candidate sums its window directly (the refinement levels use
// few candidates).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/stages.h"
#include "src/core/block_matching.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kTileWidth = 32;        // output columns per block
constexpr int kBandRows = 32;         // output rows per block (column sums restart per band)
constexpr int kMaxChunk = 128;        // disparities (threads) per block
constexpr int kDirectThreads = 256;   // per-pixel-range kernel

enum class Metric { kSad, kSsd, kZncc };

__device__ __forceinline__ int clamp_index(int v, int size) {
  return v < 0 ? 0 : (v >= size ? size - 1 : v);
}

// Window term of one sample pair; ZNCC's rolled sum is the cross term a * b.
template <Metric M>
__device__ __forceinline__ uint32_t pair_term(uint32_t a, uint32_t b) {
  if constexpr (M == Metric::kSad) {
    return a > b ? a - b : b - a;
  } else if constexpr (M == Metric::kSsd) {
    const uint32_t diff = a > b ? a - b : b - a;
    return diff * diff;
  } else {
    return a * b;
  }
}

// cost = float(1 - clamp(num / sqrt(va * vb), -1, 1)), as in the CPU reference. Division and
// square root in double are IEEE correctly rounded on the device, and nothing here can contract
// into an FMA, so the result equals the CPU's.
__device__ __forceinline__ float zncc_cost(int64_t n, int64_t sa, int64_t saa, int64_t sb,
                                           int64_t sbb, int64_t sab) {
  const int64_t va = n * saa - sa * sa;
  const int64_t vb = n * sbb - sb * sb;
  double ncc = 0.0;
  if (va != 0 && vb != 0) {
    const int64_t num = n * sab - sa * sb;
    ncc = static_cast<double>(num) /
          sqrt(__dmul_rn(static_cast<double>(va), static_cast<double>(vb)));
    ncc = fmin(1.0, fmax(-1.0, ncc));
  }
  return static_cast<float>(__dsub_rn(1.0, ncc));
}

// Shared-memory layout of one uniform-range block.
struct TileLayout {
  int rows;          // kBandRows + 2r staged image rows
  int left_width;    // kTileWidth + 2r
  int right_width;   // kTileWidth + 2r + chunk - 1
  int stat_right;    // right pixels whose window statistics ZNCC needs: kTileWidth + chunk - 1
};

__host__ __device__ inline TileLayout tile_layout(int radius, int chunk) {
  return {kBandRows + 2 * radius, kTileWidth + 2 * radius, kTileWidth + 2 * radius + chunk - 1,
          kTileWidth + chunk - 1};
}

// Bytes of dynamic shared memory of one uniform-range block.
size_t tile_shared_bytes(int radius, int chunk, bool zncc) {
  const TileLayout t = tile_layout(radius, chunk);
  size_t bytes = static_cast<size_t>(t.rows) * (t.left_width + t.right_width);
  bytes = (bytes + 15) / 16 * 16;
  if (zncc) {
    // Column sums of v and v*v for the left and right columns, then window sums of both for the
    // tile's left pixels and the chunk's right pixels.
    bytes += sizeof(uint32_t) * 2 * (t.left_width + t.right_width);
    bytes += sizeof(uint32_t) * 2 * (kTileWidth + t.stat_right);
  }
  return bytes;
}

// Rolls per-column sums of v and v*v over `count` staged columns down to image row `row`
// (tile row index of the window centre); `first` starts them from scratch.
template <int R>
__device__ void roll_column_stats(const uint8_t* image, int stride, int count, int row, bool first,
                                  uint32_t* sum, uint32_t* sum_sq) {
  for (int c = threadIdx.x; c < count; c += blockDim.x) {
    if (first) {
      uint32_t s = 0, sq = 0;
#pragma unroll
      for (int j = -R; j <= R; ++j) {
        const uint32_t v = image[(row + j) * stride + c];
        s += v;
        sq += v * v;
      }
      sum[c] = s;
      sum_sq[c] = sq;
    } else {
      const uint32_t in = image[(row + R) * stride + c];
      const uint32_t out = image[(row - R - 1) * stride + c];
      sum[c] += in - out;
      sum_sq[c] += in * in - out * out;
    }
  }
}

// Window sums (2R+1 columns starting at column p) of the rolled column statistics.
template <int R>
__device__ void window_stats(const uint32_t* sum, const uint32_t* sum_sq, int count,
                             uint32_t* out_sum, uint32_t* out_sq) {
  for (int p = threadIdx.x; p < count; p += blockDim.x) {
    uint32_t s = 0, sq = 0;
#pragma unroll
    for (int i = 0; i <= 2 * R; ++i) {
      s += sum[p + i];
      sq += sum_sq[p + i];
    }
    out_sum[p] = s;
    out_sq[p] = sq;
  }
}

// Uniform-range costs of one tile x band x disparity chunk; memory (write) bound at full size,
// shared-memory-load bound for small counts.
template <int R, Metric M, typename Out>
__global__ void __launch_bounds__(kMaxChunk)
    uniform_cost_kernel(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                        int width, int height, int min_disparity, int count, int stride,
                        Out* __restrict__ costs) {
  constexpr int kColumns = kTileWidth + 2 * R;
  extern __shared__ __align__(16) unsigned char shared[];
  const int chunk = blockDim.x;
  const TileLayout t = tile_layout(R, chunk);
  uint8_t* left_tile = shared;
  uint8_t* right_tile = shared + t.rows * t.left_width;

  const int x0 = blockIdx.x * kTileWidth;
  const int y0 = blockIdx.y * kBandRows;
  const int k0 = blockIdx.z * chunk;
  const int d0 = min_disparity + k0;
  // Staged right column q holds image column right_begin + q; for this thread's disparity,
  // left tile column c pairs with right column c + (chunk - 1 - local k).
  const int right_begin = x0 - R - d0 - (chunk - 1);
  const int tile_rows = min(kBandRows, height - y0) + 2 * R;

  for (int i = threadIdx.x; i < tile_rows * t.left_width; i += chunk) {
    const int r = i / t.left_width, c = i % t.left_width;
    left_tile[i] = left[clamp_index(y0 - R + r, height) * width + clamp_index(x0 - R + c, width)];
  }
  for (int i = threadIdx.x; i < tile_rows * t.right_width; i += chunk) {
    const int r = i / t.right_width, c = i % t.right_width;
    right_tile[i] =
        right[clamp_index(y0 - R + r, height) * width + clamp_index(right_begin + c, width)];
  }

  // ZNCC's window statistics live after the staged images.
  uint32_t* col_a = nullptr;
  uint32_t* col_aa = nullptr;
  uint32_t* col_b = nullptr;
  uint32_t* col_bb = nullptr;
  uint32_t* win_a = nullptr;
  uint32_t* win_aa = nullptr;
  uint32_t* win_b = nullptr;
  uint32_t* win_bb = nullptr;
  if constexpr (M == Metric::kZncc) {
    const size_t image_bytes =
        (static_cast<size_t>(t.rows) * (t.left_width + t.right_width) + 15) / 16 * 16;
    col_a = reinterpret_cast<uint32_t*>(shared + image_bytes);
    col_aa = col_a + t.left_width;
    col_b = col_aa + t.left_width;
    col_bb = col_b + t.right_width;
    win_a = col_bb + t.right_width;
    win_aa = win_a + kTileWidth;
    win_b = win_aa + kTileWidth;
    win_bb = win_b + t.stat_right;
  }
  __syncthreads();

  const int local_k = threadIdx.x;
  const int k = k0 + local_k;
  const int d = d0 + local_k;
  const int shift = chunk - 1 - local_k;  // right tile column = left tile column + shift

  uint32_t column[kColumns];
  const int rows = min(kBandRows, height - y0);
  for (int yy = 0; yy < rows; ++yy) {
    const int row = yy + R;  // tile row of the window centre
    const uint8_t* l_in = left_tile + (row + R) * t.left_width;
    const uint8_t* r_in = right_tile + (row + R) * t.right_width + shift;
    if (yy == 0) {
#pragma unroll
      for (int c = 0; c < kColumns; ++c) column[c] = 0;
#pragma unroll 1
      for (int j = 0; j <= 2 * R; ++j) {
        const uint8_t* l = left_tile + j * t.left_width;
        const uint8_t* r = right_tile + j * t.right_width + shift;
#pragma unroll
        for (int c = 0; c < kColumns; ++c) column[c] += pair_term<M>(l[c], r[c]);
      }
    } else {
      const uint8_t* l_out = left_tile + (row - R - 1) * t.left_width;
      const uint8_t* r_out = right_tile + (row - R - 1) * t.right_width + shift;
      // Unsigned wrap-around is harmless: the true column sum is never negative.
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        column[c] += pair_term<M>(l_in[c], r_in[c]) - pair_term<M>(l_out[c], r_out[c]);
      }
    }

    if constexpr (M == Metric::kZncc) {
      roll_column_stats<R>(left_tile, t.left_width, t.left_width, row, yy == 0, col_a, col_aa);
      roll_column_stats<R>(right_tile, t.right_width, t.right_width, row, yy == 0, col_b, col_bb);
      __syncthreads();
      // Left pixel x0 + p: columns p..p+2R. Right pixel right_begin + R + q: columns q..q+2R.
      window_stats<R>(col_a, col_aa, kTileWidth, win_a, win_aa);
      window_stats<R>(col_b, col_bb, t.stat_right, win_b, win_bb);
      __syncthreads();
    }

    const int y = y0 + yy;
    uint32_t sum = 0;
#pragma unroll
    for (int c = 0; c <= 2 * R; ++c) sum += column[c];
#pragma unroll
    for (int p = 0; p < kTileWidth; ++p) {
      if (p > 0) sum += column[p + 2 * R] - column[p - 1];
      const int x = x0 + p;
      if (x < width && k < count) {
        const int xr = x - d;
        const bool inside = xr >= 0 && xr < width;
        Out value;
        if constexpr (M == Metric::kZncc) {
          // Right pixel xr is staged statistic p + shift.
          constexpr int64_t n = static_cast<int64_t>(2 * R + 1) * (2 * R + 1);
          value = inside ? zncc_cost(n, win_a[p], win_aa[p], win_b[p + shift],
                                     win_bb[p + shift], sum)
                         : kZnccOutsideCost;
        } else {
          // 16-bit volumes (SAD up to 15x15) store the outside cost as 0xFFFF, their maximum.
          value = inside ? static_cast<Out>(sum) : static_cast<Out>(kBlockMatchingOutsideCost);
        }
        costs[(static_cast<size_t>(y) * width + x) * stride + k] = value;
      }
    }
    if constexpr (M == Metric::kZncc) __syncthreads();  // statistics are rewritten next row
  }
}

// Per-pixel-range costs by direct window summation, one thread per candidate (k fastest, so
// writes coalesce); latency bound, meant for the refinement levels' few candidates.
template <int R, Metric M, typename Out>
__global__ void __launch_bounds__(kDirectThreads)
    per_pixel_cost_kernel(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right,
                          int width, int height, const int16_t* __restrict__ base, int count,
                          Out* __restrict__ costs) {
  const size_t total = static_cast<size_t>(width) * height * count;
  const size_t index = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  const int k = static_cast<int>(index % count);
  const size_t pixel = index / count;
  const int x = static_cast<int>(pixel % width);
  const int y = static_cast<int>(pixel / width);
  const int d = base[pixel] + k;
  const int xr = x - d;
  if (xr < 0 || xr >= width) {
    if constexpr (M == Metric::kZncc) {
      costs[index] = kZnccOutsideCost;
    } else {
      costs[index] = static_cast<Out>(kBlockMatchingOutsideCost);
    }
    return;
  }
  uint32_t sum = 0, sa = 0, saa = 0, sb = 0, sbb = 0;
  for (int j = -R; j <= R; ++j) {
    const uint8_t* l = left + clamp_index(y + j, height) * width;
    const uint8_t* r = right + clamp_index(y + j, height) * width;
#pragma unroll
    for (int i = -R; i <= R; ++i) {
      const uint32_t a = __ldg(l + clamp_index(x + i, width));
      const uint32_t b = __ldg(r + clamp_index(x + i - d, width));
      sum += pair_term<M>(a, b);
      if constexpr (M == Metric::kZncc) {
        sa += a;
        saa += a * a;
        sb += b;
        sbb += b * b;
      }
    }
  }
  if constexpr (M == Metric::kZncc) {
    costs[index] = zncc_cost(static_cast<int64_t>(2 * R + 1) * (2 * R + 1), sa, saa, sb, sbb, sum);
  } else {
    costs[index] = static_cast<Out>(sum);
  }
}

template <int R, Metric M, typename Out>
void launch_costs(const uint8_t* left, const uint8_t* right, int width, int height,
                  DeviceSearchRange range, int stride, Out* costs, cudaStream_t stream) {
  if (range.per_pixel_base) {
    const size_t total = static_cast<size_t>(width) * height * range.count;
    const unsigned blocks = static_cast<unsigned>((total + kDirectThreads - 1) / kDirectThreads);
    per_pixel_cost_kernel<R, M, Out><<<blocks, kDirectThreads, 0, stream>>>(
        left, right, width, height, range.per_pixel_base, range.count, costs);
    SV_CUDA_CHECK_LAUNCH();
    return;
  }
  // Threads per block: the whole range when it is small (whole warps), else chunks of 128.
  const int chunk = range.count >= kMaxChunk ? kMaxChunk : (range.count + 31) / 32 * 32;
  const dim3 grid((width + kTileWidth - 1) / kTileWidth, (height + kBandRows - 1) / kBandRows,
                  (range.count + chunk - 1) / chunk);
  const size_t shared = tile_shared_bytes(R, chunk, M == Metric::kZncc);
  auto kernel = uniform_cost_kernel<R, M, Out>;
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(kernel, shared);
  kernel<<<grid, chunk, shared, stream>>>(left, right, width, height, range.uniform_base,
                                          range.count, stride, costs);
  SV_CUDA_CHECK_LAUNCH();
}

// The single run-time -> compile-time dispatch: window 3..21 (odd) to radius 1..10.
template <Metric M, typename Out>
void dispatch_costs(const char* what, const uint8_t* left, const uint8_t* right, int width,
                    int height, int window, DeviceSearchRange range, int stride, Out* costs,
                    cudaStream_t stream) {
  if (window < 3 || window > 21 || window % 2 == 0) {
    throw InputError(std::string(what) + ": window must be odd and in 3..21, got " +
                     std::to_string(window));
  }
  if (range.count < 0) {
    throw InputError(std::string(what) + ": negative disparity count " +
                     std::to_string(range.count));
  }
  if (width <= 0 || height <= 0 || range.count == 0) return;
  switch (window / 2) {
    case 1: return launch_costs<1, M>(left, right, width, height, range, stride, costs, stream);
    case 2: return launch_costs<2, M>(left, right, width, height, range, stride, costs, stream);
    case 3: return launch_costs<3, M>(left, right, width, height, range, stride, costs, stream);
    case 4: return launch_costs<4, M>(left, right, width, height, range, stride, costs, stream);
    case 5: return launch_costs<5, M>(left, right, width, height, range, stride, costs, stream);
    case 6: return launch_costs<6, M>(left, right, width, height, range, stride, costs, stream);
    case 7: return launch_costs<7, M>(left, right, width, height, range, stride, costs, stream);
    case 8: return launch_costs<8, M>(left, right, width, height, range, stride, costs, stream);
    case 9: return launch_costs<9, M>(left, right, width, height, range, stride, costs, stream);
    default: return launch_costs<10, M>(left, right, width, height, range, stride, costs, stream);
  }
}

}  // namespace

void sad_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                     DeviceSearchRange range, uint32_t* costs, cudaStream_t stream) {
  dispatch_costs<Metric::kSad>("SAD cost", left, right, width, height, window, range, range.count, costs,
                               stream);
}

void ssd_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                     DeviceSearchRange range, uint32_t* costs, cudaStream_t stream) {
  dispatch_costs<Metric::kSsd>("SSD cost", left, right, width, height, window, range, range.count, costs,
                               stream);
}

void zncc_cost_volume(const uint8_t* left, const uint8_t* right, int width, int height, int window,
                      DeviceSearchRange range, float* costs, cudaStream_t stream) {
  dispatch_costs<Metric::kZncc>("ZNCC cost", left, right, width, height, window, range, range.count, costs,
                                stream);
}

void sad_cost_volume16(const uint8_t* left, const uint8_t* right, int width, int height,
                       int window, int base, int count, int stride, uint16_t* costs,
                       cudaStream_t stream) {
  if (!sad_cost_volume16_supported(window)) {
    throw InputError("16-bit SAD volumes need a window of at most 15x15, got " + std::to_string(window));
  }
  if (stride < count) throw InputError("SAD cost: the candidate stride must hold every candidate");
  dispatch_costs<Metric::kSad>("SAD cost", left, right, width, height, window,
                               DeviceSearchRange{base, nullptr, count}, stride, costs, stream);
}

bool sad_cost_volume16_supported(int window) { return window >= 3 && window <= 15 && window % 2 == 1; }

}  // namespace sv::cuda
