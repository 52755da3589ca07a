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
  int paths;            // 4 or 8 directions
};

// The raw costs of one step, loaded ahead of use so their latency overlaps earlier steps.
template <int kCells>
struct StepInputs {
  uint32_t words[(kCells + 3) / 4];
  int guide;
};

template <int kCells, bool kAdaptive>
__device__ __forceinline__ void load_step(const uint8_t* costs, const uint8_t* guide,
                                          StepInputs<kCells>& in) {
  if constexpr (kCells == 2) {
    in.words[0] = __ldg(reinterpret_cast<const uint16_t*>(costs));
  } else if constexpr (kCells == 4) {
    in.words[0] = __ldg(reinterpret_cast<const uint32_t*>(costs));
  } else {
    const uint2 w = __ldg(reinterpret_cast<const uint2*>(costs));
    in.words[0] = w.x;
    in.words[1] = w.y;
  }
  in.guide = kAdaptive ? __ldg(guide) : 0;
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

// The walk of one path by one warp. The kernel is bound by issued instructions (measured with
// Nsight Compute on the H100: ALU the busiest pipe, DRAM at 65 %), so the step is kept lean:
// pointers advance by a fixed stride, the first step needs no branch (prev = 0 and min 0 give
// L_r = C there, as P1, P2 >= 0), the adaptive P2 is a template flag, and the main loop runs
// whole prefetch groups without bounds checks; only the last groups check.
template <int kCells, bool kPadded, bool kAdaptive>
struct PathWalk {
  static constexpr int kRegs = kCells / 2;
  static constexpr int kStride = kWarpSize * kCells;  // bytes per pixel in a volume
  uint32_t keep[kRegs], pad[kRegs];
  uint32_t prev[kRegs];
  int prev_min = 0;
  int prev_guide = 0;
  uint32_t p1_pair;
  int p1, p2, edge_scale;
  int lane;

  // Turns the raw costs of one step into L_r, stores them at `out` and remembers them.
  __device__ __forceinline__ void step(const StepInputs<kCells>& in, uint8_t* out) {
    uint32_t cur[kRegs];
    step_costs<kCells>(in, cur);
    int jump = p2;
    if constexpr (kAdaptive) {
      jump = max(p1, p2 * edge_scale / (edge_scale + abs(in.guide - prev_guide)));
      prev_guide = in.guide;
    }
    const uint32_t jump_pair = static_cast<uint32_t>(prev_min + jump) * 0x10001u;
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
    uint32_t pair_min = kUnavailablePair;
#pragma unroll
    for (int i = 0; i < kRegs; ++i) {
      if constexpr (kPadded) cur[i] = (cur[i] & keep[i]) | pad[i];
      pair_min = __vminu2(pair_min, cur[i]);
    }
    prev_min = warp_min(static_cast<int>(min(pair_min & 0xFFFFu, pair_min >> 16)));
    store_bytes<kCells>(out, cur);
#pragma unroll
    for (int i = 0; i < kRegs; ++i) prev[i] = cur[i];
  }
};

// The launch order of the path blocks, chosen so that directions reading the same cost rows at the
// same time run side by side: both horizontal directions first (the longest walks), then the
// three downward directions interleaved block by block (their paths from the first row reach row
// n together, so a cost row fetched for one is still in L2 for the other two), then the three
// upward ones likewise. Block b of the 1-D grid gets (direction, block of paths).
struct PathBlock {
  int direction;
  int block;  // paths block * kWarpsPerBlock ...
};

__device__ __forceinline__ PathBlock path_block_of(int b, int width, int height, int paths) {
  const int row_blocks = (height + kWarpsPerBlock - 1) / kWarpsPerBlock;            // horizontal
  const int column_blocks = (width + kWarpsPerBlock - 1) / kWarpsPerBlock;          // vertical
  const int diagonal_blocks = (width + height - 1 + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (b < 2 * row_blocks) return {b / row_blocks, b % row_blocks};
  b -= 2 * row_blocks;
  if (paths == 4) return {2 + b / column_blocks, b % column_blocks};
  const int group = 3 * column_blocks + 2 * (diagonal_blocks - column_blocks);  // one vertical sense
  const int down = b < group ? 1 : 0;
  if (!down) b -= group;
  const int vertical = down ? 2 : 3;
  const int first_diagonal = down ? 4 : 6;  // 4, 5 go down; 6, 7 go up
  if (b < 3 * column_blocks) {
    const int which = b % 3;
    return {which == 0 ? vertical : first_diagonal + which - 1, b / 3};
  }
  b -= 3 * column_blocks;
  return {first_diagonal + b % 2, column_blocks + b / 2};
}

__host__ inline int path_block_count(int width, int height, int paths) {
  const int row_blocks = (height + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const int column_blocks = (width + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const int diagonal_blocks = (width + height - 1 + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (paths == 4) return 2 * row_blocks + 2 * column_blocks;
  return 2 * row_blocks + 2 * (3 * column_blocks + 2 * (diagonal_blocks - column_blocks));
}

template <int kCells, bool kPadded, bool kAdaptive>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize)
    sgm_path_costs_kernel(PathCostArgs a) {
  using Walk = PathWalk<kCells, kPadded, kAdaptive>;
  const PathBlock order = path_block_of(static_cast<int>(blockIdx.x), a.width, a.height, a.paths);
  const SgmDirection dir = sgm_direction(order.direction);  // direction i writes volume i
  const int lane = threadIdx.x % kWarpSize;
  const int path = order.block * kWarpsPerBlock + threadIdx.x / kWarpSize;
  if (path >= sgm_path_count(dir, a.width, a.height)) return;  // whole warp
  const SgmPath geometry = sgm_path(dir, path, a.width, a.height);
  const int length = geometry.length;

  Walk walk;
  walk.lane = lane;
  walk.p1 = a.p1;
  walk.p2 = a.p2;
  walk.edge_scale = a.edge_scale;
  walk.p1_pair = static_cast<uint32_t>(a.p1) * 0x10001u;
#pragma unroll
  for (int i = 0; i < Walk::kRegs; ++i) {
    const int k = lane * kCells + 2 * i;
    walk.keep[i] = (k < a.count ? 0xFFFFu : 0u) | (k + 1 < a.count ? 0xFFFF0000u : 0u);
    walk.pad[i] = kUnavailablePair & ~walk.keep[i];
    walk.prev[i] = 0;  // with prev_min 0: L_r = C at the first pixel
  }

  const ptrdiff_t first_pixel = static_cast<ptrdiff_t>(geometry.y0) * a.width + geometry.x0;
  const ptrdiff_t pixel_step = static_cast<ptrdiff_t>(dir.dy) * a.width + dir.dx;
  const ptrdiff_t byte_step = pixel_step * Walk::kStride;
  const uint8_t* load_costs = a.costs + first_pixel * Walk::kStride + lane * kCells;
  const uint8_t* load_guide = kAdaptive ? a.guide + first_pixel : nullptr;
  uint8_t* out = a.path_costs +
                 static_cast<size_t>(order.direction) * a.width * a.height * Walk::kStride +
                 first_pixel * Walk::kStride + lane * kCells;

  StepInputs<kCells> ahead[kPrefetch];
#pragma unroll
  for (int u = 0; u < kPrefetch; ++u) {
    if (u < length) load_step<kCells, kAdaptive>(load_costs, load_guide, ahead[u]);
    load_costs += byte_step;
    if constexpr (kAdaptive) load_guide += pixel_step;
  }

  int first = 0;
  // Whole groups whose refills (kPrefetch steps ahead) stay on the path.
  for (; first + 2 * kPrefetch <= length; first += kPrefetch) {
#pragma unroll
    for (int u = 0; u < kPrefetch; ++u) {
      walk.step(ahead[u], out);
      out += byte_step;
      load_step<kCells, kAdaptive>(load_costs, load_guide, ahead[u]);
      load_costs += byte_step;
      if constexpr (kAdaptive) load_guide += pixel_step;
    }
  }
  // The last steps, checked.
  for (; first < length; first += kPrefetch) {
#pragma unroll
    for (int u = 0; u < kPrefetch; ++u) {
      const int n = first + u;
      if (n >= length) break;
      walk.step(ahead[u], out);
      out += byte_step;
      if (n + kPrefetch < length) load_step<kCells, kAdaptive>(load_costs, load_guide, ahead[u]);
      load_costs += byte_step;
      if constexpr (kAdaptive) load_guide += pixel_step;
    }
  }
}

template <int kCells>
void launch(const PathCostArgs& args, int paths, cudaStream_t stream) {
  const dim3 grid(path_block_count(args.width, args.height, paths));
  const dim3 block(kWarpsPerBlock * kWarpSize);
  const bool padded = args.count != kWarpSize * kCells;
  if (args.edge_scale > 0) {
    padded ? sgm_path_costs_kernel<kCells, true, true><<<grid, block, 0, stream>>>(args)
           : sgm_path_costs_kernel<kCells, false, true><<<grid, block, 0, stream>>>(args);
  } else {
    padded ? sgm_path_costs_kernel<kCells, true, false><<<grid, block, 0, stream>>>(args)
           : sgm_path_costs_kernel<kCells, false, false><<<grid, block, 0, stream>>>(args);
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
                          settings.adaptive_p2 ? settings.p2_edge_scale : 0, path_costs,
                          settings.paths};
  const int cells = sgm_path_cells_per_lane(count);
  if (cells == 2) return launch<2>(args, settings.paths, stream);
  if (cells == 4) return launch<4>(args, settings.paths, stream);
  return launch<8>(args, settings.paths, stream);
}

}  // namespace sv::cuda
