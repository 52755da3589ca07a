// Semi-global aggregation (sgm_aggregation.cpp's EXACT DEFINITION) with SIMD over candidates.
//
// One path step is, for a whole vector of candidates k at once,
//   L(k) = C(k) + min(Lq(k+s), Lq(k+s-1) + P1, Lq(k+s+1) + P1, minLq + P2') - minLq
// with s = base(p) - base(q) (0 for a uniform range). q's path costs live in a buffer padded on
// both sides (and past count) with kUnavailable, so the unaligned loads at k+s-1 .. k+s+1 read
// "unavailable" exactly where the definition leaves a term out; s is clamped to
// [-(count+2), count+2], beyond which every term but the P2 one is unavailable anyway.
// All values fit 16-bit lanes: L <= 510, S <= 4080, kUnavailable + P1 < 32768.
//
// Order: the two horizontal directions row by row (rows in parallel), storing S; then one sweep
// down the image for the paths coming from above and one up for those from below, adding to S.
// A sweep keeps one slot of path costs per path: the path through (x, y) in direction (dx, dy)
// uses slot x - dx*dy*y (mod width + 1), the slot its predecessor (x - dx, y - dy) wrote, so a
// row's pixels are independent and threads split each row, meeting after it (RowBarrier).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_sgm.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_sgm.h"
#include "src/cpu_fast/row_barrier.h"

#ifndef SV_FAST_SGM_SHARED
#define SV_FAST_SGM_SHARED
namespace sv {
namespace sgm_detail {

constexpr int16_t kUnavailable = 0x3FFF;

struct Direction {
  int dx;
  int dy;
};

// Everything a path step needs besides the SIMD code.
struct Pass {
  const PaddedVolume<uint8_t>* costs;
  const ImageI16* bases;
  const ImageU8* guide;
  SgmSettings settings;
  int pad;        // unavailable entries before and after each slot's stride
  int slot_size;  // pad + stride + pad
  PaddedVolume<int16_t>* sum;

  int p2(int x, int y, int qx, int qy) const {
    if (!settings.adaptive_p2) return settings.p2;
    const int step = std::abs(static_cast<int>(guide->at(x, y)) - static_cast<int>(guide->at(qx, qy)));
    return std::max(settings.p1, settings.p2 * settings.p2_edge_scale / (settings.p2_edge_scale + step));
  }
  int shift(int x, int y, int qx, int qy) const {
    const int count = costs->count();
    return std::clamp(bases->at(x, y) - bases->at(qx, qy), -(count + 2), count + 2);
  }
};

}  // namespace sgm_detail
}  // namespace sv
#endif

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using sgm_detail::Direction;
using sgm_detail::kUnavailable;
using sgm_detail::Pass;

// How S takes a path's costs: the first direction stores, the others add.
enum class SumMode { Store, Add };

// The first pixel of a path: L = C. `cur` points at candidate 0 of a padded slot.
int FirstStep(const Pass& pass, int x, int y, int16_t* cur, SumMode mode) {
  const hn::ScalableTag<int16_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int n = static_cast<int>(hn::Lanes(d));
  const int count = pass.costs->count();
  const uint8_t* c = pass.costs->pixel(x, y);
  int16_t* sum = pass.sum->pixel(x, y);
  auto lowest = hn::Set(d, kUnavailable);
  for (int k = 0; k < pass.costs->stride(); k += n) {
    auto l = hn::PromoteTo(d, hn::LoadU(d8, c + k));
    l = hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(std::max(0, count - k))), l,
                       hn::Set(d, kUnavailable));
    hn::StoreU(l, d, cur + k);
    lowest = hn::Min(lowest, l);
    hn::StoreU(mode == SumMode::Store ? l : hn::Add(hn::LoadU(d, sum + k), l), d, sum + k);
  }
  return hn::GetLane(hn::MinOfLanes(d, lowest));
}

// One step from q's costs `prev` (candidate 0 of a padded slot) to p = (x, y); returns min L.
int PathStep(const Pass& pass, int x, int y, int qx, int qy, const int16_t* prev, int prev_min,
             int16_t* cur, SumMode mode) {
  const hn::ScalableTag<int16_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int n = static_cast<int>(hn::Lanes(d));
  const int count = pass.costs->count();
  const uint8_t* c = pass.costs->pixel(x, y);
  int16_t* sum = pass.sum->pixel(x, y);
  const int16_t* q = prev + pass.shift(x, y, qx, qy);
  const auto p1 = hn::Set(d, static_cast<int16_t>(pass.settings.p1));
  const auto jump = hn::Set(d, static_cast<int16_t>(prev_min + pass.p2(x, y, qx, qy)));
  const auto previous_min = hn::Set(d, static_cast<int16_t>(prev_min));
  const auto unavailable = hn::Set(d, kUnavailable);
  auto lowest = unavailable;
  for (int k = 0; k < pass.costs->stride(); k += n) {
    const auto same = hn::LoadU(d, q + k);
    const auto step = hn::Add(hn::Min(hn::LoadU(d, q + k - 1), hn::LoadU(d, q + k + 1)), p1);
    const auto best = hn::Min(jump, hn::Min(same, step));
    auto l = hn::Sub(hn::Add(hn::PromoteTo(d, hn::LoadU(d8, c + k)), best), previous_min);
    l = hn::IfThenElse(hn::FirstN(d, static_cast<size_t>(std::max(0, count - k))), l, unavailable);
    hn::StoreU(l, d, cur + k);
    lowest = hn::Min(lowest, l);
    hn::StoreU(mode == SumMode::Store ? l : hn::Add(hn::LoadU(d, sum + k), l), d, sum + k);
  }
  return hn::GetLane(hn::MinOfLanes(d, lowest));
}

// A slot: `pad` unavailable entries, the stride, `pad` more.
std::vector<int16_t> unavailable_slots(const Pass& pass, size_t slots) {
  return std::vector<int16_t>(slots * pass.slot_size, kUnavailable);
}

// Left to right (storing S) then right to left (adding) along row y.
void HorizontalRow(const Pass& pass, int y) {
  const int width = pass.costs->width();
  std::vector<int16_t> slots = unavailable_slots(pass, 2);
  int16_t* prev = slots.data() + pass.pad;
  int16_t* cur = prev + pass.slot_size;
  int prev_min = FirstStep(pass, 0, y, prev, SumMode::Store);
  for (int x = 1; x < width; ++x) {
    prev_min = PathStep(pass, x, y, x - 1, y, prev, prev_min, cur, SumMode::Store);
    std::swap(prev, cur);
  }
  prev_min = FirstStep(pass, width - 1, y, prev, SumMode::Add);
  for (int x = width - 2; x >= 0; --x) {
    prev_min = PathStep(pass, x, y, x + 1, y, prev, prev_min, cur, SumMode::Add);
    std::swap(prev, cur);
  }
}

// The paths of `directions` (all with the same dy) over the whole image, row after row,
// `threads` threads splitting each row.
void VerticalSweep(const Pass& pass, const std::vector<Direction>& directions, int threads) {
  const int width = pass.costs->width();
  const int height = pass.costs->height();
  const int dy = directions.front().dy;
  const int slots_per_direction = width + 1;
  std::vector<int16_t> slots = unavailable_slots(pass, directions.size() * slots_per_direction);
  std::vector<int> slot_min(directions.size() * slots_per_direction, 0);
  RowBarrier barrier(threads);
  auto work = [&](int t) {
    const int x_begin = static_cast<int>(static_cast<long long>(width) * t / threads);
    const int x_end = static_cast<int>(static_cast<long long>(width) * (t + 1) / threads);
    std::vector<int16_t> scratch = unavailable_slots(pass, 1);
    int16_t* cur = scratch.data() + pass.pad;
    const size_t copy_bytes = sizeof(int16_t) * pass.costs->stride();
    for (int i = 0; i < height; ++i) {
      const int y = dy > 0 ? i : height - 1 - i;
      for (int x = x_begin; x < x_end; ++x) {
        for (size_t r = 0; r < directions.size(); ++r) {
          const Direction dir = directions[r];
          int slot = (x - dir.dx * dir.dy * y) % slots_per_direction;
          if (slot < 0) slot += slots_per_direction;
          const size_t index = r * slots_per_direction + slot;
          int16_t* path = slots.data() + index * pass.slot_size + pass.pad;
          const int qx = x - dir.dx, qy = y - dir.dy;
          const bool first = qx < 0 || qx >= width || qy < 0 || qy >= height;
          if (first) {
            slot_min[index] = FirstStep(pass, x, y, path, SumMode::Add);
          } else {
            slot_min[index] = PathStep(pass, x, y, qx, qy, path, slot_min[index], cur, SumMode::Add);
            std::memcpy(path, cur, copy_bytes);
          }
        }
      }
      if (threads > 1) barrier.arrive_and_wait();
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0);
  for (auto& helper : helpers) helper.join();
}

void AggregateAll(const Pass& pass, int threads) {
  parallel_for(0, pass.costs->height(), [&](int y) { HorizontalRow(pass, y); });
  std::vector<Direction> down = {{0, 1}};
  std::vector<Direction> up = {{0, -1}};
  if (pass.settings.paths == 8) {
    down.insert(down.end(), {{1, 1}, {-1, 1}});
    up.insert(up.end(), {{1, -1}, {-1, -1}});
  }
  VerticalSweep(pass, down, threads);
  VerticalSweep(pass, up, threads);
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(AggregateAll);

PaddedVolume<int16_t> fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs,
                                         const SearchRange& range, const ImageU8& left,
                                         const SgmSettings& settings) {
  if (settings.paths != 4 && settings.paths != 8) {
    throw InputError("SGM paths must be 4 or 8, got " + std::to_string(settings.paths) + ".");
  }
  if (settings.p1 < 0 || settings.p1 > 255 || settings.p2 < 0 || settings.p2 > 255) {
    throw InputError("SGM penalties P1 and P2 must lie in 0..255, got P1 = " +
                     std::to_string(settings.p1) + ", P2 = " + std::to_string(settings.p2) + ".");
  }
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
  PaddedVolume<int16_t> sum(costs.width(), costs.height(), range);
  if (costs.width() == 0 || costs.height() == 0 || costs.count() == 0) return sum;
  const ImageI16 bases = base_plane(range, costs.width(), costs.height());
  sgm_detail::Pass pass{&costs, &bases, &left, settings, 0, 0, &sum};
  // Shifted reads reach count + 3 entries beyond either end of the candidates (file comment);
  // a uniform range never shifts, so one entry each side is read.
  const int reach = range.is_uniform() ? 1 : costs.count() + 3;
  pass.pad = (reach + kVolumeLaneAlign - 1) / kVolumeLaneAlign * kVolumeLaneAlign;
  pass.slot_size = 2 * pass.pad + costs.stride();
  // Each thread needs a useful share of a row, or the per-row meeting costs more than it saves.
  const int threads = std::max(1, std::min(worker_count(), costs.width() / 32));
  HWY_DYNAMIC_DISPATCH(AggregateAll)(pass, threads);
  return sum;
}

}  // namespace sv
#endif  // HWY_ONCE
