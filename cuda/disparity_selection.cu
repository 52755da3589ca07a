// Disparity selection in one pass over the costs: winner-takes-all (uniqueness, subpixel), the
// right view by backward matching and the left-right check, fused, for a uniform search range.
// Reproduces winner_takes_all.cpp (winner_takes_all, right_view_disparity) and lr_check.cpp bit
// for bit; the separate kernels of winner_takes_all.cu / post_filters.cu remain for per-pixel
// ranges and 32-bit or float costs.
//
// Why fused: the separate stages read the whole cost volume twice (WTA, right view) and write
// two disparity images between them. Here one block owns one row: its warps take the row's
// pixels, each lane holds kCells consecutive candidates; every candidate offers its key
// (cost << 8 | k) to right pixel x - d through a shared-memory atomicMin (smallest cost, ties to
// the smaller d, as the reference), and once the row is done the block runs the LR check from
// shared memory. Costs come from an 8-bit SGM path volume per direction (summed here) or from a
// 16-bit cost volume (block matching SAD), both padded to 32 * kCells candidates a pixel.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/warp_min.cuh"
#include "cuda/stages.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr int kThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr uint32_t kNoOffer = 0xffffffffu;

// Sum of the per-direction 8-bit path costs: S(p, k) = sum_r L_r(p, k), exact (<= 8 * 255).
template <int kCells, int kDirections>
struct PathCostSum {
  static constexpr bool kHasNoCostValue = false;
  static constexpr uint32_t kNoCost = 0;
  const uint8_t* volumes;
  size_t volume_size;  // bytes per direction

  __device__ __forceinline__ void load(size_t pixel, int lane, uint32_t (&s)[kCells]) const {
    constexpr int kWords = (kCells + 3) / 4;
    uint32_t even[kWords] = {}, odd[kWords] = {};  // two 16-bit sums a word: cells 0/2, 1/3
    const uint8_t* p = volumes + pixel * (kWarpSize * kCells) + lane * kCells;
#pragma unroll
    for (int r = 0; r < kDirections; ++r, p += volume_size) {
      uint32_t w[kWords];
      if constexpr (kCells == 2) {
        w[0] = __ldg(reinterpret_cast<const uint16_t*>(p));
      } else if constexpr (kCells == 4) {
        w[0] = __ldg(reinterpret_cast<const uint32_t*>(p));
      } else {
        const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
        w[0] = v.x;
        w[1] = v.y;
      }
#pragma unroll
      for (int i = 0; i < kWords; ++i) {
        even[i] += w[i] & 0x00FF00FFu;
        odd[i] += (w[i] >> 8) & 0x00FF00FFu;
      }
    }
#pragma unroll
    for (int c = 0; c < kCells; ++c) {
      const uint32_t word = (c % 2 == 0 ? even : odd)[c / 4];
      s[c] = (c % 4) < 2 ? (word & 0xFFFFu) : (word >> 16);
    }
  }
};

// A 16-bit cost volume whose maximum value means "no match computed".
template <int kCells>
struct Cost16Volume {
  static constexpr bool kHasNoCostValue = true;
  static constexpr uint32_t kNoCost = 0xFFFFu;
  const uint16_t* volume;

  __device__ __forceinline__ void load(size_t pixel, int lane, uint32_t (&s)[kCells]) const {
    const uint16_t* p = volume + pixel * (kWarpSize * kCells) + lane * kCells;
    uint32_t w[kCells / 2];
    if constexpr (kCells == 2) {
      w[0] = __ldg(reinterpret_cast<const uint32_t*>(p));
    } else if constexpr (kCells == 4) {
      const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
      w[0] = v.x;
      w[1] = v.y;
    } else {
      const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
      w[0] = v.x;
      w[1] = v.y;
      w[2] = v.z;
      w[3] = v.w;
    }
#pragma unroll
    for (int c = 0; c < kCells; ++c) s[c] = c % 2 == 0 ? (w[c / 2] & 0xFFFFu) : (w[c / 2] >> 16);
  }
};

struct SelectArgs {
  int width;
  int height;
  int base;
  int count;
  int uniqueness;
  bool subpixel;
  double max_cost;
  bool lr_check;
  int lr_max_diff;
  int16_t* disparity_fixed;
};

__device__ __forceinline__ int subpixel_offset(int c0, int cm, int cp) {
  const int denom = cm + cp - 2 * c0;
  if (denom <= 0) return 0;
  const int n = 8 * (cm - cp);
  const int magnitude = (2 * (n < 0 ? -n : n) + denom) / (2 * denom);
  return n < 0 ? -magnitude : magnitude;
}

template <int kCells>
__device__ __forceinline__ uint32_t pick(const uint32_t (&s)[kCells], int c) {
  uint32_t v = 0;
#pragma unroll
  for (int i = 0; i < kCells; ++i) v = (i == c) ? s[i] : v;
  return v;
}

// floor(value / 16) for either sign, as lr_check.cpp.
__device__ __forceinline__ int floor_div16(int value) {
  return value >= 0 ? value / kDisparityScale : -((-value + kDisparityScale - 1) / kDisparityScale);
}

template <int kCells, class Costs>
__global__ void __launch_bounds__(kThreads) select_row_kernel(Costs costs, SelectArgs a) {
  extern __shared__ uint32_t shared[];
  uint32_t* right_best = shared;                                        // [width]
  int16_t* left = reinterpret_cast<int16_t*>(shared + a.width);         // [width]
  const int y = blockIdx.x;
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  constexpr int kWarps = kThreads / kWarpSize;
  for (int x = threadIdx.x; x < a.width; x += kThreads) right_best[x] = kNoOffer;
  __syncthreads();

  for (int x = warp; x < a.width; x += kWarps) {
    const size_t pixel = static_cast<size_t>(y) * a.width + x;
    uint32_t s[kCells];
    costs.load(pixel, lane, s);
    uint32_t key[kCells];
    uint32_t lane_best = kNoOffer;
#pragma unroll
    for (int c = 0; c < kCells; ++c) {
      const int k = lane * kCells + c;
      key[c] = k < a.count ? (s[c] << 8) | static_cast<uint32_t>(k) : kNoOffer;
      lane_best = min(lane_best, key[c]);
      if (a.lr_check && k < a.count) {
        const int xr = x - (a.base + k);
        if (xr >= 0 && xr < a.width) atomicMin(&right_best[xr], key[c]);
      }
    }
    const uint32_t best_key = warp_min(lane_best);
    const int kb = static_cast<int>(best_key & 0xFFu);
    const uint32_t best = best_key >> 8;

    bool valid = !(Costs::kHasNoCostValue && best == Costs::kNoCost) &&
                 !(static_cast<double>(best) > a.max_cost);
    if (a.uniqueness > 0) {
      uint32_t lane_other = kNoOffer;
#pragma unroll
      for (int c = 0; c < kCells; ++c) {
        const int k = lane * kCells + c;
        if (abs(k - kb) > 1) lane_other = min(lane_other, key[c]);
      }
      const uint32_t other = warp_min(lane_other);
      if (other != kNoOffer &&
          static_cast<uint64_t>(other >> 8) * (100 - a.uniqueness) < static_cast<uint64_t>(best) * 100) {
        valid = false;
      }
    }
    int offset = 0;
    if (a.subpixel) {
      // Every lane joins both shuffles; the owners of kb - 1 and kb + 1 supply the costs.
      const int km = max(kb - 1, 0), kp = min(kb + 1, a.count - 1);
      const uint32_t cm = __shfl_sync(kFullMask, pick(s, km % kCells), km / kCells);
      const uint32_t cp = __shfl_sync(kFullMask, pick(s, kp % kCells), kp / kCells);
      const bool real = !(Costs::kHasNoCostValue && (cm == Costs::kNoCost || cp == Costs::kNoCost));
      if (kb > 0 && kb < a.count - 1 && real) {
        offset = subpixel_offset(static_cast<int>(best), static_cast<int>(cm), static_cast<int>(cp));
        offset = max(-kDisparityScale / 2, min(kDisparityScale / 2, offset));
      }
    }
    if (lane == 0) {
      left[x] = valid ? static_cast<int16_t>((a.base + kb) * kDisparityScale + offset)
                      : kInvalidFixedDisparity;
    }
  }
  __syncthreads();

  int16_t* out = a.disparity_fixed + static_cast<size_t>(y) * a.width;
  const int tolerance = a.lr_max_diff * kDisparityScale;
  for (int x = threadIdx.x; x < a.width; x += kThreads) {
    int16_t d = left[x];
    if (a.lr_check && d != kInvalidFixedDisparity) {
      const int xr = x - floor_div16(d + kDisparityScale / 2);
      bool consistent = xr >= 0 && xr < a.width && right_best[xr] != kNoOffer;
      if (consistent) {
        const int right_fixed = (a.base + static_cast<int>(right_best[xr] & 0xFFu)) * kDisparityScale;
        consistent = abs(static_cast<int>(d) - right_fixed) <= tolerance;
      }
      if (!consistent) d = kInvalidFixedDisparity;
    }
    out[x] = d;
  }
}

size_t shared_bytes(int width) { return static_cast<size_t>(width) * (sizeof(uint32_t) + sizeof(int16_t)); }

template <int kCells, class Costs>
void launch(const Costs& costs, const SelectArgs& args, cudaStream_t stream) {
  const size_t bytes = shared_bytes(args.width);
  auto kernel = select_row_kernel<kCells, Costs>;
  if (bytes > 48 * 1024) {
    SV_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  }
  kernel<<<args.height, kThreads, bytes, stream>>>(costs, args);
  SV_CUDA_CHECK_LAUNCH();
}

SelectArgs make_args(int width, int height, int base, int count, const WtaSettings& wta,
                     bool lr_check, int lr_max_diff, int16_t* disparity_fixed) {
  if (wta.uniqueness < 0 || wta.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " + std::to_string(wta.uniqueness) + ".");
  }
  if (lr_max_diff < 0) {
    throw InputError("LR check: max_diff must not be negative, got " + std::to_string(lr_max_diff) + ".");
  }
  if (count < 1 || count > 256) {
    throw InputError("fused disparity selection supports 1..256 disparities, got " +
                     std::to_string(count) + ".");
  }
  if (!fused_selection_supported(width)) {
    throw InputError("fused disparity selection supports rows up to 30000 pixels, got " +
                     std::to_string(width) + ".");
  }
  return SelectArgs{width, height, base, count, wta.uniqueness, wta.subpixel, wta.max_cost,
                    lr_check, lr_max_diff, disparity_fixed};
}

}  // namespace

bool fused_selection_supported(int width) { return width >= 1 && shared_bytes(width) <= 180 * 1024; }

void select_disparity_from_path_costs(const uint8_t* path_costs, int directions, int width,
                                      int height, int base, int count, const WtaSettings& wta,
                                      bool lr_check, int lr_max_diff, int16_t* disparity_fixed,
                                      cudaStream_t stream) {
  const SelectArgs args = make_args(width, height, base, count, wta, lr_check, lr_max_diff, disparity_fixed);
  if (height <= 0) return;
  const int cells = sgm_path_cells_per_lane(count);
  const size_t volume = static_cast<size_t>(width) * height * kWarpSize * cells;
  if (directions != 4 && directions != 8) {
    throw InputError("SGM paths must be 4 or 8, got " + std::to_string(directions) + ".");
  }
  if (directions == 4) {
    if (cells == 2) return launch<2>(PathCostSum<2, 4>{path_costs, volume}, args, stream);
    if (cells == 4) return launch<4>(PathCostSum<4, 4>{path_costs, volume}, args, stream);
    return launch<8>(PathCostSum<8, 4>{path_costs, volume}, args, stream);
  }
  if (cells == 2) return launch<2>(PathCostSum<2, 8>{path_costs, volume}, args, stream);
  if (cells == 4) return launch<4>(PathCostSum<4, 8>{path_costs, volume}, args, stream);
  return launch<8>(PathCostSum<8, 8>{path_costs, volume}, args, stream);
}

void select_disparity_from_costs16(const uint16_t* costs, int width, int height, int base,
                                   int count, const WtaSettings& wta, bool lr_check,
                                   int lr_max_diff, int16_t* disparity_fixed, cudaStream_t stream) {
  const SelectArgs args = make_args(width, height, base, count, wta, lr_check, lr_max_diff, disparity_fixed);
  if (height <= 0) return;
  const int cells = sgm_path_cells_per_lane(count);
  if (cells == 2) return launch<2>(Cost16Volume<2>{costs}, args, stream);
  if (cells == 4) return launch<4>(Cost16Volume<4>{costs}, args, stream);
  return launch<8>(Cost16Volume<8>{costs}, args, stream);
}

}  // namespace sv::cuda
