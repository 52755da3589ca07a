// SGM path costs, fast form: every direction in one launch, 8-bit path costs, packed 16-bit
// arithmetic. For a uniform search range where every L_r fits a byte (kMaxMatchCost + P2 <= 255)
// it computes exactly the L_r of sgm_aggregation.cpp's definition and stores each direction's
// L_r in its own 8-bit volume; disparity_selection.cu sums them (S) and selects.
//
// Why this shape: one launch per direction left most of the GPU idle (a direction has only
// 1,000-3,000 paths) and re-read and re-wrote a 16-bit S volume eight times. Here each cell of
// L_r is written once as a byte and read once by the selection, in one of two schedules:
// - free: one path per warp, every direction in one launch (small frames, 64 candidates);
// - clocked (large frames, 8 paths): a warp advances several walks side by side (walk_paths),
//   the vertical and both diagonal directions of a column slot, with the diagonals wrapping
//   around the sides so that every downward (upward) walk is on the same row at the same step;
//   row clocks keep the warps of a sense in step, so DRAM delivers each cost row once for its
//   three directions. The horizontal walks run beside them on a side stream.
//
// Layout: lane l of the warp walking a path holds candidates k = l * kCells + c, c < kCells, as
// kCells / 2 registers of two 16-bit values (low half: even k). The d - 1 and d + 1 neighbours
// come from byte permutes within the lane and one shuffle each way across lanes; the minimum
// of the previous pixel is one warp reduction. Candidates k >= count (padding up to
// 32 * kCells) are held at kUnavailable so they never win a min.
// Costs are read from the padded 8-bit census cost volume (census_cost_volume_strided). Computing
// them on the fly from the census codes was measured 2.8x slower on the H100 (an 8-byte code per
// candidate and step from L2 instead of one cost byte): docs/performance.md, ledger:
// costs-on-the-fly.
#include <climits>
#include <stdexcept>
#include <type_traits>
#include <string>

#include "src/core/census_cost.h"
#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/path_block_order.h"
#include "cuda/sgm_path_geometry.cuh"
#include "cuda/sm_limits.cuh"
#include "cuda/warp_min.cuh"
#include "cuda/stages.h"
#include "cuda/tuning.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 4;
constexpr unsigned kFullMask = 0xffffffffu;
// An unavailable path cost: above any real one (<= 255) plus P1, and x2 stays below 0x8000.
constexpr uint32_t kUnavailable = 0x3FFF;
constexpr uint32_t kUnavailablePair = kUnavailable * 0x10001u;
// Steps loaded ahead, and the slots their loads go to (more slots than steps ahead, so that a
// load never targets the slot the current step reads: see walk_paths): a warp with one walk loads
// kSingleWalkPrefetch steps ahead into kSingleWalkSlots; warps with several walks overlap their
// walks instead and load kWalksPrefetch ahead into kWalksSlots registers (cuda/tuning.h).

struct PathTasks {
  int begin, end;  // the tasks of this launch
};

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
  unsigned* down_clock;  // RowClock chunks of the downward and upward warps, or nullptr
  unsigned* up_clock;
  PathTasks tasks;
  const uint32_t* block_order;  // the free schedule's blocks (path_block_order.h)
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

// Streaming stores (st.global.cs): the volumes are read once, by the selection, long after, so
// their lines are marked first to go from L2 and the cost rows the walks share stay longer. On
// the H100: -1.8 % at 640x480 D128 and D256, -1.5 % at 1920x1080 D128, within +-0.4 % elsewhere
// (docs/performance.md, ledger: streaming-stores).
template <int kCells>
__device__ __forceinline__ void store_bytes(uint8_t* out, const uint32_t (&cur)[kCells / 2]) {
  if constexpr (kCells == 2) {
    __stcs(reinterpret_cast<unsigned short*>(out),
           static_cast<unsigned short>(__byte_perm(cur[0], 0, 0x0020)));
  } else if constexpr (kCells == 4) {
    __stcs(reinterpret_cast<unsigned int*>(out), __byte_perm(cur[0], cur[1], 0x6420));
  } else {
    __stcs(reinterpret_cast<uint2*>(out),
           make_uint2(__byte_perm(cur[0], cur[1], 0x6420), __byte_perm(cur[2], cur[3], 0x6420)));
  }
}

// The walk of one path by one warp. The step is kept lean (Nsight Compute on the H100 found the
// one-path-per-warp kernel bound by issued instructions as much as by DRAM):
// pointers advance by a fixed stride, the first step needs no branch (prev = 0 and min 0 give
// L_r = C there, as P1, P2 >= 0), the adaptive P2 is a template flag, and the main loop runs
// whole prefetch groups without bounds checks; only the last groups check.
template <int kCells, bool kPadded, bool kAdaptive>
struct PathWalk {
  static constexpr int kRegs = kCells / 2;
  static constexpr int kStride = kWarpSize * kCells;  // bytes per pixel in a volume
  uint32_t keep[kRegs], pad[kRegs];
  uint32_t prev[kRegs];
  // The previous pixel's smallest L_r, held as a 16-bit pair (m * 0x10001: one swap-min before
  // the warp's reduction, one add for the jump) where that measured faster, as an int where it
  // made the step slower: padded candidates and 256 candidates, their clocked walks spilling more
  // or scheduled worse (cuda/tuning.h).
  static constexpr bool kMinPair = kAdaptive || (!kPadded && kCells <= kMinPairMaxUnpaddedCells);
  uint32_t prev_min_pair = 0;  // kMinPair
  int prev_min = 0;            // !kMinPair
  int prev_guide = 0;
  uint32_t p1_pair, p2_pair;
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
    uint32_t jump_pair, min_pair;
    if constexpr (kMinPair) {
      jump_pair = prev_min_pair + (kAdaptive ? static_cast<uint32_t>(jump) * 0x10001u : p2_pair);
      min_pair = prev_min_pair;
    } else {
      jump_pair = static_cast<uint32_t>(prev_min + jump) * 0x10001u;
      min_pair = static_cast<uint32_t>(prev_min) * 0x10001u;
    }
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
    if constexpr (kMinPair) {
      // The smaller half in both halves (a half swap and a min), then the warp's minimum of those
      // words: m * 0x10001 orders as m does, so it is the smallest L_r in both halves at once.
      prev_min_pair = warp_min(__vminu2(pair_min, __byte_perm(pair_min, 0, 0x1032)));
    } else {
      prev_min = warp_min(static_cast<int>(min(pair_min & 0xFFFFu, pair_min >> 16)));
    }
    store_bytes<kCells>(out, cur);
#pragma unroll
    for (int i = 0; i < kRegs; ++i) prev[i] = cur[i];
  }

  // The next pixel starts a new path: as at the first pixel, L_r = C there.
  __device__ __forceinline__ void restart() {
#pragma unroll
    for (int i = 0; i < kRegs; ++i) prev[i] = 0;
    prev_min_pair = 0;
    prev_min = 0;
  }
};

// Where one path's cells lie: a lane's pointer into a [pixel][32 * kCells] volume that advances
// one pixel per step. A diagonal leaving the image through a side re-enters at the other side on
// the next row and starts a new path there (the reference's path from that side's column), so a
// warp walks its slot's diagonals for every row of the image instead of one path each.
template <typename Byte>
struct PathCursor {
  Byte* cell;
  const uint8_t* guide;      // adaptive P2 only
  ptrdiff_t cell_step, pixel_step;
  ptrdiff_t cell_wrap, pixel_wrap;  // added when the step crosses a side (dx * -width pixels)
  // The walk's next side crossing (unused without wraps), held one of two ways, each walk always
  // the same way: advance() counts down the steps left to it, advance_to() keeps its step index.
  // Both start at the same number (the first crossing's step).
  int crossing;
  int width;

  // Moves to the next pixel; true when that pixel starts a new path.
  template <bool kWraps, bool kAdaptive>
  __device__ __forceinline__ bool advance() {
    cell += cell_step;
    if constexpr (kAdaptive) guide += pixel_step;
    if constexpr (kWraps) {
      if (--crossing == 0) {
        cell += cell_wrap;
        if constexpr (kAdaptive) guide += pixel_wrap;
        crossing = width;
        return true;
      }
    }
    return false;
  }

  // The same, the next pixel being step `to`'s (crossing: the next crossing's step).
  template <bool kWraps>
  __device__ __forceinline__ bool advance_to(int to) {
    cell += cell_step;
    if constexpr (kWraps) {
      if (to == crossing) {
        cell += cell_wrap;
        crossing += width;
        return true;
      }
    }
    return false;
  }
};

// The first pixel and direction of one of a warp's walks.
struct WalkStart {
  int direction;
  int x, y;
};

// Keeps the warps of one vertical sense within a few chunks of rows of each other, so that the
// cost row the first of them fetches is still in L2 when the last reads it: free-running warps
// drift apart by more rows than L2 holds, and DRAM then delivers most rows two or three times
// (Nsight Compute on the H100 at 1920x1080 D128: 1.71 GB of cost reads free, 1.05 GB clocked).
// A warp that finished chunk n waits until every warp of its sense finished chunk n - slack.
// Only used when every warp of the sense can be resident at once, so a wait always ends.
// The rows a sense spreads over must fit L2 beside the write traffic: shorter chunks with 256
// candidates, twice the bytes a row (cuda/tuning.h).
template <int kCells>
struct ClockShape {
  static constexpr int kRows = kCells == 8 ? kClockRows256 : kClockRows;
  static constexpr int kSlack = kCells == 8 ? kClockSlack256 : kClockSlack;
};
// Sizes the clock buffer for every shape.
constexpr int kFewestClockRows = kClockRows256 < kClockRows ? kClockRows256 : kClockRows;

struct RowClock {
  unsigned* done;  // per chunk: warps that finished it; nullptr: the warps run free
  unsigned walkers;

  template <int kSlack>
  __device__ __forceinline__ void pass(int chunk, int lane) const {
    if (lane == 0) {
      atomicAdd(done + chunk, 1u);
      if (chunk >= kSlack) {
        const volatile unsigned* behind = done + chunk - kSlack;
        while (*behind < walkers) __nanosleep(64);
      }
    }
    __syncwarp();
  }
};

// A warp's task: the kWalks walks it advances side by side, one pixel of each per step, for
// `length` steps. Independent walks in one warp overlap their dependent chains (the step of one
// issues while another waits on its shuffle and reduction), and the walks of a vertical sense
// run row by row in lockstep: at step n every downward walk of the frame reads cost row n, which
// DRAM then delivers once for the three directions (docs/performance.md, ledger: clocked-walks).
template <int kCells, bool kPadded, bool kAdaptive, int kWalks, int kPrefetch, int kSlots>
__device__ __forceinline__ void walk_paths(const PathCostArgs& a, const WalkStart (&starts)[kWalks],
                                           int length, int lane, RowClock clock = {nullptr, 0}) {
  using Shape = ClockShape<kCells>;
  static_assert(kWalks != 3 || Shape::kRows % kSlots == 0,
                "the clock ticks between groups of steps");
  static_assert(kSlots > kPrefetch, "a load never goes to the slot a step still reads");

  using Walk = PathWalk<kCells, kPadded, kAdaptive>;
  constexpr ptrdiff_t kStride = Walk::kStride;
  const size_t volume = static_cast<size_t>(a.width) * a.height * kStride;
  Walk walk[kWalks];
  // One cursor a walk where that measured faster (a step stores its L_r at the cursor plus a
  // fixed distance, its direction's volume less the cost volume, before the cursor moves on and
  // loads the next step's costs): the clocked walks of 256 candidates, whose spills it took away,
  // and the row walks of padded candidates (cuda/tuning.h). The clocked senses of up to 128
  // candidates were slower with it and keep a store cursor, as the free walks, which load two
  // steps ahead.
  constexpr bool kOneCursor =
      kPrefetch == 1 && (kCells == kOneCursorCells || (kPadded && kWalks == 2));
  PathCursor<const uint8_t> load[kWalks];
  PathCursor<uint8_t> store[kWalks];
  ptrdiff_t to_store[kWalks];  // kOneCursor: store address less load address
#pragma unroll
  for (int j = 0; j < kWalks; ++j) {
    const SgmDirection dir = sgm_direction(starts[j].direction);
    walk[j].lane = lane;
    walk[j].p1 = a.p1;
    walk[j].p2 = a.p2;
    walk[j].edge_scale = a.edge_scale;
    walk[j].p1_pair = static_cast<uint32_t>(a.p1) * 0x10001u;
    walk[j].p2_pair = static_cast<uint32_t>(a.p2) * 0x10001u;
#pragma unroll
    for (int i = 0; i < Walk::kRegs; ++i) {
      const int k = lane * kCells + 2 * i;
      walk[j].keep[i] = (k < a.count ? 0xFFFFu : 0u) | (k + 1 < a.count ? 0xFFFF0000u : 0u);
      walk[j].pad[i] = kUnavailablePair & ~walk[j].keep[i];
      walk[j].prev[i] = 0;  // with prev_min 0: L_r = C at the first pixel
    }
    const ptrdiff_t first = static_cast<ptrdiff_t>(starts[j].y) * a.width + starts[j].x;
    const ptrdiff_t step = static_cast<ptrdiff_t>(dir.dy) * a.width + dir.dx;
    const ptrdiff_t wrap = -static_cast<ptrdiff_t>(dir.dx) * a.width;
    // Steps until the walk crosses a side: from x, width - x to the right, x + 1 to the left.
    const int first_crossing = dir.dx > 0 ? a.width - starts[j].x : (dir.dx < 0 ? starts[j].x + 1 : INT_MAX);
    load[j] = {a.costs + first * kStride + lane * kCells, kAdaptive ? a.guide + first : nullptr,
               step * kStride, step, wrap * kStride, wrap, first_crossing, a.width};
    store[j] = {a.path_costs + starts[j].direction * volume + first * kStride + lane * kCells,
                nullptr, step * kStride, 0, wrap * kStride, 0, first_crossing, a.width};
    to_store[j] = static_cast<ptrdiff_t>(reinterpret_cast<uintptr_t>(a.path_costs + starts[j].direction * volume) -
                                         reinterpret_cast<uintptr_t>(a.costs));
  }
  // Only the diagonals of the vertical walks cross sides (a horizontal walk ends at one).
  constexpr bool kWraps = kWalks == 3;
  auto wraps = [](int j) { return kWraps && j > 0; };

  StepInputs<kCells> ahead[kWalks][kSlots];
  // A diagonal crosses a side once every `width` steps, so most groups of the vertical walks
  // cannot cross: with up to 128 candidates and a constant P2 those run unchecked (the countdowns
  // and the restart's selects made 53 instructions of a walk-step on sm_90, 44 without;
  // cuda/tuning.h). With 256 candidates and with the adaptive P2 (spills) every group is checked,
  // counting down as before.
  constexpr bool kUncheckedGroups = kWraps && kCells <= kUncheckedGroupsMaxCells && !kAdaptive;
  // Moves walk j's cursor to the pixel of step `to`, checked or not; true where a path starts.
  auto move = [&](auto& cursor, int j, int to, auto checked) {
    constexpr bool kChecked = decltype(checked)::value;
    if constexpr (kUncheckedGroups) {
      return kChecked && wraps(j) ? cursor.template advance_to<true>(to) : cursor.template advance_to<false>(to);
    } else {
      return kChecked && wraps(j) ? cursor.template advance<true, kAdaptive>()
                                  : cursor.template advance<false, kAdaptive>();
    }
  };
  using Checked = std::true_type;
  using Unchecked = std::false_type;
#pragma unroll
  for (int u = 0; u < kPrefetch; ++u) {
#pragma unroll
    for (int j = 0; j < kWalks; ++j) {
      if (u < length) load_step<kCells, kAdaptive>(load[j].cell, load[j].guide, ahead[j][u]);
      if constexpr (!kOneCursor) move(load[j], j, u + 1, Checked{});
    }
  }
  // Step n of walk j from slot u; the load of step n + kPrefetch into slot v.
  auto step = [&](int j, int u, int n, auto checked) {
    if constexpr (kOneCursor) {
      walk[j].step(ahead[j][u], const_cast<uint8_t*>(load[j].cell) + to_store[j]);
      if (move(load[j], j, n + 1, checked)) walk[j].restart();
    } else {
      walk[j].step(ahead[j][u], store[j].cell);
      if (move(store[j], j, n + 1, checked)) walk[j].restart();
    }
  };
  auto refill = [&](int j, int v, int n, auto checked) {
    load_step<kCells, kAdaptive>(load[j].cell, load[j].guide, ahead[j][v]);
    if constexpr (!kOneCursor) move(load[j], j, n + kPrefetch + 1, checked);
  };
  auto group = [&](int first, auto checked) {
#pragma unroll
    for (int u = 0; u < kSlots; ++u) {
#pragma unroll
      for (int j = 0; j < kWalks; ++j) {
        step(j, u, first + u, checked);
        refill(j, (u + kPrefetch) % kSlots, first + u, checked);
      }
    }
  };

  int first = 0;
  auto tick = [&] {
    // Every warp of a sense has the same length, so all of them pass the same chunks.
    if (clock.done != nullptr && first > 0 && first % Shape::kRows == 0) {
      clock.template pass<Shape::kSlack>(first / Shape::kRows - 1, lane);
    }
  };
  // Step n reads slot n % kSlots, loaded kPrefetch steps before into a slot no step still reads.
  // (With the load going into the slot just read, Nsight Compute found the clocked warps stalled
  // most at register copies the compiler put at the loop's end, which wait for the loads.)
  // Whole groups whose loads stay on the walk, without bounds checks.
  if constexpr (!kUncheckedGroups) {
    for (; first + kSlots + kPrefetch <= length; first += kSlots) {
      tick();
      group(first, Checked{});  // (a walk that never crosses a side is never counted)
    }
  } else {
    // A group from step f cannot cross while f + kSlots < check_at: every store cursor's next
    // crossing lies beyond its group, every load cursor's beyond its kPrefetch steps ahead (the
    // same in every lane).
    auto next_check = [&] {
      int at = INT_MAX;
#pragma unroll
      for (int j = 0; j < kWalks; ++j) {
        if (wraps(j)) {
          at = min(at, kOneCursor ? load[j].crossing : min(store[j].crossing, load[j].crossing - kPrefetch));
        }
      }
      return at;
    };
    int check_at = next_check();
    const int last_group = length - kSlots - kPrefetch;  // where the last whole group starts
    while (first <= last_group) {
      for (const int unchecked_end = min(last_group, check_at - kSlots - 1); first <= unchecked_end;
           first += kSlots) {
        tick();
        group(first, Unchecked{});
      }
      if (first > last_group) break;
      tick();
      group(first, Checked{});
      first += kSlots;
      check_at = next_check();
    }
  }
  // The last steps, checked.
  for (; first < length; first += kSlots) {
#pragma unroll
    for (int u = 0; u < kSlots; ++u) {
      const int n = first + u;
      if (n >= length) break;
#pragma unroll
      for (int j = 0; j < kWalks; ++j) {
        step(j, u, n, Checked{});
        if (n + kPrefetch < length) refill(j, (u + kPrefetch) % kSlots, n, Checked{});
      }
    }
  }
}

// The free schedule: one path per warp, the paths of every direction in one launch, in the
// reference's path geometry; block b walks the paths of a.block_order[b] (path_block_order.h:
// longest paths first, directions that share cost rows side by side).
static_assert(kWarpsPerBlock == kFreePathsPerBlock, "a free block walks one path a warp");

// 64 candidates without the adaptive P2 are held to a full SM of warps (32 registers on sm_80 and
// sm_90), which that case (the least work per step) needs to hide the latency of its steps.
template <int kCells, bool kPadded, bool kAdaptive>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize,
                                  kCells == 2 && !kAdaptive ? kMaxThreadsPerSm / (kWarpsPerBlock * kWarpSize) : 1)
    sgm_free_paths_kernel(PathCostArgs a) {
  const uint32_t entry = __ldg(a.block_order + blockIdx.x);
  const int direction = static_cast<int>(entry >> kPathBlockDirectionShift);
  const int block = static_cast<int>(entry & ((1u << kPathBlockDirectionShift) - 1));
  const int path = block * kWarpsPerBlock + static_cast<int>(threadIdx.x) / kWarpSize;
  const SgmDirection dir = sgm_direction(direction);  // direction i writes volume i
  if (path >= sgm_path_count(dir, a.width, a.height)) return;  // whole warp
  const SgmPath geometry = sgm_path(dir, path, a.width, a.height);
  const WalkStart starts[1] = {{direction, geometry.x0, geometry.y0}};
  walk_paths<kCells, kPadded, kAdaptive, 1, kSingleWalkPrefetch, kSingleWalkSlots>(
      a, starts, geometry.length, threadIdx.x % kWarpSize);
}

// The clocked schedule (8 paths): a warp's task is one of tasks [0, height), both horizontal
// directions of a row; [height, height + width), the downward directions of a column slot; the
// next width tasks, the upward ones. A slot's warp walks the vertical path of its column and the
// two diagonals through it, wrapping around the sides. Registers are held so that a sense's blocks
// and the horizontal ones are resident at once (cuda/tuning.h): 64 (8 blocks an SM), 72 for 128
// unpadded candidates (7 blocks, still room for 1920x1080's 750 blocks: no spills instead of 12
// bytes; the padded ones lost 0.5 % so), 80 for 256 candidates and 96 with the adaptive P2. (With
// the kind read from the launch the adaptive P2's walks fit 72 to 80 registers without spills,
// but then 1920x1080 takes the clocked schedule, 7 to 31 % slower there than the free one.)
template <int kCells, bool kPadded, bool kAdaptive>
__global__ void __launch_bounds__(
    kWarpsPerBlock * kWarpSize,
    kAdaptive ? kClockedBlocksPerSmAdaptive
              : (kCells == 8 ? kClockedBlocksPerSm256
                             : (kCells == 4 && !kPadded ? kClockedBlocksPerSm128Unpadded
                                                        : kClockedBlocksPerSm)))
    sgm_clocked_walks_kernel(PathCostArgs a) {
  const int lane = threadIdx.x % kWarpSize;
  int task = a.tasks.begin + static_cast<int>(blockIdx.x) * kWarpsPerBlock +
             static_cast<int>(threadIdx.x) / kWarpSize;
  if (task >= a.tasks.end) return;  // whole warp
  // A launch holds one kind of task (launch_clocked). Read from its range, the kind is uniform
  // across the grid and the compiler keeps what follows from it in uniform registers: with one
  // cursor (256 candidates, padded rows) that is what kept the adaptive P2's 256-candidate walks
  // from spilling 32 to 44 bytes; the unpadded walks of up to 128 candidates measured slower that
  // way and read it from each task (cuda/tuning.h).
  constexpr bool kUniformKind = kCells == kUniformKindCells || kPadded;
  if (kUniformKind ? a.tasks.end <= a.height : task < a.height) {
    const WalkStart starts[2] = {{0, 0, task}, {1, a.width - 1, task}};
    walk_paths<kCells, kPadded, kAdaptive, 2, kWalksPrefetch, kWalksSlots>(a, starts, a.width,
                                                                           lane);
    return;
  }
  task -= a.height;
  const bool down = kUniformKind ? a.tasks.begin < a.height + a.width : task < a.width;
  const int x = down ? task : task - a.width;
  const int y = down ? 0 : a.height - 1;
  const WalkStart starts[3] = {{down ? 2 : 3, x, y}, {down ? 4 : 6, x, y}, {down ? 5 : 7, x, y}};
  const RowClock clock{down ? a.down_clock : a.up_clock, static_cast<unsigned>(a.width)};
  walk_paths<kCells, kPadded, kAdaptive, 3, kWalksPrefetch, kWalksSlots>(a, starts, a.height, lane,
                                                                         clock);
}

__host__ inline int clock_chunks(int height, int rows) { return (height + rows - 1) / rows; }

// `tasks` is one kind of the clocked kernel's tasks: the rows, or one sense (the kernel reads the
// kind from the range).
template <typename Kernel>
void launch_tasks(Kernel kernel, PathCostArgs args, PathTasks tasks, cudaStream_t stream) {
  if (tasks.end <= tasks.begin) return;
  args.tasks = tasks;
  kernel<<<(tasks.end - tasks.begin + kWarpsPerBlock - 1) / kWarpsPerBlock, kWarpsPerBlock * kWarpSize,
           0, stream>>>(args);
  SV_CUDA_CHECK_LAUNCH();
}

// The clocked schedule: the downward walks, then the upward ones, each sense in one launch with
// its row clock, and the horizontal walks beside them on the side stream. Measured on the H100
// against the free schedule (docs/performance.md, ledger: clocked-walks): faster at 1920x1080
// with 128 and 256 candidates and at 1280x720 with 256, slower with 64 candidates, at 640x480
// (too few warps per sense to fill the GPU in lockstep) and where a sense and the horizontal
// walks cannot all be resident (3840x2160). kAuto follows those measurements (cuda/tuning.h); the clocks need every
// block of a sense resident at once, so where it cannot be the walks run free whatever was asked.
template <int kCells, bool kPadded, bool kAdaptive>
bool launch_clocked(PathCostArgs args, const PathScheduling& scheduling, cudaStream_t stream) {
  if (args.paths != 8 || scheduling.row_clocks == nullptr || scheduling.side == nullptr ||
      scheduling.schedule == PathSchedule::kFree) {
    return false;
  }
  const auto kernel = sgm_clocked_walks_kernel<kCells, kPadded, kAdaptive>;
  const int h = args.height, w = args.width;
  const CurrentDevice& gpu = current_device();
  const int sms = gpu.sms, l2_bytes = gpu.l2_bytes;
  thread_local OccupancyCache occupancy;
  const int blocks_per_sm = occupancy.blocks_per_sm(kernel, kWarpsPerBlock * kWarpSize);
  const long resident = static_cast<long>(sms) * blocks_per_sm;
  const long sense_blocks = (w + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const long row_blocks = (h + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (sense_blocks > resident) return false;
  if (scheduling.schedule == PathSchedule::kAuto) {
    const bool fills =
        kCells >= kClockedMinCells &&
        sense_blocks >=
            (kCells == 8 ? kClockedMinSenseBlocksPerSm256 : kClockedMinSenseBlocksPerSm) * sms &&
        sense_blocks + row_blocks <= resident;
    const bool spills_l2 = static_cast<double>(w) * h * kWarpSize * kCells > l2_bytes;
    if (!fills || !spills_l2) return false;
  }
  const int chunks = clock_chunks(h, ClockShape<kCells>::kRows);
  SV_CUDA_CHECK(cudaMemsetAsync(scheduling.row_clocks, 0, sizeof(unsigned) * 2 * chunks, stream));
  launch_tasks(kernel, args, {0, h}, scheduling.side->fork(stream));
  args.down_clock = scheduling.row_clocks;
  launch_tasks(kernel, args, {h, h + w}, stream);
  args.down_clock = nullptr;
  args.up_clock = scheduling.row_clocks + chunks;
  launch_tasks(kernel, args, {h + w, h + 2 * w}, stream);
  scheduling.side->join(stream);
  return true;
}

template <int kCells, bool kPadded, bool kAdaptive>
void launch(const PathCostArgs& args, const PathScheduling& scheduling, cudaStream_t stream) {
  if (launch_clocked<kCells, kPadded, kAdaptive>(args, scheduling, stream)) return;
  const PathBlockTable order =
      scheduling.block_order->table(args.width, args.height, args.paths, stream);
  PathCostArgs free_args = args;
  free_args.block_order = order.entries;
  sgm_free_paths_kernel<kCells, kPadded, kAdaptive>
      <<<order.blocks, kWarpsPerBlock * kWarpSize, 0, stream>>>(free_args);
  SV_CUDA_CHECK_LAUNCH();
}

template <int kCells>
void launch(const PathCostArgs& args, const PathScheduling& s, cudaStream_t stream) {
  const bool padded = args.count != kWarpSize * kCells;
  if (args.edge_scale > 0) {
    padded ? launch<kCells, true, true>(args, s, stream) : launch<kCells, false, true>(args, s, stream);
  } else {
    padded ? launch<kCells, true, false>(args, s, stream) : launch<kCells, false, false>(args, s, stream);
  }
}

}  // namespace

int sgm_path_cells_per_lane(int count) { return count <= 64 ? 2 : (count <= 128 ? 4 : 8); }

bool sgm_path_costs_supported(int count, const SgmSettings& settings) {
  return count >= 1 && count <= 256 && (settings.paths == 4 || settings.paths == 8) &&
         settings.p1 >= 0 && settings.p1 <= 255 && settings.p2 >= 0 &&
         kMaxMatchCost + settings.p2 <= 255 && (!settings.adaptive_p2 || settings.p2_edge_scale >= 1);
}

int sgm_path_costs_clock_words(int height) { return 2 * clock_chunks(height, kFewestClockRows); }

void sgm_path_costs(const uint8_t* costs, const uint8_t* guide, int width, int height, int base,
                    int count, const SgmSettings& settings, uint8_t* path_costs,
                    cudaStream_t stream, const PathScheduling& scheduling) {
  if (!sgm_path_costs_supported(count, settings)) {
    throw InputError("fast SGM path costs do not support " + std::to_string(count) +
                     " disparities with P1 = " + std::to_string(settings.p1) + ", P2 = " +
                     std::to_string(settings.p2) + " (need P2 <= 191 and at most 256 disparities)");
  }
  if (settings.adaptive_p2 && guide == nullptr) {
    throw InputError("SGM: the adaptive P2 needs the guidance image.");
  }
  if (width <= 0 || height <= 0) return;
  if (scheduling.block_order == nullptr) {
    throw std::invalid_argument("sgm_path_costs: the free schedule needs a PathBlockOrder");
  }
  const PathCostArgs args{costs, guide, width, height, count, base, settings.p1, settings.p2,
                          settings.adaptive_p2 ? settings.p2_edge_scale : 0, path_costs,
                          settings.paths, nullptr, nullptr, {0, 0}, nullptr};
  const int cells = sgm_path_cells_per_lane(count);
  if (cells == 2) return launch<2>(args, scheduling, stream);
  if (cells == 4) return launch<4>(args, scheduling, stream);
  return launch<8>(args, scheduling, stream);
}

}  // namespace sv::cuda
