// SGM path costs, fast form: every direction in one launch, 8-bit path costs, packed 16-bit
// arithmetic. For a uniform search range where every L_r fits a byte (kMaxMatchCost + P2 <= 255)
// it computes exactly the L_r of sgm_aggregation.cpp's definition and stores each direction's
// L_r in its own 8-bit volume; disparity_selection.cu sums them (S) and selects.
//
// Why this shape: one launch per direction left most of the GPU idle (a direction has only
// 1,000-3,000 paths) and re-read and re-wrote a 16-bit S volume eight times. Here all 8 x paths
// warps run at once, each cell of L_r is written once as a byte and read once by the selection.
//
// Layout: lane l of the warp walking a path holds candidates k = l * kCells + c, c < kCells, as
// kCells / 2 registers of two 16-bit values (low half: even k). The d - 1 and d + 1 neighbours
// come from byte permutes within the lane and one shuffle each way across lanes; the minimum
// of the previous pixel is one warp reduction. Candidates k >= count (padding up to
// 32 * kCells) are held at kUnavailable so they never win a min.
// Costs are read from the padded 8-bit census cost volume (census_cost_volume_strided). Computing
// them on the fly from the census codes was measured 2.8x slower on the H100 (an 8-byte code per
// candidate and step from L2 instead of one cost byte): see tests/gpu/RESULTS.md.
#include <string>

#include "src/core/census_cost.h"
#include "cuda/cuda_check.h"
#include "cuda/sgm_path_geometry.cuh"
#include "cuda/warp_min.cuh"
#include "cuda/stages.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 4;
constexpr unsigned kFullMask = 0xffffffffu;
// An unavailable path cost: above any real one (<= 255) plus P1, and x2 stays below 0x8000.
constexpr uint32_t kUnavailable = 0x3FFF;
constexpr uint32_t kUnavailablePair = kUnavailable * 0x10001u;
constexpr int kPrefetch = 4;

struct PathCostArgs {
  const uint8_t* costs;  // [pixel][32 * kCells]
  const uint8_t* guide;  // read only when edge_scale > 0
  int width;
  int height;
  int count;
  int base;
  int p1;
  int p2;
  int edge_scale;
  uint8_t* path_costs;  // [direction][pixel][32 * kCells]
};

// The raw costs of one step, loaded ahead of use so their latency overlaps earlier steps.
template <int kCells>
struct StepInputs {
  uint32_t words[(kCells + 3) / 4];
  int guide;
};

template <int kCells>
__device__ __forceinline__ void load_step(const PathCostArgs& a, int pixel, int lane,
                                          StepInputs<kCells>& in) {
  const uint8_t* c = a.costs + static_cast<size_t>(pixel) * (kWarpSize * kCells) + lane * kCells;
  if constexpr (kCells == 2) {
    in.words[0] = __ldg(reinterpret_cast<const uint16_t*>(c));
  } else if constexpr (kCells == 4) {
    in.words[0] = __ldg(reinterpret_cast<const uint32_t*>(c));
  } else {
    const uint2 w = __ldg(reinterpret_cast<const uint2*>(c));
    in.words[0] = w.x;
    in.words[1] = w.y;
  }
  in.guide = a.edge_scale > 0 ? __ldg(a.guide + pixel) : 0;
}

// The step's costs as kCells / 2 pairs of 16-bit values.
template <int kCells>
__device__ __forceinline__ void step_costs(const StepInputs<kCells>& in, uint32_t (&cost)[kCells / 2]) {
#pragma unroll
  for (int i = 0; i < kCells / 2; ++i) {
    cost[i] = __byte_perm(in.words[i / 2], 0, (i % 2 == 0) ? 0x4140 : 0x4342);
  }
}

template <int kCells>
__device__ __forceinline__ void store_bytes(uint8_t* out, const uint32_t (&cur)[kCells / 2]) {
  if constexpr (kCells == 2) {
    *reinterpret_cast<uint16_t*>(out) = static_cast<uint16_t>(__byte_perm(cur[0], 0, 0x0020));
  } else if constexpr (kCells == 4) {
    *reinterpret_cast<uint32_t*>(out) = __byte_perm(cur[0], cur[1], 0x6420);
  } else {
    *reinterpret_cast<uint2*>(out) =
        make_uint2(__byte_perm(cur[0], cur[1], 0x6420), __byte_perm(cur[2], cur[3], 0x6420));
  }
}

template <int kCells, bool kPadded>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize)
    sgm_path_costs_kernel(PathCostArgs a) {
  constexpr int kRegs = kCells / 2;
  const SgmDirection dir = sgm_direction(blockIdx.y);  // direction i writes volume i
  const int lane = threadIdx.x % kWarpSize;
  const int path = blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarpSize;
  if (path >= sgm_path_count(dir, a.width, a.height)) return;  // whole warp
  const SgmPath geometry = sgm_path(dir, path, a.width, a.height);
  const int x0 = geometry.x0, y0 = geometry.y0, length = geometry.length;

  // Padding: candidates k >= count are forced to kUnavailable after every step.
  uint32_t keep[kRegs], pad[kRegs];
#pragma unroll
  for (int i = 0; i < kRegs; ++i) {
    const int k = lane * kCells + 2 * i;
    keep[i] = (k < a.count ? 0xFFFFu : 0u) | (k + 1 < a.count ? 0xFFFF0000u : 0u);
    pad[i] = kUnavailablePair & ~keep[i];
  }
  const uint32_t p1_pair = static_cast<uint32_t>(a.p1) * 0x10001u;
  uint8_t* out_base = a.path_costs + static_cast<size_t>(blockIdx.y) * a.width * a.height * (kWarpSize * kCells) +
                      lane * kCells;

  StepInputs<kCells> ahead[kPrefetch];
#pragma unroll
  for (int u = 0; u < kPrefetch; ++u) {
    if (u < length) {
      load_step<kCells>(a, (y0 + u * dir.dy) * a.width + x0 + u * dir.dx, lane, ahead[u]);
    }
  }

  uint32_t prev[kRegs];
  int prev_min = 0;
  int prev_guide = 0;
  for (int first = 0; first < length; first += kPrefetch) {
#pragma unroll
    for (int u = 0; u < kPrefetch; ++u) {
      const int n = first + u;
      if (n >= length) break;
      const int pixel = (y0 + n * dir.dy) * a.width + x0 + n * dir.dx;
      uint32_t cur[kRegs];
      step_costs<kCells>(ahead[u], cur);
      const int guide = ahead[u].guide;
      if (n > 0) {
        int p2 = a.p2;
        if (a.edge_scale > 0) {
          p2 = max(a.p1, a.p2 * a.edge_scale / (a.edge_scale + abs(guide - prev_guide)));
        }
        const uint32_t jump_pair = static_cast<uint32_t>(prev_min + p2) * 0x10001u;
        const uint32_t min_pair = static_cast<uint32_t>(prev_min) * 0x10001u;
        uint32_t below = __shfl_up_sync(kFullMask, prev[kRegs - 1], 1);
        uint32_t above = __shfl_down_sync(kFullMask, prev[0], 1);
        if (lane == 0) below = kUnavailablePair;
        if (lane == kWarpSize - 1) above = kUnavailablePair;
#pragma unroll
        for (int i = 0; i < kRegs; ++i) {
          const uint32_t lower = i == 0 ? below : prev[i - 1];
          const uint32_t upper = i == kRegs - 1 ? above : prev[i + 1];
          const uint32_t minus = __byte_perm(lower, prev[i], 0x5432);  // L(k - 1) per half
          const uint32_t plus = __byte_perm(prev[i], upper, 0x5432);   // L(k + 1) per half
          const uint32_t best =
              __viaddmin_u16x2(__vminu2(minus, plus), p1_pair, __vminu2(prev[i], jump_pair));
          // best >= prev_min in each half, so plain 32-bit arithmetic cannot borrow across halves.
          cur[i] = cur[i] + best - min_pair;
        }
      }
      uint32_t pair_min = kUnavailablePair;
#pragma unroll
      for (int i = 0; i < kRegs; ++i) {
        if constexpr (kPadded) cur[i] = (cur[i] & keep[i]) | pad[i];
        pair_min = __vminu2(pair_min, cur[i]);
      }
      prev_min = warp_min(static_cast<int>(min(pair_min & 0xFFFFu, pair_min >> 16)));
      store_bytes<kCells>(out_base + static_cast<size_t>(pixel) * (kWarpSize * kCells), cur);
#pragma unroll
      for (int i = 0; i < kRegs; ++i) prev[i] = cur[i];
      prev_guide = guide;
      const int m = n + kPrefetch;
      if (m < length) {
        load_step<kCells>(a, (y0 + m * dir.dy) * a.width + x0 + m * dir.dx, lane, ahead[u]);
      }
    }
  }
}

template <int kCells>
void launch(const PathCostArgs& args, int paths, cudaStream_t stream) {
  const int most_paths = args.width + args.height;  // bound on any direction's path count
  const dim3 grid((most_paths + kWarpsPerBlock - 1) / kWarpsPerBlock, paths);
  if (args.count == kWarpSize * kCells) {
    sgm_path_costs_kernel<kCells, false><<<grid, kWarpsPerBlock * kWarpSize, 0, stream>>>(args);
  } else {
    sgm_path_costs_kernel<kCells, true><<<grid, kWarpsPerBlock * kWarpSize, 0, stream>>>(args);
  }
  SV_CUDA_CHECK_LAUNCH();
}

}  // namespace

int sgm_path_cells_per_lane(int count) { return count <= 64 ? 2 : (count <= 128 ? 4 : 8); }

bool sgm_path_costs_supported(int count, const SgmSettings& settings) {
  return count >= 1 && count <= 256 && (settings.paths == 4 || settings.paths == 8) &&
         settings.p1 >= 0 && settings.p1 <= 255 && settings.p2 >= 0 &&
         kMaxMatchCost + settings.p2 <= 255 && (!settings.adaptive_p2 || settings.p2_edge_scale >= 1);
}

void sgm_path_costs(const uint8_t* costs, const uint8_t* guide, int width, int height, int base,
                    int count, const SgmSettings& settings, uint8_t* path_costs,
                    cudaStream_t stream) {
  if (!sgm_path_costs_supported(count, settings)) {
    throw InputError("fast SGM path costs do not support " + std::to_string(count) +
                     " disparities with P1 = " + std::to_string(settings.p1) + ", P2 = " +
                     std::to_string(settings.p2) + " (need P2 <= 191 and at most 256 disparities)");
  }
  if (settings.adaptive_p2 && guide == nullptr) {
    throw InputError("SGM: the adaptive P2 needs the guidance image.");
  }
  if (width <= 0 || height <= 0) return;
  const PathCostArgs args{costs, guide, width, height, count, base, settings.p1, settings.p2,
                          settings.adaptive_p2 ? settings.p2_edge_scale : 0, path_costs};
  const int cells = sgm_path_cells_per_lane(count);
  if (cells == 2) return launch<2>(args, settings.paths, stream);
  if (cells == 4) return launch<4>(args, settings.paths, stream);
  return launch<8>(args, settings.paths, stream);
}

}  // namespace sv::cuda
