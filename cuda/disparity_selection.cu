// Disparity selection in one pass over the costs: winner-takes-all (uniqueness, subpixel), the
// right view by backward matching and the left-right check, fused, for a uniform search range.
// Reproduces winner_takes_all.cpp (winner_takes_all, right_view_disparity) and lr_check.cpp bit
// for bit; the separate kernels of winner_takes_all.cu / post_filters.cu remain for per-pixel
// ranges and 32-bit or float costs.
//
// Why fused: the separate stages read the whole cost volume twice (WTA, right view) and write
// two disparity images between them. Here a block owns a segment of kSegment pixels of one row
// (many blocks even for a band of a few rows); its warps take the pixels, each lane holding
// kCells consecutive candidates. Every candidate offers its key (cost << 8 | k) to right pixel
// x - d through a shared-memory atomicMin (smallest cost, ties to the smaller d, as the
// reference); the segment's best offers then go to a per-pixel key image in device memory with
// one global atomicMin each, and a last per-pixel pass runs the LR check from that image. Costs
// come from an 8-bit SGM path volume per direction (summed here) or a 16-bit cost volume (block
// matching SAD), both padded to 32 * kCells candidates a pixel. When the confidence is asked
// for, the same pass writes each pixel's best and runner-up cost (the uniqueness test's
// competitor), so the summed volume never has to exist; the kernel without them is a separate
// instantiation, the same code as before.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/selection_keys.cuh"
#include "cuda/warp_min.cuh"
#include "cuda/stages.h"
#include "cuda/tuning.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr int kThreads = 256;
constexpr int kSegment = 64;       // pixels of a row per block
constexpr int kMaxOfferSpan = kSegment + 255;  // right pixels a segment can offer to
constexpr unsigned kFullMask = 0xffffffffu;
// Offers slots before the span: the padding candidates' offers land there, unread (no branch).
constexpr int kOfferLead = 256;

// Sum of the per-direction 8-bit path costs: S(p, k) = sum_r L_r(p, k), exact (<= 8 * 255);
// direction r's volume follows direction r - 1's. kBytePairs: every L_r <= 127 (P2 <= 63), so
// two volumes add byte-wise in one 32-bit add without a carry between bytes, halving the
// unpacking work (the pass was bound by its integer (ALU) pipe; docs/performance.md, ledger:
// byte-pair-sums).
template <int kCells, int kDirections, bool kBytePairs>
struct PathCostSum {
  static constexpr bool kHasNoCostValue = false;
  static constexpr uint32_t kNoCost = 0;
  const uint8_t* volumes;
  size_t volume_size;  // bytes per direction
  int width;

  static constexpr int kWords = (kCells + 3) / 4;
  // The next pixel's cells loaded while this one is decided: with 8 directions, or 64 candidates
  // (few registers a pixel either way; measured below and in cuda/tuning.h).
  static constexpr bool kLoadAhead =
      kDirections == kLoadAheadDirections || kCells == kLoadAheadCells;
  struct Raw {
    uint32_t w[kDirections][kWords];
  };

  // Pixel x's cost bytes of every direction, as loaded.
  __device__ __forceinline__ Raw fetch(int x, int y, int lane) const {
    Raw raw;
    const uint8_t* p = volumes + (static_cast<size_t>(y) * width + x) * (kWarpSize * kCells) + lane * kCells;
#pragma unroll
    for (int r = 0; r < kDirections; ++r, p += volume_size) {
      if constexpr (kCells == 2) {
        raw.w[r][0] = __ldg(reinterpret_cast<const uint16_t*>(p));
      } else if constexpr (kCells == 4) {
        raw.w[r][0] = __ldg(reinterpret_cast<const uint32_t*>(p));
      } else {
        const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
        raw.w[r][0] = v.x;
        raw.w[r][1] = v.y;
      }
    }
    return raw;
  }

  // The candidates' keys (cost << 8 | key_low) and their costs as 16-bit pairs (cells 2i, 2i + 1).
  __device__ __forceinline__ void decode(const Raw& raw, const uint32_t (&key_low)[kCells],
                                         uint32_t (&key)[kCells], uint32_t (&pairs)[kCells / 2]) const {
    const auto& w = raw.w;
    uint32_t even[kWords] = {}, odd[kWords] = {};  // two 16-bit sums a word: cells 0/2, 1/3
    constexpr int kStep = kBytePairs ? 2 : 1;
#pragma unroll
    for (int r = 0; r < kDirections; r += kStep) {
#pragma unroll
      for (int i = 0; i < kWords; ++i) {
        const uint32_t bytes = kBytePairs ? w[r][i] + w[r + kStep - 1][i] : w[r][i];
        even[i] += bytes & 0x00FF00FFu;
        odd[i] += __byte_perm(bytes, 0, 0x4341);  // bytes 1 and 3 as 16-bit values
      }
    }
#pragma unroll
    for (int c = 0; c < kCells; ++c) key[c] = make_key((c % 2 == 0 ? even : odd)[c / 4], (c % 4) >= 2, key_low[c]);
#pragma unroll
    for (int i = 0; i < kCells / 2; ++i) {
      pairs[i] = __byte_perm(even[i / 2], odd[i / 2], i % 2 == 0 ? 0x5410 : 0x7632);
    }
  }
};

// A 16-bit cost volume whose maximum value means "no match computed".
template <int kCells>
struct Cost16Volume {
  static constexpr bool kHasNoCostValue = true;
  static constexpr uint32_t kNoCost = 0xFFFFu;
  const uint16_t* volume;
  int width;

  static constexpr bool kLoadAhead = kCost16LoadAhead;  // no gain (cuda/tuning.h)
  struct Raw {
    uint32_t pairs[kCells / 2];
  };

  __device__ __forceinline__ Raw fetch(int x, int y, int lane) const {
    Raw raw;
    const uint16_t* p = volume + (static_cast<size_t>(y) * width + x) * (kWarpSize * kCells) + lane * kCells;
    if constexpr (kCells == 2) {
      raw.pairs[0] = __ldg(reinterpret_cast<const uint32_t*>(p));
    } else if constexpr (kCells == 4) {
      const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
      raw.pairs[0] = v.x;
      raw.pairs[1] = v.y;
    } else {
      const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
      raw.pairs[0] = v.x;
      raw.pairs[1] = v.y;
      raw.pairs[2] = v.z;
      raw.pairs[3] = v.w;
    }
    return raw;
  }

  __device__ __forceinline__ void decode(const Raw& raw, const uint32_t (&key_low)[kCells],
                                         uint32_t (&key)[kCells], uint32_t (&pairs)[kCells / 2]) const {
#pragma unroll
    for (int i = 0; i < kCells / 2; ++i) pairs[i] = raw.pairs[i];
#pragma unroll
    for (int c = 0; c < kCells; ++c) key[c] = make_key(pairs[c / 2], c % 2 == 1, key_low[c]);
  }
};

struct SelectArgs {
  int width;
  int base;
  int count;
  int uniqueness;
  bool subpixel;
  int cost_limit;             // a best cost above it is invalid (WtaSettings::max_cost)
  uint32_t* right_view_keys;  // null: no right view
  int16_t* disparity_fixed;
  float2* peaks;  // null: no cost peaks (confidence.cpp's best and runner-up, +inf = none)
};

// The 16-bit cost of candidate k (the same k in every lane) from the lanes' cost pairs: every
// lane picks the word and half of cell k % kCells, one shuffle brings the owner lane's.
template <int kCells>
__device__ __forceinline__ int candidate_cost(const uint32_t (&pairs)[kCells / 2], unsigned k) {
  const unsigned c = k % kCells;
  uint32_t word = pairs[0];
  if constexpr (kCells == 4) word = (c & 2u) ? pairs[1] : pairs[0];
  if constexpr (kCells == 8) {
    const uint32_t low = (c & 2u) ? pairs[1] : pairs[0], high = (c & 2u) ? pairs[3] : pairs[2];
    word = (c & 4u) ? high : low;
  }
  const uint32_t half = (c & 1u) ? word >> 16 : word & 0xFFFFu;
  return static_cast<int>(__shfl_sync(kFullMask, half, static_cast<int>(k / kCells)));
}

// floor(value / 16) for either sign, as lr_check.cpp.
__device__ __forceinline__ int floor_div16(int value) {
  return value >= 0 ? value / kDisparityScale : -((-value + kDisparityScale - 1) / kDisparityScale);
}

// kPeaks: also write the cost peaks; a template flag, so the kernel without them is unchanged.
template <int kCells, bool kPeaks, class Costs>
__global__ void __launch_bounds__(kThreads) select_segment_kernel(Costs costs, SelectArgs a) {
  // Right pixels first_xr .. first_xr + span - 1 at kOfferLead + (xr - first_xr).
  __shared__ uint32_t offers[kOfferLead + kMaxOfferSpan];
  const int y = blockIdx.y;
  const int x0 = blockIdx.x * kSegment;
  const int x1 = min(a.width, x0 + kSegment);
  const int first_xr = x0 - a.base - (a.count - 1);
  const int span = x1 - x0 + a.count - 1;
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  constexpr int kWarps = kThreads / kWarpSize;
  const bool right_view = a.right_view_keys != nullptr;
  if (right_view) {
    for (int i = threadIdx.x; i < kOfferLead + span; i += kThreads) offers[i] = kNoOffer;
    __syncthreads();
  }
  uint32_t key_low[kCells];  // this lane's candidates as keys' low byte, every bit for padding
#pragma unroll
  for (int c = 0; c < kCells; ++c) {
    const int k = lane * kCells + c;
    key_low[c] = k < a.count ? static_cast<uint32_t>(k) : kNoOffer;
  }
  const int first_k = lane * kCells;

  // Each warp loads its next pixel's costs while it decides this one. On the H200
  // (docs/performance.md, ledger: selection-load-ahead) the pass over 8 path volumes went 0.542 ->
  // 0.521 ms at 1920x1080 D128 and 2.126 -> 2.044 at 3840x2160; over 4 it lost 2-3 % (0.415 ->
  // 0.426 ms at 1080p; 3 to 4 more registers, 7 blocks an SM instead of 8). Loading ahead only over
  // 8 volumes or 64 candidates (session twelve, same call, two rounds), 4 paths: 1920x1080 D128
  // 1.377 -> 1.365-1.368 ms a frame, 3840x2160 D128 5.21 -> 5.16; with 64 candidates the load ahead
  // still pays (1920x1080 1.023 ms with it, 1.030 without; 3840x2160 3.763, 3.786); 8 paths
  // unchanged.
  typename Costs::Raw next{};
  if (Costs::kLoadAhead && x0 + warp < x1) next = costs.fetch(x0 + warp, y, lane);
  for (int x = x0 + warp; x < x1; x += kWarps) {
    typename Costs::Raw raw;
    if constexpr (Costs::kLoadAhead) {
      raw = next;
      if (x + kWarps < x1) next = costs.fetch(x + kWarps, y, lane);
    } else {
      raw = costs.fetch(x, y, lane);
    }
    uint32_t key[kCells], pairs[kCells / 2];
    costs.decode(raw, key_low, key, pairs);
    uint32_t lane_best = key[0];
#pragma unroll
    for (int c = 1; c < kCells; ++c) lane_best = min(lane_best, key[c]);
    if (right_view) {
      // Candidate k offers right pixel x - base - k; padding offers land in the lead, unread.
      uint32_t* lane_offers = offers + kOfferLead + (x - a.base - first_xr - first_k);
#pragma unroll
      for (int c = 0; c < kCells; ++c) atomicMin(lane_offers - c, key[c]);
    }
    const uint32_t best_key = warp_min(lane_best);  // count >= 1: a real key
    const int kb = static_cast<int>(best_key & 0xFFu);
    const int best = static_cast<int>(best_key >> 8);

    bool valid = !(Costs::kHasNoCostValue && best == static_cast<int>(Costs::kNoCost)) && best <= a.cost_limit;
    // The runner-up outside the winner's valley serves the uniqueness test and the confidence.
    if (a.uniqueness > 0 || kPeaks) {
      const int valley = kb + 1 - first_k;  // cell c lies in the valley |k - kb| <= 1 when valley - c is 0..2
      uint32_t lane_other = kNoOffer;
#pragma unroll
      for (int c = 0; c < kCells; ++c) {
        if (static_cast<unsigned>(valley - c) > 2u) lane_other = min(lane_other, key[c]);
      }
      const uint32_t other = warp_min(lane_other);
      const bool real_other = other < kRealKeyLimit;
      // Products below 2^24 (costs <= 0xFFFF): 32 bits hold them exactly.
      if ((!kPeaks || a.uniqueness > 0) && real_other &&
          (other >> 8) * static_cast<uint32_t>(100 - a.uniqueness) < static_cast<uint32_t>(best) * 100u) {
        valid = false;
      }
      if (kPeaks && lane == 0) {
        const bool real_best = !(Costs::kHasNoCostValue && best == static_cast<int>(Costs::kNoCost));
        const bool real_runner_up = real_other && !(Costs::kHasNoCostValue && (other >> 8) == Costs::kNoCost);
        a.peaks[static_cast<size_t>(y) * a.width + x] =
            make_float2(real_best ? static_cast<float>(best) : INFINITY,
                        real_best && real_runner_up ? static_cast<float>(other >> 8) : INFINITY);
      }
    }
    int offset = 0;
    if (a.subpixel) {
      // Every lane joins both shuffles; the owners of kb - 1 and kb + 1 supply the costs.
      const int cm = candidate_cost<kCells>(pairs, static_cast<unsigned>(max(kb - 1, 0)));
      const int cp = candidate_cost<kCells>(pairs, static_cast<unsigned>(min(kb + 1, a.count - 1)));
      const bool real = !(Costs::kHasNoCostValue && (cm == static_cast<int>(Costs::kNoCost) ||
                                                     cp == static_cast<int>(Costs::kNoCost)));
      if (kb > 0 && kb < a.count - 1 && real) offset = subpixel_offset(best, cm, cp);
    }
    if (lane == 0) {
      a.disparity_fixed[static_cast<size_t>(y) * a.width + x] =
          valid ? static_cast<int16_t>((a.base + kb) * kDisparityScale + offset) : kInvalidFixedDisparity;
    }
  }
  if (!right_view) return;
  __syncthreads();
  uint32_t* row_keys = a.right_view_keys + static_cast<size_t>(y) * a.width;
  for (int i = threadIdx.x; i < span; i += kThreads) {
    const int xr = first_xr + i;
    const uint32_t offer = offers[kOfferLead + i];
    if (xr >= 0 && xr < a.width && offer < kRealKeyLimit) atomicMin(&row_keys[xr], offer);
  }
}

// lr_check.cpp's rule with the right view's disparity read from its key image. Blocks: (runs
// of kLrRun pixels of a row, rows); a thread checks kLrPerThread pixels of its run, their
// disparities loaded together, so that its two dependent loads (disparity, then key) overlap
// across pixels instead of being paid one pixel at a time.
constexpr int kLrPerThread = 4;
constexpr int kLrRun = kThreads * kLrPerThread;

__global__ void __launch_bounds__(kThreads) lr_check_keys_kernel(int16_t* __restrict__ disparity_fixed,
                                                                 const uint32_t* __restrict__ keys, int width,
                                                                 int base, int tolerance) {
  const size_t row = static_cast<size_t>(blockIdx.y) * width;
  const int first = blockIdx.x * kLrRun + threadIdx.x;
  int d[kLrPerThread];
#pragma unroll
  for (int i = 0; i < kLrPerThread; ++i) {
    const int x = first + i * kThreads;
    d[i] = x < width ? disparity_fixed[row + x] : kInvalidFixedDisparity;
  }
#pragma unroll
  for (int i = 0; i < kLrPerThread; ++i) {
    if (d[i] == kInvalidFixedDisparity) continue;  // also every x >= width
    const int x = first + i * kThreads;
    const int xr = x - floor_div16(d[i] + kDisparityScale / 2);
    bool consistent = xr >= 0 && xr < width;
    if (consistent) {
      const uint32_t key = keys[row + xr];
      consistent = key != kNoOffer &&
                   abs(d[i] - (base + static_cast<int>(key & 0xFFu)) * kDisparityScale) <= tolerance;
    }
    if (!consistent) disparity_fixed[row + x] = kInvalidFixedDisparity;
  }
}

template <int kCells, class Costs>
void launch(const Costs& costs, const SelectArgs& args, int rows, cudaStream_t stream) {
  const dim3 grid((args.width + kSegment - 1) / kSegment, rows);
  if (args.peaks != nullptr) {
    select_segment_kernel<kCells, true, Costs><<<grid, kThreads, 0, stream>>>(costs, args);
  } else {
    select_segment_kernel<kCells, false, Costs><<<grid, kThreads, 0, stream>>>(costs, args);
  }
  SV_CUDA_CHECK_LAUNCH();
}

SelectArgs make_args(int width, int base, int count, const WtaSettings& wta,
                     uint32_t* right_view_keys, int16_t* disparity_fixed, float2* peaks) {
  if (wta.uniqueness < 0 || wta.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " + std::to_string(wta.uniqueness) + ".");
  }
  if (count < 1 || count > 256) {
    throw InputError("fused disparity selection supports 1..256 disparities, got " +
                     std::to_string(count) + ".");
  }
  return SelectArgs{width, base, count, wta.uniqueness, wta.subpixel, cost_limit_of(wta.max_cost),
                    right_view_keys, disparity_fixed, peaks};
}

template <int kDirections, bool kBytePairs>
void launch_path_sums(int cells, const uint8_t* path_costs, size_t volume, const SelectArgs& args,
                      int rows, cudaStream_t stream) {
  if (cells == 2) {
    launch<2>(PathCostSum<2, kDirections, kBytePairs>{path_costs, volume, args.width}, args, rows, stream);
  } else if (cells == 4) {
    launch<4>(PathCostSum<4, kDirections, kBytePairs>{path_costs, volume, args.width}, args, rows, stream);
  } else {
    launch<8>(PathCostSum<8, kDirections, kBytePairs>{path_costs, volume, args.width}, args, rows, stream);
  }
}

void run_lr_check(int16_t* disparity_fixed, const uint32_t* keys, int width, int height, int base,
                  int max_diff, cudaStream_t stream) {
  if (max_diff < 0) {
    throw InputError("LR check: max_diff must not be negative, got " + std::to_string(max_diff) + ".");
  }
  if (width <= 0 || height <= 0) return;
  const dim3 grid((width + kLrRun - 1) / kLrRun, height);
  lr_check_keys_kernel<<<grid, kThreads, 0, stream>>>(disparity_fixed, keys, width, base,
                                                      max_diff * kDisparityScale);
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

void clear_right_view_keys(uint32_t* keys, size_t pixels, cudaStream_t stream) {
  SV_CUDA_CHECK(cudaMemsetAsync(keys, 0xFF, pixels * sizeof(uint32_t), stream));
}

void select_disparity_from_path_costs(const uint8_t* path_costs, int directions, int width,
                                      int height, int base, int count, const WtaSettings& wta,
                                      bool lr_check, int lr_max_diff, uint32_t* right_view_keys,
                                      int16_t* disparity_fixed, cudaStream_t stream,
                                      float2* peaks, int max_path_cost, bool keys_cleared) {
  const SelectArgs args = make_args(width, base, count, wta, lr_check ? right_view_keys : nullptr,
                                    disparity_fixed, peaks);
  if (directions != 4 && directions != 8) {
    throw InputError("SGM paths must be 4 or 8, got " + std::to_string(directions) + ".");
  }
  if (height <= 0 || width <= 0) return;
  const size_t volume = static_cast<size_t>(width) * height * kWarpSize * sgm_path_cells_per_lane(count);
  if (lr_check && !keys_cleared) clear_right_view_keys(right_view_keys, static_cast<size_t>(width) * height, stream);
  const int cells = sgm_path_cells_per_lane(count);
  const bool byte_pairs = max_path_cost <= 127;
  if (directions == 4) {
    if (byte_pairs) launch_path_sums<4, true>(cells, path_costs, volume, args, height, stream);
    else launch_path_sums<4, false>(cells, path_costs, volume, args, height, stream);
  } else {
    if (byte_pairs) launch_path_sums<8, true>(cells, path_costs, volume, args, height, stream);
    else launch_path_sums<8, false>(cells, path_costs, volume, args, height, stream);
  }
  if (lr_check) run_lr_check(disparity_fixed, right_view_keys, width, height, base, lr_max_diff, stream);
}

void lr_check_from_keys(int16_t* disparity_fixed, const uint32_t* right_view_keys, int width,
                        int height, int base, int lr_max_diff, cudaStream_t stream) {
  run_lr_check(disparity_fixed, right_view_keys, width, height, base, lr_max_diff, stream);
}

void select_disparity_from_costs16(const uint16_t* costs, int width, int height, int base,
                                   int count, const WtaSettings& wta, bool lr_check,
                                   int lr_max_diff, uint32_t* right_view_keys,
                                   int16_t* disparity_fixed, cudaStream_t stream, float2* peaks) {
  const SelectArgs args = make_args(width, base, count, wta, lr_check ? right_view_keys : nullptr,
                                    disparity_fixed, peaks);
  if (height <= 0 || width <= 0) return;
  if (lr_check) clear_right_view_keys(right_view_keys, static_cast<size_t>(width) * height, stream);
  const int cells = sgm_path_cells_per_lane(count);
  if (cells == 2) launch<2>(Cost16Volume<2>{costs, width}, args, height, stream);
  else if (cells == 4) launch<4>(Cost16Volume<4>{costs, width}, args, height, stream);
  else launch<8>(Cost16Volume<8>{costs, width}, args, height, stream);
  if (lr_check) run_lr_check(disparity_fixed, right_view_keys, width, height, base, lr_max_diff, stream);
}

}  // namespace sv::cuda
