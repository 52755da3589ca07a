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
// Byte path costs: for a uniform range whose costs are at most max_cost with max_cost + P2 <= 255
// (census costs, 0..64, and P2 <= 191), every L fits a byte and the step runs on twice the lanes,
// with the same values as the definition (the arithmetic of cuda/sgm_path_costs.cu):
// minLq <= max_cost (the candidate where Lq is least has L = C there), so minLq + P2' <= 255;
// best = min(...) <= minLq + P2' then, and L = C + best - minLq <= max_cost + P2 <= 255.
// Lq + P1 is a saturating add: where it saturates, the true value is >= 255 >= minLq + P2', so
// the min is unchanged. Unavailable is 255, which likewise never beats minLq + P2'. Each L is
// widened to 16 bits only for the sum S. (A per-pixel range can shift every term out, leaving
// minLq + P2 alone, which may pass 255: it keeps 16-bit path costs.)
//
// Order: one sweep down the image (left to right along rows) for the paths that come from above
// or the left, and one sweep up (right to left) for the others, each on its own thread, every
// direction of a sweep at once per pixel (one cost load, one S access). Threads never wait on
// each other inside a sweep: on a shared, loaded machine a waiting thread loses a time slice.
// A sweep keeps one slot of path costs per path: the path through (x, y) in direction (dx, dy)
// uses slot x - dx*dy*y (mod width + 1), the slot its predecessor (x - dx, y - dy) wrote; a
// horizontal direction needs only one slot, its predecessor being the pixel just done.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_sgm.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_sgm.h"

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
  bool byte_path_costs;  // every L fits a byte (file comment)
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

// Where one direction's path through a pixel comes from, for the pixel steps.
template <typename T>
struct PathInput {
  const T* q;     // the predecessor's candidate 0, moved by the range shift; null: path start
  T p2_jump;      // minLq + P2'
  T prev_min;     // minLq
  T* cur;         // where L goes
};

// Every direction of a sweep at pixel (x, y) at once, 16-bit path costs: the pixel's costs are
// loaded once, the sum of their L is stored into (or with `add`, added into) `out`, and each
// direction's min over its L goes to `mins`.
struct WordStep {
  using Cost = int16_t;
  static constexpr Cost kNone = kUnavailable;

  void operator()(const Pass& pass, int x, int y, const PathInput<Cost>* inputs, size_t count_inputs,
                  PaddedVolume<int16_t>& out, bool add, int* mins) const {
    const hn::ScalableTag<int16_t> d;
    const hn::Rebind<uint8_t, decltype(d)> d8;
    const int n = static_cast<int>(hn::Lanes(d));
    const int count = pass.costs->count();
    const uint8_t* c = pass.costs->pixel(x, y);
    int16_t* sum = out.pixel(x, y);
    const auto p1 = hn::Set(d, static_cast<int16_t>(pass.settings.p1));
    const auto unavailable = hn::Set(d, kNone);
    decltype(hn::Zero(d)) lowest[4] = {unavailable, unavailable, unavailable, unavailable};
    for (int k = 0; k < pass.costs->stride(); k += n) {
      const auto candidates = hn::FirstN(d, static_cast<size_t>(std::max(0, count - k)));
      const auto cost = hn::PromoteTo(d, hn::LoadU(d8, c + k));
      auto total = add ? hn::LoadU(d, sum + k) : hn::Zero(d);
      for (size_t r = 0; r < count_inputs; ++r) {
        const PathInput<Cost>& in = inputs[r];
        auto l = cost;
        if (in.q != nullptr) {
          const int16_t* q = in.q + k;
          const auto step = hn::Add(hn::Min(hn::LoadU(d, q - 1), hn::LoadU(d, q + 1)), p1);
          const auto best = hn::Min(hn::Set(d, in.p2_jump), hn::Min(hn::LoadU(d, q), step));
          l = hn::Sub(hn::Add(cost, best), hn::Set(d, in.prev_min));
        }
        l = hn::IfThenElse(candidates, l, unavailable);
        hn::StoreU(l, d, in.cur + k);
        lowest[r] = hn::Min(lowest[r], l);
        total = hn::Add(total, l);
      }
      hn::StoreU(total, d, sum + k);
    }
    for (size_t r = 0; r < count_inputs; ++r) mins[r] = hn::GetLane(hn::MinOfLanes(d, lowest[r]));
  }
};

#if HWY_TARGET != HWY_SCALAR  // one lane has no halves to widen
// WordStep with byte path costs (file comment), on D8's lanes of uint8_t; the stride must be a
// multiple of them.
template <class D8>
struct ByteStep {
  using Cost = uint8_t;
  static constexpr Cost kNone = 255;

  void operator()(const Pass& pass, int x, int y, const PathInput<Cost>* inputs, size_t count_inputs,
                  PaddedVolume<int16_t>& out, bool add, int* mins) const {
    const D8 d8;
    const hn::Half<D8> dh;
    const hn::Rebind<int16_t, decltype(dh)> d16;
    const hn::Rebind<uint16_t, decltype(dh)> du16;
    const int n = static_cast<int>(hn::Lanes(d8));
    const int half = n / 2;
    const int count = pass.costs->count();
    const uint8_t* c = pass.costs->pixel(x, y);
    int16_t* sum = out.pixel(x, y);
    const auto p1 = hn::Set(d8, static_cast<uint8_t>(pass.settings.p1));
    const auto unavailable = hn::Set(d8, kNone);
    decltype(hn::Zero(d8)) lowest[4] = {unavailable, unavailable, unavailable, unavailable};
    for (int k = 0; k < pass.costs->stride(); k += n) {
      // Clamped: FirstN compares the count in the lanes' own type on some targets.
      const auto candidates = hn::FirstN(d8, static_cast<size_t>(std::clamp(count - k, 0, n)));
      const auto cost = hn::LoadU(d8, c + k);
      auto low = add ? hn::LoadU(d16, sum + k) : hn::Zero(d16);
      auto high = add ? hn::LoadU(d16, sum + k + half) : hn::Zero(d16);
      for (size_t r = 0; r < count_inputs; ++r) {
        const PathInput<Cost>& in = inputs[r];
        auto l = cost;
        if (in.q != nullptr) {
          const uint8_t* q = in.q + k;
          const auto step = hn::SaturatedAdd(hn::Min(hn::LoadU(d8, q - 1), hn::LoadU(d8, q + 1)), p1);
          const auto best = hn::Min(hn::Set(d8, in.p2_jump), hn::Min(hn::LoadU(d8, q), step));
          l = hn::Add(cost, hn::Sub(best, hn::Set(d8, in.prev_min)));
        }
        l = hn::IfThenElse(candidates, l, unavailable);
        hn::StoreU(l, d8, in.cur + k);
        lowest[r] = hn::Min(lowest[r], l);
        low = hn::Add(low, hn::PromoteTo(d16, hn::LowerHalf(dh, l)));
        high = hn::Add(high, hn::PromoteTo(d16, hn::UpperHalf(dh, l)));
      }
      hn::StoreU(low, d16, sum + k);
      hn::StoreU(high, d16, sum + k + half);
    }
    for (size_t r = 0; r < count_inputs; ++r) {
      const auto wide = hn::Min(hn::PromoteTo(du16, hn::LowerHalf(dh, lowest[r])),
                                hn::PromoteTo(du16, hn::UpperHalf(dh, lowest[r])));
      mins[r] = hn::GetLane(hn::MinOfLanes(du16, wide));
    }
  }
};
#endif

// The paths of `directions` over the whole image in one sweep, their sum stored into `out`:
// rows top to bottom and pixels left to right for the paths that come from above or the left
// (dy > 0, or dy == 0 with dx > 0), the other way round for the others. A horizontal direction
// keeps one slot (its predecessor is the pixel just done); the others one per path (file comment).
// `into_sum(y)` says where row y's sums go: true, added into S (pass.sum); false, stored into
// `out`. `row_done(y)` follows every row. `Step` is WordStep or ByteStep.
template <class Step, typename IntoSum, typename RowDone>
void Sweep(const Pass& pass, const std::vector<Direction>& directions, bool downward,
           PaddedVolume<int16_t>& out, IntoSum into_sum, RowDone row_done) {
  using Cost = typename Step::Cost;
  const Step step;
  const int width = pass.costs->width();
  const int height = pass.costs->height();
  const int slots_per_direction = width + 1;
  const size_t slot_count = directions.size() * slots_per_direction;
  // Every slot's buffer and one spare per direction; a pixel writes its L into the spare and
  // then swaps it with the slot it read, so nothing is copied. A slot: `pad` unavailable
  // entries, the stride, `pad` more.
  std::vector<Cost> buffers((slot_count + directions.size()) * pass.slot_size, Step::kNone);
  std::vector<Cost*> slot(slot_count);
  for (size_t i = 0; i < slot_count; ++i) slot[i] = buffers.data() + i * pass.slot_size + pass.pad;
  Cost* spare[4];
  for (size_t r = 0; r < directions.size(); ++r) {
    spare[r] = buffers.data() + (slot_count + r) * pass.slot_size + pass.pad;
  }
  std::vector<int> slot_min(slot_count, 0);
  PathInput<Cost> inputs[4];
  size_t index[4];
  int mins[4];
  for (int i = 0; i < height; ++i) {
    const int y = downward ? i : height - 1 - i;
    const bool add = into_sum(y);
    PaddedVolume<int16_t>& target = add ? *pass.sum : out;
    for (int j = 0; j < width; ++j) {
      const int x = downward ? j : width - 1 - j;
      for (size_t r = 0; r < directions.size(); ++r) {
        const Direction dir = directions[r];
        int s = dir.dy == 0 ? 0 : (x - dir.dx * dir.dy * y) % slots_per_direction;
        if (s < 0) s += slots_per_direction;
        index[r] = r * slots_per_direction + s;
        const int qx = x - dir.dx, qy = y - dir.dy;
        PathInput<Cost>& in = inputs[r];
        in.cur = spare[r];
        if (qx < 0 || qx >= width || qy < 0 || qy >= height) {
          in.q = nullptr;  // the first pixel of the path: L = C
        } else {
          in.q = slot[index[r]] + pass.shift(x, y, qx, qy);
          in.prev_min = static_cast<Cost>(slot_min[index[r]]);
          in.p2_jump = static_cast<Cost>(slot_min[index[r]] + pass.p2(x, y, qx, qy));
        }
      }
      step(pass, x, y, inputs, directions.size(), target, add, mins);
      for (size_t r = 0; r < directions.size(); ++r) {
        std::swap(slot[index[r]], spare[r]);
        slot_min[index[r]] = mins[r];
      }
    }
    row_done(y);
  }
}

// S = the sum of the forward sweep and the backward one, the two on two threads when there are
// two. The forward sweep stores its rows into S; the backward one adds its rows into S where the
// forward sweep is already past them, and otherwise stores them into `backward`, added at the end.
template <class Step>
void AggregateWith(const Pass& pass, int threads, PaddedVolume<int16_t>& backward) {
  std::vector<Direction> forward_paths = {{1, 0}, {0, 1}};
  std::vector<Direction> backward_paths = {{-1, 0}, {0, -1}};
  if (pass.settings.paths == 8) {
    forward_paths.insert(forward_paths.end(), {{1, 1}, {-1, 1}});
    backward_paths.insert(backward_paths.end(), {{1, -1}, {-1, -1}});
  }
  const int height = pass.costs->height();
  std::atomic<int> forward_rows_done{0};
  std::vector<char> apart(height, 0);  // rows the backward sweep stored into `backward`
  auto forward = [&] {
    Sweep<Step>(pass, forward_paths, true, *pass.sum, [](int) { return false; },
          [&](int) { forward_rows_done.fetch_add(1, std::memory_order_release); });
  };
  auto backward_sweep = [&] {
    Sweep<Step>(pass, backward_paths, false, backward,
          [&](int y) {
            apart[y] = forward_rows_done.load(std::memory_order_acquire) <= y;
            return !apart[y];
          },
          [](int) {});
  };
  if (threads > 1) {
    std::thread helper(forward);
    backward_sweep();
    helper.join();
  } else {
    forward();
    backward_sweep();
  }
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const size_t row_entries = static_cast<size_t>(pass.costs->width()) * pass.costs->stride();
  parallel_for(0, height, [&](int y) {
    if (!apart[y]) return;
    int16_t* total = pass.sum->pixel(0, y);
    const int16_t* other = backward.pixel(0, y);
    for (size_t i = 0; i < row_entries; i += n) {
      hn::StoreU(hn::Add(hn::LoadU(d, total + i), hn::LoadU(d, other + i)), d, total + i);
    }
  });
}

// AggregateWith the byte path costs where pass.byte_path_costs allows them, on whole vectors of
// bytes over the stride (a multiple of kVolumeLaneAlign, which a 512-bit vector may not divide).
void AggregateAll(const Pass& pass, int threads, PaddedVolume<int16_t>& backward) {
#if HWY_TARGET == HWY_SCALAR
  AggregateWith<WordStep>(pass, threads, backward);
#else
  const hn::ScalableTag<uint8_t> full;
  if (!pass.byte_path_costs) {
    AggregateWith<WordStep>(pass, threads, backward);
  } else if (pass.costs->stride() % hn::Lanes(full) == 0) {
    AggregateWith<ByteStep<decltype(full)>>(pass, threads, backward);
  } else {
    AggregateWith<ByteStep<hn::CappedTag<uint8_t, kVolumeLaneAlign>>>(pass, threads, backward);
  }
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(AggregateAll);

bool sgm_byte_path_costs(const SearchRange& range, const SgmSettings& settings, int max_cost) {
  return range.is_uniform() && max_cost >= 0 && max_cost + settings.p2 <= 255;
}

PaddedVolume<int16_t> fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs,
                                         const SearchRange& range, const ImageU8& left,
                                         const SgmSettings& settings, int max_cost) {
  PaddedVolume<int16_t> sum, scratch;
  fast_sgm_aggregate(costs, range, left, settings, sum, scratch, max_cost);
  return sum;
}

void fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                        const ImageU8& left, const SgmSettings& settings,
                        PaddedVolume<int16_t>& sum, PaddedVolume<int16_t>& scratch, int max_cost) {
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
  sum.reshape(costs.width(), costs.height(), range);
  if (costs.width() == 0 || costs.height() == 0 || costs.count() == 0) return;
  const ImageI16 bases = base_plane(range, costs.width(), costs.height());
  sgm_detail::Pass pass{&costs, &bases, &left, settings, 0, 0,
                        sgm_byte_path_costs(range, settings, max_cost), &sum};
  // Shifted reads reach count + 3 entries beyond either end of the candidates (file comment);
  // a uniform range never shifts, so one entry each side is read.
  const int reach = range.is_uniform() ? 1 : costs.count() + 3;
  pass.pad = (reach + kVolumeLaneAlign - 1) / kVolumeLaneAlign * kVolumeLaneAlign;
  pass.slot_size = 2 * pass.pad + costs.stride();
  scratch.reshape(costs.width(), costs.height(), range);
  HWY_DYNAMIC_DISPATCH(AggregateAll)(pass, worker_count(), scratch);
}

}  // namespace sv
#endif  // HWY_ONCE
