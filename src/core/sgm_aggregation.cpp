// Semi-global aggregation of matching costs, the CPU reference.
//
// EXACT DEFINITION
//   Input: C(p, k), the cost of candidate k of pixel p, i.e. of disparity d = base(p) + k with
//   k in [0, count) (cost_volume.h). Output: S(p, k) = sum over the paths r of L_r(p, k), uint16,
//   laid out like C (same SearchRange).
//   Paths r = (dx, dy), in this order: 4 paths = (+1,0) left->right, (-1,0) right->left,
//   (0,+1) top->bottom, (0,-1) bottom->top; 8 paths = those plus (+1,+1), (-1,+1), (+1,-1),
//   (-1,-1). The order does not change S (integer sums).
//   Along a path, q = p - r is the previous pixel. Where q lies outside the image (the first
//   pixel of the path): L_r(p, k) = C(p, k). Otherwise (Banz eq. 4), in exact integer arithmetic,
//     L_r(p, k) = C(p, k) + min( Lq(d), Lq(d-1) + P1, Lq(d+1) + P1, minLq + P2' ) - minLq
//   where d = base(p) + k, Lq(d') = L_r(q, d' - base(q)) is available only when
//   d' - base(q) lies in [0, count) -- an unavailable term is left out of the min (+infinity) --
//   and minLq = min over q's own candidates i in [0, count) of L_r(q, i). For a uniform range
//   this is the standard recursion; the minLq + P2' term is always present, so 0 <= L_r - C <= P2'.
//   P2' = P2, or with adaptive_p2 (Hirschmueller's intensity-adapted penalty):
//     P2' = max(P1, floor(P2 * s / (s + |I(p) - I(q)|)))   with s = p2_edge_scale >= 1,
//   I = the `left` guidance image, integer division of non-negative values (floor). A step of
//   s grey levels halves P2; P2' never drops below P1.
//   Range: with C <= 255 and P2 <= 255 each L_r <= 510 and S <= 8 * 510 = 4080, so uint16 holds S.
//
// Parallelism: the directions run one after the other; within a direction every path is
// independent and touches each of its pixels once, so paths run in parallel and each adds its
// L_r into S only at its own pixels (no two threads write the same S entry). Only the previous
// pixel's L_r is kept per path (O(count) memory), never a full L volume.

#include "src/core/sgm_aggregation.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

struct Direction {
  int dx;
  int dy;
};

constexpr Direction kDirections[8] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                      {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

// Stands for an unavailable L_r entry; far above any real path cost (<= 510) plus P1, and far
// from int overflow.
constexpr int kUnavailable = 1 << 24;
// The previous pixel's costs are stored with this many unavailable entries on each side, so
// the three neighbours of any index j in [-2, count + 1] can be read without bounds checks.
constexpr int kPad = 3;

// The first pixel of every path of direction r: the pixels whose predecessor p - r lies outside.
std::vector<std::pair<int, int>> path_starts(Direction r, int width, int height) {
  std::vector<std::pair<int, int>> starts;
  const int first_x = r.dx > 0 ? 0 : width - 1;
  const int first_y = r.dy > 0 ? 0 : height - 1;
  if (r.dy != 0) {
    for (int x = 0; x < width; ++x) starts.emplace_back(x, first_y);
  }
  if (r.dx != 0) {
    for (int y = 0; y < height; ++y) {
      if (r.dy != 0 && y == first_y) continue;  // already started from the first row
      starts.emplace_back(first_x, y);
    }
  }
  return starts;
}

int penalty_p2(const SgmSettings& s, const ImageU8& left, int x, int y, int qx, int qy) {
  if (!s.adaptive_p2) return s.p2;
  const int step = std::abs(static_cast<int>(left.at(x, y)) - static_cast<int>(left.at(qx, qy)));
  return std::max(s.p1, s.p2 * s.p2_edge_scale / (s.p2_edge_scale + step));
}

// Walks one path from (x, y) in direction r, adding L_r into `sum` at every pixel it visits.
void aggregate_path(const CostVolume<uint8_t>& costs, const ImageU8& left, const SgmSettings& s,
                    Direction r, int x, int y, CostVolume<uint16_t>& sum) {
  const int count = costs.count();
  const SearchRange& range = costs.range();
  // prev[kPad + i] = L_r(q, i); the pads stay unavailable.
  std::vector<int> prev(count + 2 * kPad, kUnavailable);
  std::vector<int> cur(count + 2 * kPad, kUnavailable);

  // First pixel: L_r = C.
  int prev_min = kUnavailable;
  {
    const uint8_t* c = costs.pixel(x, y);
    uint16_t* out = sum.pixel(x, y);
    for (int k = 0; k < count; ++k) {
      prev[kPad + k] = c[k];
      prev_min = std::min(prev_min, static_cast<int>(c[k]));
      out[k] = static_cast<uint16_t>(out[k] + c[k]);
    }
  }

  for (int qx = x, qy = y, px = x + r.dx, py = y + r.dy;
       px >= 0 && px < costs.width() && py >= 0 && py < costs.height();
       qx = px, qy = py, px += r.dx, py += r.dy) {
    const int p2 = penalty_p2(s, left, px, py, qx, qy);
    // Candidate k of p is disparity base(p) + k, candidate k + shift of q.
    const int shift = range.base(px, py) - range.base(qx, qy);
    const uint8_t* c = costs.pixel(px, py);
    uint16_t* out = sum.pixel(px, py);
    const int jump = prev_min + p2;
    int cur_min = kUnavailable;
    for (int k = 0; k < count; ++k) {
      // q's candidates for d-1, d, d+1 are n[-1], n[0], n[1]. Clamping j to [-2, count + 1]
      // keeps the reads inside the pads and changes nothing: beyond [-1, count] all three are
      // unavailable anyway, leaving only the P2 term.
      const int j = std::clamp(k + shift, -2, count + 1);
      const int* n = prev.data() + kPad + j;
      const int best = std::min(jump, std::min(n[0], std::min(n[-1], n[1]) + s.p1));
      const int l = c[k] + best - prev_min;
      cur[kPad + k] = l;
      cur_min = std::min(cur_min, l);
      out[k] = static_cast<uint16_t>(out[k] + l);
    }
    std::swap(prev, cur);
    prev_min = cur_min;
  }
}

}  // namespace

CostVolume<uint16_t> sgm_aggregate(const CostVolume<uint8_t>& costs, const ImageU8& left,
                                   const SgmSettings& settings) {
  if (settings.paths != 4 && settings.paths != 8) {
    throw InputError("SGM paths must be 4 or 8, got " + std::to_string(settings.paths) + ".");
  }
  if (settings.p1 < 0 || settings.p1 > 255 || settings.p2 < 0 || settings.p2 > 255) {
    throw InputError("SGM penalties P1 and P2 must lie in 0..255, got P1 = " +
                     std::to_string(settings.p1) + ", P2 = " + std::to_string(settings.p2) + ".");
  }
  const SearchRange& range = costs.range();
  if (!range.is_uniform() && !range.per_pixel_base().same_size(costs.width(), costs.height())) {
    throw InputError("SGM: the per-pixel search range does not match the cost volume's size.");
  }
  if (settings.adaptive_p2) {
    if (settings.p2_edge_scale < 1) {
      throw InputError("SGM p2_edge_scale must be at least 1, got " +
                       std::to_string(settings.p2_edge_scale) + ".");
    }
    if (!left.same_size(costs.width(), costs.height())) {
      throw InputError("SGM: the guidance image for the adaptive P2 differs in size from the costs.");
    }
  }

  CostVolume<uint16_t> sum(costs.width(), costs.height(), range, 0);
  if (costs.width() == 0 || costs.height() == 0 || costs.count() == 0) return sum;

  for (int i = 0; i < settings.paths; ++i) {
    const Direction r = kDirections[i];
    const std::vector<std::pair<int, int>> starts = path_starts(r, costs.width(), costs.height());
    parallel_for(0, static_cast<int>(starts.size()), [&](int p) {
      aggregate_path(costs, left, settings, r, starts[p].first, starts[p].second, sum);
    });
  }
  return sum;
}

}  // namespace sv
