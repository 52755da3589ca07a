// Census- and rank-SGM with the fused selection in two sweeps over the rows, S summed on chip
// (issue 21): sgm_aggregation.cpp's L_r and winner_takes_all.cpp's decisions, bit for bit, for a
// uniform range where every L_r fits a byte (sgm_path_costs_supported), without a path volume
// per direction. An alternative form of FastSgm, taken only when asked: on the H200 it is slower
// than the volumes form at every size measured (docs/performance.md, ledger: sweeps-form).
//
// Why it was built: sgm_path_costs.cu stores each direction's L_r as a byte volume and the
// selection reads all of them back, 16 bytes a cell (4.2 GB a frame at 1920x1080 D128). Here
//  - the horizontal walks write their two byte volumes;
//  - the down sweep walks each column's vertical path and both downward diagonals, row after row,
//    summed in registers into a 16-bit partial S that is written once;
//  - the up sweep walks the three upward directions, adds the partial S and the horizontal
//    volumes, and selects on the spot (winner, uniqueness, subpixel, cost peaks, the right view's
//    offers): the whole S never reaches memory.
// That is 4 + 4 bytes a cell besides the costs. What it costs instead: every row of a sweep is a
// block-wide step (a barrier, a chain of dependent shuffles and minima, and in the up sweep the
// selection's), about 1 us a row on the H200, so a sweep of 1080 rows takes about 1 ms whatever
// the bandwidth saved.
//
// Layout: a block owns a strip of columns and walks every row; G lanes share a column's
// candidates, 16 each as eight registers of two 16-bit values (low half: even candidate). A
// diagonal moves one column a row: it passes between a strip's columns through shared memory, and
// between strips once a tile of `halo` rows: each strip also walks its diagonals in `halo` halo
// columns on either side, started at each tile from the values its neighbours published for the
// tile's previous row; the halo's cells shrink by one a row (a triangle), and only a valid cell
// ever feeds another. A strip waits only for its two neighbours, so every strip of a sweep must be
// resident at once: the host checks that, and FastSgm takes the volumes where it cannot be (or
// where a block would need more than kMaxThreads threads: 256 candidates from 1280 columns up,
// 128 candidates at 3840 columns).
// The warps are split by role: walkers (the strip's columns), halo walkers, and in the up sweep
// selectors, which select the previous row's pixels from the S the walkers left in shared memory
// while the walkers take the next row. The inputs of the rows ahead (costs; in the up sweep the
// partial S and the horizontal path costs) stream into shared memory with asynchronous copies,
// each lane reading back only its own.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "cuda/selection_keys.cuh"
#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kLaneCandidates = 16;
constexpr int kLaneWords = kLaneCandidates / 2;  // two 16-bit values a register
// An unavailable path cost: above any real one (<= 255) plus P1, and x2 stays below 0x8000.
constexpr uint32_t kUnavailable = 0x3FFF;
constexpr uint32_t kUnavailablePair = kUnavailable * 0x10001u;
// 16-byte chunks a lane streams in per row: the costs; in the up sweep also the partial S (two)
// and the two horizontal path costs.
constexpr int kDownChunks = 1;
constexpr int kUpChunks = 5;

enum class Sweep { kDown, kUp };

// A block's threads and where its shared memory goes (16-byte units); the host sizes the launch
// with it. Walkers first (columns x G lanes: left halo, strip, right halo), then the selectors.
struct SweepLayout {
  int walkers, selectors, columns, halo, strip, slots, chunks, span;
  bool offers;

  __host__ __device__ int threads() const { return walkers + selectors; }
  __host__ __device__ int diagonal_units() const { return halo > 0 ? 8 * walkers : 0; }
  __host__ __device__ int info_units() const { return halo > 0 ? (4 * columns + 3) / 4 : 0; }
  __host__ __device__ int input_units() const { return slots * chunks * walkers; }
  __host__ __device__ int sum_units() const { return 4 * selectors; }
  __host__ __device__ int offer_units() const { return offers ? (2 * span + 3) / 4 : 0; }
  __host__ __device__ int jump_units() const { return 256 / 4; }
  __host__ __device__ size_t bytes() const {
    return 16u * static_cast<size_t>(diagonal_units() + info_units() + input_units() + sum_units() +
                                     offer_units() + jump_units());
  }
};

struct SweepArgs {
  const uint8_t* costs;  // [pixel][stride], padding cells kMaxMatchCost
  const uint8_t* guide;  // left image, read with the adaptive P2
  int width, height;
  int stride;  // candidates a pixel in every volume (32 * sgm_path_cells_per_lane(count))
  int count, base;
  int p1, p2, edge_scale;  // edge_scale 0: constant P2
  int strips;
  SweepLayout layout;
  uint16_t* partial;          // the down sweep's S [pixel][stride]
  const uint8_t* horizontal;  // left->right, then right->left path costs [pixel][stride] each
  // Between strips: the diagonals' last row of a tile, [parity][strip][side][column][stride]
  // 16-bit values (side 0: the direction coming from the left, for the next strip), and each
  // column's minimum | guide << 16; progress[strip] counts the tiles a strip published.
  uint16_t* exchange;
  int* exchange_info;
  unsigned* progress;
  // The up sweep's selection (disparity_selection.cu's SelectArgs).
  int uniqueness;
  bool subpixel;
  int cost_limit;
  uint32_t* right_view_keys;  // null: no right view
  int16_t* disparity_fixed;
  float2* peaks;   // null: none
  uint16_t* sums;  // null: none; else S itself [pixel][stride] (tests)
};

__device__ __forceinline__ void copy_async16(uint4* shared, const void* global, bool fetch) {
#if __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(global),
               "r"(fetch ? 16 : 0)
               : "memory");
#else
  *shared = fetch ? __ldg(static_cast<const uint4*>(global)) : make_uint4(0, 0, 0, 0);
#endif
}

__device__ __forceinline__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `pending` (0..7) of this thread's copy groups are still in flight.
__device__ __forceinline__ void wait_copies(int pending) {
#if __CUDA_ARCH__ >= 800
  switch (pending) {
    case 0: asm volatile("cp.async.wait_group 0;\n" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;\n" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;\n" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;\n" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;\n" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;\n" ::: "memory"); break;
    case 6: asm volatile("cp.async.wait_group 6;\n" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 7;\n" ::: "memory"); break;
  }
#endif
}

// A strip's progress for its neighbours: the release store publishes every write the block made
// before its last barrier (the barrier orders them before this thread's store); the neighbour's
// acquire load then sees them.
__device__ __forceinline__ void release_progress(unsigned* progress, unsigned tiles) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(progress), "r"(tiles) : "memory");
}

__device__ __forceinline__ unsigned acquire_progress(const unsigned* progress) {
  unsigned tiles;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(tiles) : "l"(progress) : "memory");
  return tiles;
}

// Sixteen 8-bit values (one chunk) as eight pairs of 16-bit values.
__device__ __forceinline__ void widen(const uint4& bytes, uint32_t (&words)[kLaneWords]) {
  const uint32_t w[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
#pragma unroll
  for (int i = 0; i < kLaneWords; ++i) words[i] = __byte_perm(w[i / 2], 0, (i % 2 == 0) ? 0x4140 : 0x4342);
}

__device__ __forceinline__ void unpack(const uint4& low, const uint4& high, uint32_t (&words)[kLaneWords]) {
  words[0] = low.x, words[1] = low.y, words[2] = low.z, words[3] = low.w;
  words[4] = high.x, words[5] = high.y, words[6] = high.z, words[7] = high.w;
}

// The candidates of a lane that lie beyond `count`: held at kUnavailable so they never win a min
// (cur & keep | kUnavailablePair & ~keep, one three-input logic instruction).
struct LanePadding {
  uint32_t keep[kLaneWords];

  // For lane g of a column (candidates g * 16 ...) and `count` real candidates.
  __device__ __forceinline__ static LanePadding of(int g, int count) {
    LanePadding pad;
#pragma unroll
    for (int i = 0; i < kLaneWords; ++i) {
      const int k = g * kLaneCandidates + 2 * i;
      pad.keep[i] = (k < count ? 0xFFFFu : 0u) | (k + 1 < count ? 0xFFFF0000u : 0u);
    }
    return pad;
  }
};

// The minimum over a column's G lanes (every lane gets it), a shuffle butterfly. (A redux over a
// column's lanes, one mask a column, ran the columns of a warp one after the other on the H200:
// the walks took twice as long.)
template <int G>
__device__ __forceinline__ uint32_t column_min(uint32_t value, int) {
#pragma unroll
  for (int offset = 1; offset < G; offset *= 2) value = min(value, __shfl_xor_sync(kFullMask, value, offset, G));
  return value;
}

// One step of N independent walks side by side: each walk's L_r for this lane's candidates from
// its previous pixel's (`prev`, with the column's minimum `prev_min`) and the step's costs (one
// row for every walk, or one each: NC = N), and
// the column's new minimum. Every lane of the warp takes part. The walks advance phase by phase
// (edge shuffles, arithmetic, minimum) so that their dependent chains overlap: the compiler keeps
// shuffles in program order, and a walk written after another would wait for its reduction.
template <int G, bool kPadded, int N, int NC = 1>
__device__ __forceinline__ void walk_steps(const uint32_t (&prev)[N][kLaneWords], const int (&prev_min)[N],
                                           const uint32_t (&cost)[NC][kLaneWords], const int (&jump)[N],
                                           uint32_t p1_pair, const LanePadding& pad, int lane,
                                           uint32_t (&cur)[N][kLaneWords], int (&cur_min)[N]) {
  const int g = lane % G;
  uint32_t below[N], above[N];
#pragma unroll
  for (int n = 0; n < N; ++n) {
    below[n] = __shfl_up_sync(kFullMask, prev[n][kLaneWords - 1], 1, G);
    above[n] = __shfl_down_sync(kFullMask, prev[n][0], 1, G);
  }
  uint32_t m[N];
#pragma unroll
  for (int n = 0; n < N; ++n) {
    const uint32_t jump_pair = static_cast<uint32_t>(prev_min[n] + jump[n]) * 0x10001u;
    const uint32_t min_pair = static_cast<uint32_t>(prev_min[n]) * 0x10001u;
    const uint32_t lowest = g == 0 ? kUnavailablePair : below[n];
    const uint32_t highest = g == G - 1 ? kUnavailablePair : above[n];
#pragma unroll
    for (int i = 0; i < kLaneWords; ++i) {
      const uint32_t lower = i == 0 ? lowest : prev[n][i - 1];
      const uint32_t upper = i == kLaneWords - 1 ? highest : prev[n][i + 1];
      const uint32_t minus = __byte_perm(lower, prev[n][i], 0x5432);  // L(k - 1) per half
      const uint32_t plus = __byte_perm(prev[n][i], upper, 0x5432);   // L(k + 1) per half
      const uint32_t best = __viaddmin_u16x2(__vminu2(minus, plus), p1_pair, __vminu2(prev[n][i], jump_pair));
      // best >= prev_min in each half, so plain 32-bit arithmetic cannot borrow across halves.
      uint32_t value = cost[NC == 1 ? 0 : n][i] + best - min_pair;
      if constexpr (kPadded) value = (value & pad.keep[i]) | (kUnavailablePair & ~pad.keep[i]);
      cur[n][i] = value;
    }
    const uint32_t pair = __vimin3_u16x2(__vimin3_u16x2(cur[n][0], cur[n][1], cur[n][2]),
                                         __vimin3_u16x2(cur[n][3], cur[n][4], cur[n][5]),
                                         __vminu2(cur[n][6], cur[n][7]));
    m[n] = min(pair & 0xFFFFu, pair >> 16);
  }
#pragma unroll
  for (int offset = 1; offset < G; offset *= 2) {
#pragma unroll
    for (int n = 0; n < N; ++n) m[n] = min(m[n], __shfl_xor_sync(kFullMask, m[n], offset, G));
  }
#pragma unroll
  for (int n = 0; n < N; ++n) cur_min[n] = static_cast<int>(m[n]);
}

// Cell c (0..15) of a lane's words, for a c that differs between lanes: a tree of selects on the
// bits of c / 2 (a chain of selects became an indexed local-memory read).
__device__ __forceinline__ uint32_t cell_of(const uint32_t (&words)[kLaneWords], unsigned c) {
  const unsigned word = c / 2;
  const bool odd = word & 1u, second = word & 2u, upper = word & 4u;
  const uint32_t w01 = odd ? words[1] : words[0], w23 = odd ? words[3] : words[2];
  const uint32_t w45 = odd ? words[5] : words[4], w67 = odd ? words[7] : words[6];
  const uint32_t chosen = upper ? (second ? w67 : w45) : (second ? w23 : w01);
  return (c & 1u) ? chosen >> 16 : chosen & 0xFFFFu;
}

// The selection of one pixel from its S (disparity_selection.cu's select_segment_kernel for one
// pixel): writes its disparity and peaks and offers its candidates to the right view.
template <int G>
__device__ __forceinline__ void select_pixel(const SweepArgs& a, const uint32_t (&sum)[kLaneWords], int lane,
                                             bool in_image, size_t pixel, uint32_t* row_offers) {
  const int g = lane % G;
  uint32_t key_low[kLaneCandidates];  // the lane's candidates as keys' low byte, every bit for padding
#pragma unroll
  for (int i = 0; i < kLaneCandidates; ++i) {
    const int k = g * kLaneCandidates + i;
    key_low[i] = k < a.count ? static_cast<uint32_t>(k) : kNoOffer;
  }
  uint32_t key[kLaneCandidates];
#pragma unroll
  for (int i = 0; i < kLaneCandidates; ++i) key[i] = make_key(sum[i / 2], i % 2 == 1, key_low[i]);
  uint32_t lane_best = __vimin3_u32(key[0], key[1], key[2]);
  lane_best = __vimin3_u32(lane_best, key[3], key[4]);
  lane_best = min(__vimin3_u32(lane_best, key[5], key[6]),
                  __vimin3_u32(__vimin3_u32(key[7], key[8], key[9]), __vimin3_u32(key[10], key[11], key[12]),
                               __vimin3_u32(key[13], key[14], key[15])));
  const uint32_t best_key = column_min<G>(lane_best, lane);  // count >= 1: a real key
  const int kb = static_cast<int>(best_key & 0xFFu);
  const int best = static_cast<int>(best_key >> 8);
  bool valid = best <= a.cost_limit;
  const bool peaks = a.peaks != nullptr;
  float runner_up = INFINITY;
  if (a.uniqueness > 0 || peaks) {
    const int valley = kb + 1 - g * kLaneCandidates;  // cell i is in |k - kb| <= 1 when valley - i is 0..2
    uint32_t lane_other = kNoOffer;
#pragma unroll
    for (int i = 0; i < kLaneCandidates; ++i) {
      lane_other = static_cast<unsigned>(valley - i) > 2u ? min(lane_other, key[i]) : lane_other;
    }
    const uint32_t other = column_min<G>(lane_other, lane);
    const bool real_other = other < kRealKeyLimit;
    // Products below 2^24 (costs <= 0xFFFF): 32 bits hold them exactly.
    if (a.uniqueness > 0 && real_other &&
        (other >> 8) * static_cast<uint32_t>(100 - a.uniqueness) < static_cast<uint32_t>(best) * 100u) {
      valid = false;
    }
    if (real_other) runner_up = static_cast<float>(other >> 8);
  }
  int offset = 0;
  if (a.subpixel) {
    // The owners of kb - 1 and kb + 1 supply their costs; every lane joins both shuffles.
    const unsigned km = static_cast<unsigned>(max(kb - 1, 0));
    const unsigned kp = static_cast<unsigned>(min(kb + 1, a.count - 1));
    const int cm = static_cast<int>(
        __shfl_sync(kFullMask, cell_of(sum, km % kLaneCandidates), static_cast<int>(km / kLaneCandidates), G));
    const int cp = static_cast<int>(
        __shfl_sync(kFullMask, cell_of(sum, kp % kLaneCandidates), static_cast<int>(kp / kLaneCandidates), G));
    if (kb > 0 && kb < a.count - 1) offset = subpixel_offset(best, cm, cp);
  }
  if (!in_image) return;
  if (g == 0) {
    a.disparity_fixed[pixel] =
        valid ? static_cast<int16_t>((a.base + kb) * kDisparityScale + offset) : kInvalidFixedDisparity;
    if (peaks) a.peaks[pixel] = make_float2(static_cast<float>(best), runner_up);
  }
  if (a.sums != nullptr) {
    uint4* to = reinterpret_cast<uint4*>(a.sums + pixel * a.stride + g * kLaneCandidates);
    to[0] = make_uint4(sum[0], sum[1], sum[2], sum[3]);
    to[1] = make_uint4(sum[4], sum[5], sum[6], sum[7]);
  }
  if (row_offers != nullptr) {
    // Candidate k = g * 16 + i offers right pixel x - base - k, at row_offers - i.
#pragma unroll
    for (int i = 0; i < kLaneCandidates; ++i) {
      if (key_low[i] != kNoOffer) atomicMin(row_offers - i, key[i]);
    }
  }
}

#ifdef SV_SWEEP_PROFILE
__device__ long long g_sweep_profile[2][2][8];  // [sweep][walker, selector][phase] cycles
#define SV_PROF_MARK(i)                  \
  if (profiled) {                        \
    const long long now = clock64();     \
    profile[i] += now - profile_last;    \
    profile_last = now;                  \
  }
#else
#define SV_PROF_MARK(i)
#endif

// At most kMaxThreads a block, so that every thread may hold 128 registers.
constexpr int kMaxThreads = 512;

// A ring of `slots` input rows in shared memory, each lane's 16-byte chunks at a fixed place:
// the slot a step streams into and the slot it reads advance together, so no step divides.
struct InputRing {
  uint4* first;  // slot 0 of this lane
  int slot_units, slots;

  __device__ __forceinline__ uint4* at(int slot) const { return first + slot * slot_units; }
  __device__ __forceinline__ int after(int slot) const { return slot + 1 == slots ? 0 : slot + 1; }
};

template <int G, bool kDiagonals, bool kPadded, Sweep kSweep>
__global__ void __launch_bounds__(kMaxThreads, 1) sweep_kernel(SweepArgs a) {
  extern __shared__ uint4 shared[];
  constexpr int kColumnsPerWarp = kWarpSize / G;
  const SweepLayout& layout = a.layout;
  const int threads = layout.threads();
  const int columns = layout.columns;
  const int halo = kDiagonals ? layout.halo : 0;
  const int tile_rows = kDiagonals ? layout.halo : 1;  // a tile is as many rows as a halo's columns
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % kWarpSize;
  const int g = tid % G;  // lane within the column
  const int strip = static_cast<int>(blockIdx.x);
  const int x0 = strip * layout.strip;
  // The role of a warp (the same for its columns) and its column: walkers take columns
  // 0..columns-1 (halo, strip, halo); selectors the strip's columns again.
  const bool selector = tid >= layout.walkers;
  const int c = selector ? halo + (tid - layout.walkers) / G : tid / G;
  const int warp_column = selector ? 0 : ((tid / kWarpSize) * kColumnsPerWarp);
  const bool left_halo = !selector && warp_column < halo;
  const bool right_halo = !selector && warp_column >= halo + layout.strip;
  const bool walker = !selector && !left_halo && !right_halo;
  const int x = x0 - halo + c;
  const bool in_image = x >= 0 && x < a.width;
  // How far a halo warp's columns reach from the halo's outer edge: at tile row j a halo cell is
  // valid up to j columns from that edge (left: c > j, right: the mirror), a warp works while its
  // farthest column is.
  const int reach = left_halo ? c : (columns - 1) - c;
  const int warp_reach = left_halo ? warp_column + kColumnsPerWarp - 1 : (columns - 1) - warp_column;

  uint4* diagonals = shared;  // [buffer][side][column][half][g]
  int* info = reinterpret_cast<int*>(diagonals + layout.diagonal_units());  // [buffer][side][column]
  uint4* inputs = diagonals + layout.diagonal_units() + layout.info_units();  // [slot][chunk][walker]
  uint4* sums = inputs + layout.input_units();                               // [buffer][strip column][half][g]
  uint32_t* offers = reinterpret_cast<uint32_t*>(sums + layout.sum_units());  // [buffer][span]
  int* jump_table = reinterpret_cast<int*>(sums + layout.sum_units() + layout.offer_units());
  // Buffer b of a side's values at a column: diagonal_at(b, side, column) + half * G.
  const int diagonal_buffer = 2 * columns * 2 * G;  // units a buffer
  auto diagonal_at = [&](int buffer, int side, int column) {
    return diagonals + buffer * diagonal_buffer + ((side * columns + column) * 2) * G + g;
  };
  auto info_at = [&](int buffer, int side, int column) { return info + (buffer * 2 + side) * columns + column; };
  uint4* const sum_at = sums + ((c - halo) * 2) * G + g;  // buffer b at + b * 2 * strip * G
  const int sum_buffer = 2 * layout.strip * G;

  // Zeros stand for "no previous pixel": with prev 0 and minimum 0 a step gives L_r = C, as the
  // first pixel of a path. Columns outside the image are never written, so the diagonals that
  // enter the image at a side start there.
  for (int i = tid; i < layout.diagonal_units(); i += threads) diagonals[i] = make_uint4(0, 0, 0, 0);
  for (int i = tid; i < 4 * columns && kDiagonals; i += threads) info[i] = 0;
  for (int i = tid; i < 2 * layout.span && layout.offers; i += threads) offers[i] = kNoOffer;
  for (int d = tid; d < 256; d += threads) {
    jump_table[d] = a.edge_scale > 0 ? max(a.p1, a.p2 * a.edge_scale / (a.edge_scale + d)) : a.p2;
  }
  __syncthreads();

  const LanePadding pad = LanePadding::of(g, a.count);
  const uint32_t p1_pair = static_cast<uint32_t>(a.p1) * 0x10001u;
  const size_t volume = static_cast<size_t>(a.width) * a.height * a.stride;
  const int first_xr = x0 - a.base - (a.count - 1);  // the right pixel of offers[.][0]
  auto row_of = [&](int step) { return kSweep == Sweep::kDown ? step : a.height - 1 - step; };
  // Pixel steps: a row down (or up) in pixels, and in cells of a volume.
  const ptrdiff_t row_pixels = kSweep == Sweep::kDown ? a.width : -static_cast<ptrdiff_t>(a.width);
  const ptrdiff_t row_cells = row_pixels * a.stride;
  const size_t first_pixel = static_cast<size_t>(row_of(0)) * a.width + (in_image ? x : 0);
  const size_t lane_cell = first_pixel * a.stride + g * kLaneCandidates;

  // Streaming: step `fetched`'s inputs go into slot `fetch_slot` (an empty group past the last
  // row, or where a halo warp will not work at that row).
  const InputRing ring{inputs + tid, layout.chunks * layout.walkers, layout.slots};
  int fetched = 0, fetch_slot = 0, fetch_tile_row = 0;
  const uint8_t* fetch_costs = a.costs + lane_cell;
  const uint16_t* fetch_partial = a.partial + lane_cell;
  const uint8_t* fetch_horizontal = a.horizontal + lane_cell;
  auto fetch_next = [&]() {
    if (fetched < a.height && (walker || warp_reach > fetch_tile_row)) {
      uint4* slot = ring.at(fetch_slot);
      copy_async16(slot, fetch_costs, in_image);
      if (kSweep == Sweep::kUp && walker) {
        copy_async16(slot + layout.walkers, fetch_partial, in_image);
        copy_async16(slot + 2 * layout.walkers, fetch_partial + kLaneWords, in_image);
        copy_async16(slot + 3 * layout.walkers, fetch_horizontal, in_image);
        copy_async16(slot + 4 * layout.walkers, fetch_horizontal + volume, in_image);
      }
    }
    commit_copies();
    ++fetched;
    fetch_slot = ring.after(fetch_slot);
    fetch_tile_row = fetch_tile_row + 1 == tile_rows ? 0 : fetch_tile_row + 1;
    if (in_image) {
      fetch_costs += row_cells;
      fetch_partial += row_cells;
      fetch_horizontal += row_cells;
    }
  };
  // A right-view buffer's offers of row y into the keys image, leaving the buffer empty.
  auto flush_offers = [&](int step) {
    const int buffer = step & 1;
    uint32_t* row_keys = a.right_view_keys + static_cast<size_t>(row_of(step)) * a.width;
    for (int i = tid; i < layout.span; i += threads) {
      const uint32_t offer = offers[buffer * layout.span + i];
      if (offer == kNoOffer) continue;
      offers[buffer * layout.span + i] = kNoOffer;
      const int xr = first_xr + i;
      if (xr >= 0 && xr < a.width && offer < kRealKeyLimit) atomicMin(&row_keys[xr], offer);
    }
  };
  // A selector's pixel of step `step`, from the S its walker left in shared memory.
  auto select_step = [&](int step) {
    const int buffer = step & 1;
    uint32_t sum[kLaneWords];
    unpack(sum_at[buffer * sum_buffer], sum_at[buffer * sum_buffer + G], sum);
    const size_t pixel = static_cast<size_t>(row_of(step)) * a.width + x;
    uint32_t* row_offers =
        layout.offers ? offers + buffer * layout.span + (x - x0) + (a.count - 1) - g * kLaneCandidates : nullptr;
    select_pixel<G>(a, sum, lane, in_image, pixel, row_offers);
  };

  // The vertical walk's previous pixel, in registers (walkers).
  uint32_t vertical[kLaneWords] = {};
  int vertical_min = 0;
  int guide = 0, next_guide = 0, vertical_guide = 0;
  const bool adaptive = a.edge_scale > 0;
  const uint8_t* guide_at = a.guide + first_pixel;
  if (adaptive && in_image && !selector) next_guide = __ldg(guide_at);
  uint16_t* partial_out = a.partial + lane_cell;

  if (!selector) {
    for (int s = 0; s < layout.slots - 1; ++s) fetch_next();
  }
#ifdef SV_SWEEP_PROFILE
  const bool profiled = strip == a.strips / 2 && (tid == halo * G || (selector && tid == layout.walkers));
  long long profile[8] = {}, profile_last = clock64();
#endif
  int j = 0, tile = 0, slot = 0;  // the row within its tile, the tile, the input slot of the step
  for (int s = 0; s < a.height; ++s) {
#ifdef SV_SWEEP_PROFILE
    if (profiled) profile_last = clock64();
#endif
    const int buffer = s & 1, next = buffer ^ 1;
    if (kDiagonals && j == 0 && s > 0) {
      // A new tile: publish this strip's finished one, wait for the neighbours' and take their
      // last row's diagonals into the halo. The block's writes of the exchange precede the last
      // barrier, so one thread's release publishes them all.
      if (tid == 0) {
        release_progress(a.progress + strip, static_cast<unsigned>(tile));
        while ((strip > 0 && acquire_progress(a.progress + strip - 1) < static_cast<unsigned>(tile)) ||
               (strip + 1 < a.strips && acquire_progress(a.progress + strip + 1) < static_cast<unsigned>(tile))) {
        }
      }
      __syncthreads();
      const int parity = (tile - 1) & 1;
      const bool from_left = left_halo && strip > 0;
      const bool from_right = right_halo && strip + 1 < a.strips;
      if ((from_left || from_right) && in_image) {
        const int side = from_left ? 0 : 1;
        const int neighbour = from_left ? strip - 1 : strip + 1;
        const int i = from_left ? c : c - halo - layout.strip;
        const size_t at = ((static_cast<size_t>(parity * a.strips + neighbour) * 2 + side) * halo + i);
        const uint4* values = reinterpret_cast<const uint4*>(a.exchange + at * a.stride + g * kLaneCandidates);
        uint4* to = diagonal_at(buffer, side, c);
        to[0] = __ldcg(values);
        to[G] = __ldcg(values + 1);
        if (g == 0) *info_at(buffer, side, c) = __ldcg(a.exchange_info + at);
      }
      __syncthreads();
    }
    SV_PROF_MARK(0);

    if (selector) {
      if (s > 0) select_step(s - 1);
      SV_PROF_MARK(2);
    } else {
      fetch_next();
      wait_copies(layout.slots - 1);
      SV_PROF_MARK(1);
      if (adaptive) {
        guide = next_guide;
        guide_at += row_pixels;
        if (in_image && s + 1 < a.height) next_guide = __ldg(guide_at);
      }
      const uint4* inputs_now = ring.at(slot);
      // At a tile's last row the strip's outer columns publish their diagonals for the neighbours.
      const bool publish = kDiagonals && j == tile_rows - 1 && s + 1 < a.height && in_image;
      auto publish_diagonal = [&](int side, int i, const uint32_t (&values)[kLaneWords], int value_info) {
        const size_t at = (static_cast<size_t>((tile & 1) * a.strips + strip) * 2 + side) * halo + i;
        uint4* to = reinterpret_cast<uint4*>(a.exchange + at * a.stride + g * kLaneCandidates);
        to[0] = make_uint4(values[0], values[1], values[2], values[3]);
        to[1] = make_uint4(values[4], values[5], values[6], values[7]);
        if (g == 0) a.exchange_info[at] = value_info;
      };
      auto store_diagonal = [&](int side, const uint32_t (&values)[kLaneWords], int value_info) {
        uint4* to = diagonal_at(next, side, c);
        to[0] = make_uint4(values[0], values[1], values[2], values[3]);
        to[G] = make_uint4(values[4], values[5], values[6], values[7]);
        if (g == 0) *info_at(next, side, c) = value_info;
      };

      if (walker) {
        uint32_t cost[1][kLaneWords];
        widen(inputs_now[0], cost[0]);
        // The three walks of the column side by side (0: vertical, 1: from the left, 2: from the
        // right), then stored.
        uint32_t prev[3][kLaneWords], cur[3][kLaneWords];
        int prev_min[3] = {vertical_min, 0, 0}, jump[3], cur_min[3];
#pragma unroll
        for (int i = 0; i < kLaneWords; ++i) prev[0][i] = vertical[i];
        jump[0] = jump_table[abs(guide - vertical_guide)];
        if constexpr (kDiagonals) {
          const uint4* left = diagonal_at(buffer, 0, c - 1);
          const uint4* right = diagonal_at(buffer, 1, c + 1);
          unpack(left[0], left[G], prev[1]);
          unpack(right[0], right[G], prev[2]);
          const int left_info = *info_at(buffer, 0, c - 1), right_info = *info_at(buffer, 1, c + 1);
          prev_min[1] = left_info & 0xFFFF;
          prev_min[2] = right_info & 0xFFFF;
          jump[1] = jump_table[abs(guide - (left_info >> 16))];
          jump[2] = jump_table[abs(guide - (right_info >> 16))];
          walk_steps<G, kPadded, 3>(prev, prev_min, cost, jump, p1_pair, pad, lane, cur, cur_min);
        } else {
          walk_steps<G, kPadded, 1>(reinterpret_cast<const uint32_t(&)[1][kLaneWords]>(prev),
                                    reinterpret_cast<const int(&)[1]>(prev_min), cost,
                                    reinterpret_cast<const int(&)[1]>(jump), p1_pair, pad, lane,
                                    reinterpret_cast<uint32_t(&)[1][kLaneWords]>(cur),
                                    reinterpret_cast<int(&)[1]>(cur_min));
        }
        SV_PROF_MARK(2);
        uint32_t(&sum)[kLaneWords] = cur[0];
#pragma unroll
        for (int i = 0; i < kLaneWords; ++i) vertical[i] = cur[0][i];
        vertical_min = cur_min[0];
        vertical_guide = guide;
        if constexpr (kDiagonals) {
#pragma unroll
          for (int i = 0; i < kLaneWords; ++i) sum[i] += cur[1][i] + cur[2][i];
          if (in_image) {
            store_diagonal(0, cur[1], cur_min[1] | (guide << 16));
            store_diagonal(1, cur[2], cur_min[2] | (guide << 16));
          }
          const int i = c - halo;  // column within the strip
          if (publish && i >= layout.strip - halo) {
            publish_diagonal(0, i - (layout.strip - halo), cur[1], cur_min[1] | (guide << 16));
          }
          if (publish && i < halo) publish_diagonal(1, i, cur[2], cur_min[2] | (guide << 16));
        }
        if constexpr (kSweep == Sweep::kDown) {
          if (in_image) {
            uint4* to = reinterpret_cast<uint4*>(partial_out);
            to[0] = make_uint4(sum[0], sum[1], sum[2], sum[3]);
            to[1] = make_uint4(sum[4], sum[5], sum[6], sum[7]);
            partial_out += row_cells;
          }
        } else {
          // S = this sweep's directions + the down sweep's + the horizontal ones, for the selector.
          uint32_t partial[kLaneWords], left_to_right[kLaneWords], right_to_left[kLaneWords];
          unpack(inputs_now[layout.walkers], inputs_now[2 * layout.walkers], partial);
          widen(inputs_now[3 * layout.walkers], left_to_right);
          widen(inputs_now[4 * layout.walkers], right_to_left);
#pragma unroll
          for (int i = 0; i < kLaneWords; ++i) sum[i] += partial[i] + left_to_right[i] + right_to_left[i];
          uint4* to = sum_at + buffer * sum_buffer;
          to[0] = make_uint4(sum[0], sum[1], sum[2], sum[3]);
          to[G] = make_uint4(sum[4], sum[5], sum[6], sum[7]);
        }
      } else if (kDiagonals && warp_reach > j) {
        // A halo walks one diagonal.
        uint32_t cost[1][kLaneWords];
        widen(inputs_now[0], cost[0]);
        const int side = left_halo ? 0 : 1;
        const int from = left_halo ? max(c - 1, 0) : min(c + 1, columns - 1);
        uint32_t prev[1][kLaneWords], values[1][kLaneWords];
        const uint4* previous = diagonal_at(buffer, side, from);
        unpack(previous[0], previous[G], prev[0]);
        const int from_info = *info_at(buffer, side, from);
        const int prev_min[1] = {from_info & 0xFFFF}, jump[1] = {jump_table[abs(guide - (from_info >> 16))]};
        int value_min[1];
        walk_steps<G, kPadded, 1>(prev, prev_min, cost, jump, p1_pair, pad, lane, values, value_min);
        if (reach > j && in_image) store_diagonal(side, values[0], value_min[0] | (guide << 16));
      }
      slot = ring.after(slot);
    }
    SV_PROF_MARK(3);
    // The offers of the row selected in the previous step are complete since its barrier.
    if (kSweep == Sweep::kUp && layout.offers && s >= 2) flush_offers(s - 2);
    SV_PROF_MARK(4);
    __syncthreads();
    SV_PROF_MARK(5);
    if (++j == tile_rows) {
      j = 0;
      ++tile;
    }
  }
#ifdef SV_SWEEP_PROFILE
  if (profiled) {
    for (int i = 0; i < 8; ++i) g_sweep_profile[kSweep == Sweep::kUp][selector][i] = profile[i];
  }
#endif
  if constexpr (kSweep == Sweep::kUp) {
    if (selector && a.height > 0) select_step(a.height - 1);
    __syncthreads();
    if (layout.offers && a.height >= 2) flush_offers(a.height - 2);
    if (layout.offers && a.height >= 1) flush_offers(a.height - 1);
  }
  if (!selector) wait_copies(0);
}

// The horizontal walks of the sweeps form: G lanes a row as in the sweeps (so kColumnsPerWarp
// rows a warp), both directions of a row side by side, into two byte volumes (left->right,
// right->left) as sgm_path_costs.cu stores them. A row is independent of the others, so the
// warps run free: no barrier, each lane streaming its own costs kHorizontalSlots steps ahead.
constexpr int kHorizontalWarps = 4;
constexpr int kHorizontalSlots = 8;

struct HorizontalArgs {
  const uint8_t* costs;
  const uint8_t* guide;
  int width, height, stride, count;
  int p1, p2, edge_scale;
  uint8_t* path_costs;  // [direction][pixel][stride], directions 0 and 1
};

// Eight pairs of 16-bit path costs (each <= 255, the padding's 0x3FFF as 0xFF) as 16 bytes.
__device__ __forceinline__ uint4 narrow(const uint32_t (&words)[kLaneWords]) {
  return make_uint4(__byte_perm(words[0], words[1], 0x6420), __byte_perm(words[2], words[3], 0x6420),
                    __byte_perm(words[4], words[5], 0x6420), __byte_perm(words[6], words[7], 0x6420));
}

template <int G, bool kPadded>
__global__ void __launch_bounds__(kHorizontalWarps * kWarpSize) horizontal_kernel(HorizontalArgs a) {
  __shared__ uint4 ring[kHorizontalSlots][kHorizontalWarps][2][kWarpSize];
  constexpr int kRowsPerWarp = kWarpSize / G;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int g = lane % G;
  const int y = (static_cast<int>(blockIdx.x) * kHorizontalWarps + warp) * kRowsPerWarp + lane / G;
  const bool in_image = y < a.height;
  const size_t volume = static_cast<size_t>(a.width) * a.height * a.stride;
  const size_t row = static_cast<size_t>(in_image ? y : 0) * a.width;
  // Walk 0 goes right from x = 0, walk 1 left from x = width - 1: step t is at x = t and width-1-t.
  const uint8_t* load[2] = {a.costs + row * a.stride + g * kLaneCandidates,
                            a.costs + (row + a.width - 1) * a.stride + g * kLaneCandidates};
  uint8_t* store[2] = {a.path_costs + row * a.stride + g * kLaneCandidates,
                       a.path_costs + volume + (row + a.width - 1) * a.stride + g * kLaneCandidates};
  const ptrdiff_t step_cells[2] = {a.stride, -static_cast<ptrdiff_t>(a.stride)};
  const LanePadding pad = LanePadding::of(g, a.count);
  const uint32_t p1_pair = static_cast<uint32_t>(a.p1) * 0x10001u;
  const bool adaptive = a.edge_scale > 0;
  auto jump_of = [&](int guide, int prev_guide) {
    return adaptive ? max(a.p1, a.p2 * a.edge_scale / (a.edge_scale + abs(guide - prev_guide))) : a.p2;
  };

  int fetched = 0;
  auto fetch_next = [&]() {
    if (fetched < a.width) {
#pragma unroll
      for (int w = 0; w < 2; ++w) {
        copy_async16(&ring[fetched % kHorizontalSlots][warp][w][lane], load[w], in_image);
        load[w] += step_cells[w];
      }
    }
    commit_copies();
    ++fetched;
  };
  for (int t = 0; t < kHorizontalSlots - 1; ++t) fetch_next();

  uint32_t prev[2][kLaneWords] = {}, cur[2][kLaneWords], cost[2][kLaneWords];
  int prev_min[2] = {0, 0}, cur_min[2], jump[2] = {a.p2, a.p2};
  int prev_guide[2] = {0, 0};
  for (int t = 0; t < a.width; ++t) {
    fetch_next();
    wait_copies(kHorizontalSlots - 1);
#pragma unroll
    for (int w = 0; w < 2; ++w) widen(ring[t % kHorizontalSlots][warp][w][lane], cost[w]);
    if (adaptive && in_image) {
      const int guide[2] = {__ldg(a.guide + row + t), __ldg(a.guide + row + a.width - 1 - t)};
#pragma unroll
      for (int w = 0; w < 2; ++w) {
        jump[w] = jump_of(guide[w], prev_guide[w]);
        prev_guide[w] = guide[w];
      }
    }
    walk_steps<G, kPadded, 2, 2>(prev, prev_min, cost, jump, p1_pair, pad, lane, cur, cur_min);
#pragma unroll
    for (int w = 0; w < 2; ++w) {
      if (in_image) __stcs(reinterpret_cast<uint4*>(store[w]), narrow(cur[w]));
      store[w] += step_cells[w];
      prev_min[w] = cur_min[w];
#pragma unroll
      for (int i = 0; i < kLaneWords; ++i) prev[w][i] = cur[w][i];
    }
  }
  wait_copies(0);
}

// ---- host side ----

int lanes_per_column(int count) { return 32 * sgm_path_cells_per_lane(count) / kLaneCandidates; }

struct SweepPlan {
  bool usable = false;
  int lanes = 0;
  int strips = 0;
  SweepLayout down{}, up{};
};

// One opt-in record per sweep kernel, shared by the plan's occupancy check and the launch.
template <int G, bool kDiagonals, bool kPadded, Sweep kSweep>
void allow_sweep_shared(size_t bytes) {
  thread_local SharedMemoryOptIn opt_in;
  opt_in.allow(sweep_kernel<G, kDiagonals, kPadded, kSweep>, bytes);
}

template <int G, bool kDiagonals, bool kPadded, Sweep kSweep>
bool fits(const SweepLayout& layout, int strips, int sms, int optin) {
  if (layout.bytes() > static_cast<size_t>(optin) || layout.threads() > kMaxThreads) return false;
  const auto kernel = sweep_kernel<G, kDiagonals, kPadded, kSweep>;
  allow_sweep_shared<G, kDiagonals, kPadded, kSweep>(layout.bytes());
  int blocks_per_sm = 0;
  SV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, layout.threads(),
                                                              layout.bytes()));
  // Strips wait for their neighbours: with diagonals every strip must be resident at once.
  return blocks_per_sm > 0 && (!kDiagonals || static_cast<long>(blocks_per_sm) * sms >= strips);
}

template <int G, bool kDiagonals>
bool fits_all(const SweepPlan& p, int sms, int optin) {
  return fits<G, kDiagonals, false, Sweep::kDown>(p.down, p.strips, sms, optin) &&
         fits<G, kDiagonals, true, Sweep::kDown>(p.down, p.strips, sms, optin) &&
         fits<G, kDiagonals, false, Sweep::kUp>(p.up, p.strips, sms, optin) &&
         fits<G, kDiagonals, true, Sweep::kUp>(p.up, p.strips, sms, optin);
}

// Tile rows (= halo columns a side): fewer exchanges against more halo cells. 16 where a strip
// is at least that wide and the block stays within kMaxThreads, else 8; STEREOVIEW_SWEEP_TILE
// overrides it (8, 16 or 32) for measurements.
int tile_rows_for(int strip, int lanes) {
  const char* forced = std::getenv("STEREOVIEW_SWEEP_TILE");
  if (forced != nullptr) {
    const int rows = std::atoi(forced);
    if ((rows == 8 || rows == 16 || rows == 32) && rows <= strip) return rows;
  }
  return strip >= 16 && (strip + 2 * 16 + strip) * lanes <= kMaxThreads ? 16 : 8;
}

SweepPlan make_plan(int device, int width, int count, int paths, bool offers) {
  SweepPlan plan;
  const int lanes = lanes_per_column(count);
  const int columns_per_warp = kWarpSize / lanes;
  const bool diagonals = paths == 8;
  int sms = 0, optin = 0;
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // One strip an SM, at least 8 columns (a halo is fed by one neighbour), whole warps of columns.
  int strip = std::max({diagonals ? 8 : 1, columns_per_warp, (width + sms - 1) / sms});
  strip = (strip + columns_per_warp - 1) / columns_per_warp * columns_per_warp;
  const int halo = diagonals ? tile_rows_for(strip, lanes) : 0;
  plan.lanes = lanes;
  plan.strips = (width + strip - 1) / strip;
  const int columns = strip + 2 * halo;
  const int span = strip + count - 1;
  for (const int slots : {8, 6, 4, 3, 2}) {
    plan.down = SweepLayout{columns * lanes, 0, columns, halo, strip, slots, kDownChunks, span, false};
    plan.up = SweepLayout{columns * lanes, strip * lanes, columns, halo, strip, slots, kUpChunks, span, offers};
    bool ok = false;
    if (lanes == 4) ok = diagonals ? fits_all<4, true>(plan, sms, optin) : fits_all<4, false>(plan, sms, optin);
    if (lanes == 8) ok = diagonals ? fits_all<8, true>(plan, sms, optin) : fits_all<8, false>(plan, sms, optin);
    if (lanes == 16) ok = diagonals ? fits_all<16, true>(plan, sms, optin) : fits_all<16, false>(plan, sms, optin);
    if (ok) {
      plan.usable = true;
      return plan;
    }
  }
  return plan;
}

// The plan of the last frame shape asked for on this thread (a frame asks several times; the
// occupancy queries behind a plan cost tens of microseconds of host time).
SweepPlan plan_sweeps(int width, int count, int paths, bool offers) {
  struct Cached {
    int device = -1, width = 0, count = 0, paths = 0;
    bool offers = false;
    SweepPlan plan;
  };
  thread_local Cached cached;
  int device = 0;
  SV_CUDA_CHECK(cudaGetDevice(&device));
  if (cached.device != device || cached.width != width || cached.count != count ||
      cached.paths != paths || cached.offers != offers) {
    cached = Cached{device, width, count, paths, offers, make_plan(device, width, count, paths, offers)};
  }
  return cached.plan;
}

// Scratch: the exchange of both parities, the columns' info, and the progress of both sweeps.
size_t exchange_values(const SweepPlan& p, int stride) {
  return static_cast<size_t>(2) * p.strips * 2 * p.down.halo * stride;
}
size_t exchange_infos(const SweepPlan& p) { return static_cast<size_t>(2) * p.strips * 2 * p.down.halo; }

SweepArgs make_args(const SgmSweepFrame& f, const SweepPlan& plan) {
  const int stride = 32 * sgm_path_cells_per_lane(f.count);
  const size_t pixels = static_cast<size_t>(f.width) * f.height;
  SweepArgs a{};
  a.costs = f.costs;
  a.guide = f.guide;
  a.width = f.width;
  a.height = f.height;
  a.stride = stride;
  a.count = f.count;
  a.base = f.base;
  a.p1 = f.sgm.p1;
  a.p2 = f.sgm.p2;
  a.edge_scale = f.sgm.adaptive_p2 ? f.sgm.p2_edge_scale : 0;
  a.strips = plan.strips;
  a.partial = reinterpret_cast<uint16_t*>(f.volumes);
  a.horizontal = f.volumes + 2 * pixels * stride;
  a.exchange = reinterpret_cast<uint16_t*>(f.scratch);
  a.exchange_info = reinterpret_cast<int*>(a.exchange + exchange_values(plan, stride));
  a.progress = reinterpret_cast<unsigned*>(a.exchange_info + exchange_infos(plan));
  a.uniqueness = f.wta.uniqueness;
  a.subpixel = f.wta.subpixel;
  a.cost_limit = cost_limit_of(f.wta.max_cost);
  a.right_view_keys = f.lr_check ? f.right_view_keys : nullptr;
  a.disparity_fixed = f.disparity_fixed;
  a.peaks = f.peaks;
  a.sums = f.sums;
  return a;
}

template <Sweep kSweep>
void launch_sweep(SweepArgs a, const SweepPlan& plan, cudaStream_t stream) {
  a.layout = kSweep == Sweep::kDown ? plan.down : plan.up;
  a.layout.offers = a.layout.offers && a.right_view_keys != nullptr;  // the right view only for the LR check
  const bool diagonals = a.layout.halo > 0;
  const bool padded = a.count < a.stride;
  auto with_lanes = [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    auto run = [&](auto with_diagonals, auto with_padding) {
      constexpr bool kDiagonals = decltype(with_diagonals)::value, kPadded = decltype(with_padding)::value;
      allow_sweep_shared<G, kDiagonals, kPadded, kSweep>(a.layout.bytes());
      sweep_kernel<G, kDiagonals, kPadded, kSweep><<<plan.strips, a.layout.threads(), a.layout.bytes(), stream>>>(a);
      SV_CUDA_CHECK_LAUNCH();
    };
    using Yes = std::true_type;
    using No = std::false_type;
    if (diagonals) {
      padded ? run(Yes{}, Yes{}) : run(Yes{}, No{});
    } else {
      padded ? run(No{}, Yes{}) : run(No{}, No{});
    }
  };
  if (plan.lanes == 4) with_lanes(std::integral_constant<int, 4>{});
  if (plan.lanes == 8) with_lanes(std::integral_constant<int, 8>{});
  if (plan.lanes == 16) with_lanes(std::integral_constant<int, 16>{});
}

SweepPlan require_plan(const SgmSweepFrame& f) {
  if (!sgm_sweeps_supported(f.width, f.height, f.count, f.sgm)) {
    throw InputError("SGM sweeps do not support a " + std::to_string(f.width) + "x" +
                     std::to_string(f.height) + " frame with " + std::to_string(f.count) +
                     " disparities and these penalties on this GPU.");
  }
  return plan_sweeps(f.width, f.count, f.sgm.paths, true);
}

}  // namespace

bool sgm_sweeps_supported(int width, int height, int count, const SgmSettings& settings) {
  if (width < 1 || height < 1 || !sgm_path_costs_supported(count, settings)) return false;
  return plan_sweeps(width, count, settings.paths, true).usable;
}

size_t sgm_sweeps_volume_bytes(int width, int height, int count) {
  return static_cast<size_t>(4) * width * height * 32 * sgm_path_cells_per_lane(count);
}

size_t sgm_sweeps_scratch_bytes(int width, int count, const SgmSettings& settings) {
  const SweepPlan plan = plan_sweeps(width, count, settings.paths, true);
  const int stride = 32 * sgm_path_cells_per_lane(count);
  return exchange_values(plan, stride) * sizeof(uint16_t) + exchange_infos(plan) * sizeof(int) +
         2 * static_cast<size_t>(plan.strips) * sizeof(unsigned);
}

#ifdef SV_SWEEP_PROFILE
void sgm_sweeps_profile(long long (&cycles)[2][2][8]) {
  SV_CUDA_CHECK(cudaMemcpyFromSymbol(cycles, g_sweep_profile, sizeof(cycles)));
}
#endif

void sgm_sweep_horizontal(const SgmSweepFrame& f, cudaStream_t stream) {
  if (!sgm_path_costs_supported(f.count, f.sgm) || f.width < 1 || f.height < 1) {
    throw InputError("SGM sweeps: unsupported frame for the horizontal walks.");
  }
  const size_t pixels = static_cast<size_t>(f.width) * f.height;
  const int stride = 32 * sgm_path_cells_per_lane(f.count);
  const HorizontalArgs a{f.costs, f.guide, f.width, f.height, stride, f.count, f.sgm.p1, f.sgm.p2,
                         f.sgm.adaptive_p2 ? f.sgm.p2_edge_scale : 0, f.volumes + 2 * pixels * stride};
  const int lanes = lanes_per_column(f.count);
  const int rows_per_block = kHorizontalWarps * (kWarpSize / lanes);
  const int blocks = (f.height + rows_per_block - 1) / rows_per_block;
  const bool padded = f.count < stride;
  auto run = [&](auto kernel) {
    kernel<<<blocks, kHorizontalWarps * kWarpSize, 0, stream>>>(a);
    SV_CUDA_CHECK_LAUNCH();
  };
  if (lanes == 4) padded ? run(horizontal_kernel<4, true>) : run(horizontal_kernel<4, false>);
  if (lanes == 8) padded ? run(horizontal_kernel<8, true>) : run(horizontal_kernel<8, false>);
  if (lanes == 16) padded ? run(horizontal_kernel<16, true>) : run(horizontal_kernel<16, false>);
}

void sgm_sweep_down(const SgmSweepFrame& f, cudaStream_t stream) {
  const SweepPlan plan = require_plan(f);
  SweepArgs a = make_args(f, plan);
  // Both sweeps' progress counters start at zero (the up sweep's follow the down sweep's).
  SV_CUDA_CHECK(cudaMemsetAsync(a.progress, 0, 2 * sizeof(unsigned) * plan.strips, stream));
  launch_sweep<Sweep::kDown>(a, plan, stream);
}

void sgm_sweep_up(const SgmSweepFrame& f, cudaStream_t stream) {
  if (f.wta.uniqueness < 0 || f.wta.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " + std::to_string(f.wta.uniqueness) + ".");
  }
  const SweepPlan plan = require_plan(f);
  SweepArgs a = make_args(f, plan);
  a.progress += plan.strips;
  launch_sweep<Sweep::kUp>(a, plan, stream);
  if (f.lr_check) {
    lr_check_from_keys(f.disparity_fixed, f.right_view_keys, f.width, f.height, f.base, f.lr_max_diff, stream);
  }
}

}  // namespace sv::cuda
