// Semi-global aggregation on the GPU; reproduces sgm_aggregation.cpp bit for bit (its header
// comment holds the exact definition: path order, first pixel L = C, per-pixel ranges with
// unavailable neighbours, min over the previous pixel's own candidates, adaptive P2, uint16 S).
//
// One warp walks one path (scanline) of one direction; lane l holds candidates k = j * 32 + l
// (j < kPerLane), so every global access of a step is coalesced. The previous pixel's L_r lives
// in a per-warp shared-memory row (ping-pong, padded with "unavailable"), which serves the
// d - 1, d, d + 1 look-ups for any base shift between neighbouring pixels. One launch per
// direction: the first writes S = L_r, the later ones add, each pixel's S owned by one lane.
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/sgm_path_geometry.cuh"
#include "cuda/warp_min.cuh"
#include "cuda/stages.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 4;
// Steps loaded ahead of the one being computed: hides global-memory latency along the path.
constexpr int kPrefetch = 4;
// An unavailable L_r entry: far above any path cost (<= 510) plus P1, far from int overflow.
constexpr int kUnavailable = 1 << 24;
// Unavailable entries on each side of the previous pixel's row (indices -3 .. count + 2).
constexpr int kPad = 3;
constexpr int kMaxCount = 256;

struct PathArgs {
  const uint8_t* costs;
  const uint8_t* guide;  // read only when edge_scale > 0
  int width;
  int height;
  int count;
  int uniform_base;
  const int16_t* per_pixel_base;  // null: uniform
  int dx;
  int dy;
  int p1;
  int p2;
  int edge_scale;   // 0: constant P2; otherwise Hirschmueller's adapted P2 with this scale
  bool accumulate;  // false: S = L_r (first direction); true: S += L_r
  uint16_t* sum;
};

// Designed around latency: each warp runs a long dependent chain of steps, so the next
// kPrefetch pixels' costs, sums, bases and guide values are loaded ahead in registers; the
// per-step work (3 shared reads and a few integer ops per candidate, one warp min) is small.
template <int kPerLane>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize)
    sgm_direction_kernel(PathArgs a) {
  constexpr int kSlots = kPerLane * kWarpSize + 2 * kPad;
  __shared__ int rows[kWarpsPerBlock][2][kSlots];

  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int path = blockIdx.x * kWarpsPerBlock + warp;
  const SgmDirection dir{a.dx, a.dy};
  if (path >= sgm_path_count(dir, a.width, a.height)) return;  // whole warp; no block sync below
  const SgmPath geometry = sgm_path(dir, path, a.width, a.height);
  const int x0 = geometry.x0, y0 = geometry.y0, length = geometry.length;
  const int start_pixel = y0 * a.width + x0;
  const int pixel_step = a.dy * a.width + a.dx;

  for (int i = lane; i < 2 * kSlots; i += kWarpSize) (&rows[warp][0][0])[i] = kUnavailable;
  __syncwarp();

  int cost_ahead[kPrefetch][kPerLane];
  int sum_ahead[kPrefetch][kPerLane];
  int base_ahead[kPrefetch];
  int guide_ahead[kPrefetch];
  auto load_step = [&](int n, int (&cost)[kPerLane], int (&sum)[kPerLane], int& base, int& guide) {
    if (n >= length) return;
    const int pixel = start_pixel + n * pixel_step;
    const uint8_t* c = a.costs + static_cast<size_t>(pixel) * a.count;
    const uint16_t* s = a.sum + static_cast<size_t>(pixel) * a.count;
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) {
      const int k = j * kWarpSize + lane;
      if (k < a.count) {
        cost[j] = __ldg(c + k);
        sum[j] = a.accumulate ? s[k] : 0;
      }
    }
    base = a.per_pixel_base ? __ldg(a.per_pixel_base + pixel) : a.uniform_base;
    guide = a.edge_scale > 0 ? __ldg(a.guide + pixel) : 0;
  };
#pragma unroll
  for (int u = 0; u < kPrefetch; ++u) {
    load_step(u, cost_ahead[u], sum_ahead[u], base_ahead[u], guide_ahead[u]);
  }

  int prev_min = 0;
  int prev_base = 0;
  int prev_guide = 0;
  int parity = 0;
  for (int first = 0; first < length; first += kPrefetch) {
#pragma unroll
    for (int u = 0; u < kPrefetch; ++u) {
      const int n = first + u;
      if (n >= length) break;
      const int* prev = &rows[warp][parity][kPad];
      int* cur = &rows[warp][parity ^ 1][kPad];
      const int base = base_ahead[u];
      const int guide = guide_ahead[u];
      int p2 = a.p2;
      if (a.edge_scale > 0) {
        p2 = max(a.p1, a.p2 * a.edge_scale / (a.edge_scale + abs(guide - prev_guide)));
      }
      // Candidate k of p is disparity base + k, candidate k + shift of the previous pixel.
      const int shift = base - prev_base;
      const int jump = prev_min + p2;
      uint16_t* out = a.sum + static_cast<size_t>(start_pixel + n * pixel_step) * a.count;
      int local_min = kUnavailable;
#pragma unroll
      for (int j = 0; j < kPerLane; ++j) {
        const int k = j * kWarpSize + lane;
        if (k < a.count) {
          int l = cost_ahead[u][j];
          if (n > 0) {
            // Clamping to [-2, count + 1] keeps the reads in the pads and changes nothing.
            const int idx = min(max(k + shift, -2), a.count + 1);
            const int best = min(jump, min(prev[idx], min(prev[idx - 1], prev[idx + 1]) + a.p1));
            l += best - prev_min;
          }
          cur[k] = l;
          local_min = min(local_min, l);
          out[k] = static_cast<uint16_t>(a.accumulate ? sum_ahead[u][j] + l : l);
        }
      }
      prev_min = warp_min(local_min);
      __syncwarp();  // cur complete before it is read; prev fully read before it is rewritten
      parity ^= 1;
      prev_base = base;
      prev_guide = guide;
      load_step(n + kPrefetch, cost_ahead[u], sum_ahead[u], base_ahead[u], guide_ahead[u]);
    }
  }
}

template <int kPerLane>
void launch_directions(PathArgs args, int paths, cudaStream_t stream) {
  for (int i = 0; i < paths; ++i) {
    args.dx = sgm_direction(i).dx;
    args.dy = sgm_direction(i).dy;
    args.accumulate = i > 0;
    const int count = sgm_path_count(sgm_direction(i), args.width, args.height);
    const int blocks = (count + kWarpsPerBlock - 1) / kWarpsPerBlock;
    sgm_direction_kernel<kPerLane><<<blocks, kWarpsPerBlock * kWarpSize, 0, stream>>>(args);
    SV_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

void sgm_aggregate(const uint8_t* costs, const uint8_t* guide, int width, int height,
                   DeviceSearchRange range, const SgmSettings& settings, uint16_t* aggregated,
                   cudaStream_t stream) {
  if (settings.paths != 4 && settings.paths != 8) {
    throw InputError("SGM paths must be 4 or 8, got " + std::to_string(settings.paths) + ".");
  }
  if (settings.p1 < 0 || settings.p1 > 255 || settings.p2 < 0 || settings.p2 > 255) {
    throw InputError("SGM penalties P1 and P2 must lie in 0..255, got P1 = " +
                     std::to_string(settings.p1) + ", P2 = " + std::to_string(settings.p2) + ".");
  }
  if (settings.adaptive_p2 && settings.p2_edge_scale < 1) {
    throw InputError("SGM p2_edge_scale must be at least 1, got " +
                     std::to_string(settings.p2_edge_scale) + ".");
  }
  if (settings.adaptive_p2 && guide == nullptr) {
    throw InputError("SGM: the adaptive P2 needs the guidance image.");
  }
  if (range.count > kMaxCount) {
    throw InputError("CUDA SGM supports at most " + std::to_string(kMaxCount) +
                     " disparities, got " + std::to_string(range.count) + ".");
  }
  if (width <= 0 || height <= 0 || range.count <= 0) return;

  PathArgs args{};
  args.costs = costs;
  args.guide = guide;
  args.width = width;
  args.height = height;
  args.count = range.count;
  args.uniform_base = range.uniform_base;
  args.per_pixel_base = range.per_pixel_base;
  args.p1 = settings.p1;
  args.p2 = settings.p2;
  args.edge_scale = settings.adaptive_p2 ? settings.p2_edge_scale : 0;
  args.sum = aggregated;

  // The single run-time -> compile-time dispatch: candidates per lane for the padded count.
  if (range.count <= 32) return launch_directions<1>(args, settings.paths, stream);
  if (range.count <= 64) return launch_directions<2>(args, settings.paths, stream);
  if (range.count <= 128) return launch_directions<4>(args, settings.paths, stream);
  return launch_directions<8>(args, settings.paths, stream);
}

}  // namespace sv::cuda
