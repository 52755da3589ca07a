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
// or the left, and one sweep up (right to left) for the others, two tasks for two threads, every
// direction of a sweep at once per pixel (one cost load, one S access). The sweeps never wait on
// each other: on a shared, loaded machine a waiting thread loses a time slice.
// The sweeps meet row by row: the first to reach a row stores its partial sum of the row; the
// second adds it in as it goes and so completes the row's sum S, which then goes to the sum
// volume or, fused with the selection, straight to the row's WTA while it is in cache.
// A sweep keeps one slot of path costs per path: the path through (x, y) in direction (dx, dy)
// uses slot x - dx*dy*y (mod width + 1), the slot its predecessor (x - dx, y - dy) wrote; a
// horizontal direction needs only one slot, its predecessor being the pixel just done.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_sgm.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/cache_control.h"
#include "hwy/highway.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_sgm.h"
#include "src/cpu_fast/row_selection-inl.h"

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
  bool uniform;          // a uniform range: no shifts

  int p2(int x, int y, int qx, int qy) const {
    if (!settings.adaptive_p2) return settings.p2;
    const int step = std::abs(static_cast<int>(guide->at(x, y)) - static_cast<int>(guide->at(qx, qy)));
    return std::max(settings.p1, settings.p2 * settings.p2_edge_scale / (settings.p2_edge_scale + step));
  }
  int shift(int x, int y, int qx, int qy) const {
    if (uniform) return 0;
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

// Every direction of a sweep (kPaths of them, a constant so that the per-path values stay in
// registers) at pixel (x, y) at once, 16-bit path costs: the pixel's costs are loaded once, the
// sum of their L (plus `init`'s sums where it is non-null) is stored into `sum`, and each
// direction's min over its L goes to `mins`. `init` may be `sum`. Only a last, partial vector of
// candidates is masked.
struct WordStep {
  using Cost = int16_t;
  static constexpr Cost kNone = kUnavailable;

  template <size_t kPaths>
  void Run(const Pass& pass, int x, int y, const PathInput<Cost>* inputs, const int16_t* init,
           int16_t* sum, int* mins) const {
    const hn::ScalableTag<int16_t> d;
    const hn::Rebind<uint8_t, decltype(d)> d8;
    using V = decltype(hn::Zero(d));
    const int n = static_cast<int>(hn::Lanes(d));
    const int count = pass.costs->count();
    const uint8_t* c = pass.costs->pixel(x, y);
    const auto p1 = hn::Set(d, static_cast<int16_t>(pass.settings.p1));
    const auto unavailable = hn::Set(d, kNone);
    V lowest[kPaths], jump[kPaths], prev_min[kPaths];
    for (size_t r = 0; r < kPaths; ++r) {
      lowest[r] = unavailable;
      jump[r] = hn::Set(d, inputs[r].p2_jump);
      prev_min[r] = hn::Set(d, inputs[r].prev_min);
    }
    for (int k = 0; k < pass.costs->stride(); k += n) {
      const bool partial = k + n > count;
      const auto candidates = hn::FirstN(d, static_cast<size_t>(std::max(0, count - k)));
      const auto cost = hn::PromoteTo(d, hn::LoadU(d8, c + k));
      auto total = init != nullptr ? hn::LoadU(d, init + k) : hn::Zero(d);
      for (size_t r = 0; r < kPaths; ++r) {
        const PathInput<Cost>& in = inputs[r];
        auto l = cost;
        if (in.q != nullptr) {
          const int16_t* q = in.q + k;
          const auto step = hn::Add(hn::Min(hn::LoadU(d, q - 1), hn::LoadU(d, q + 1)), p1);
          const auto best = hn::Min(jump[r], hn::Min(hn::LoadU(d, q), step));
          l = hn::Sub(hn::Add(cost, best), prev_min[r]);
        }
        if (partial) l = hn::IfThenElse(candidates, l, unavailable);
        hn::StoreU(l, d, in.cur + k);
        lowest[r] = hn::Min(lowest[r], l);
        total = hn::Add(total, l);
      }
      hn::StoreU(total, d, sum + k);
    }
    for (size_t r = 0; r < kPaths; ++r) mins[r] = row_selection_hwy::LowestLane(d, lowest[r]);
  }
};

#if HWY_TARGET != HWY_SCALAR  // one lane has no halves to widen
// WordStep with byte path costs (file comment), on D8's lanes of uint8_t; the stride must be a
// multiple of them.
template <class D8>
struct ByteStep {
  using Cost = uint8_t;
  static constexpr Cost kNone = 255;

  template <size_t kPaths>
  void Run(const Pass& pass, int x, int y, const PathInput<Cost>* inputs, const int16_t* init,
           int16_t* sum, int* mins) const {
    const D8 d8;
    const hn::Half<D8> dh;
    const hn::Rebind<int16_t, decltype(dh)> d16;
    using V = decltype(hn::Zero(d8));
    const int n = static_cast<int>(hn::Lanes(d8));
    const int half = n / 2;
    const int count = pass.costs->count();
    const uint8_t* c = pass.costs->pixel(x, y);
    const auto p1 = hn::Set(d8, static_cast<uint8_t>(pass.settings.p1));
    const auto unavailable = hn::Set(d8, kNone);
    V lowest[kPaths], jump[kPaths], prev_min[kPaths];
    for (size_t r = 0; r < kPaths; ++r) {
      lowest[r] = unavailable;
      jump[r] = hn::Set(d8, inputs[r].p2_jump);
      prev_min[r] = hn::Set(d8, inputs[r].prev_min);
    }
    for (int k = 0; k < pass.costs->stride(); k += n) {
      const bool partial = k + n > count;
      // Clamped: FirstN compares the count in the lanes' own type on some targets.
      const auto candidates = hn::FirstN(d8, static_cast<size_t>(std::clamp(count - k, 0, n)));
      const auto cost = hn::LoadU(d8, c + k);
      auto low = init != nullptr ? hn::LoadU(d16, init + k) : hn::Zero(d16);
      auto high = init != nullptr ? hn::LoadU(d16, init + k + half) : hn::Zero(d16);
      for (size_t r = 0; r < kPaths; ++r) {
        const PathInput<Cost>& in = inputs[r];
        auto l = cost;
        if (in.q != nullptr) {
          const uint8_t* q = in.q + k;
          const auto step = hn::SaturatedAdd(hn::Min(hn::LoadU(d8, q - 1), hn::LoadU(d8, q + 1)), p1);
          const auto best = hn::Min(jump[r], hn::Min(hn::LoadU(d8, q), step));
          l = hn::Add(cost, hn::Sub(best, prev_min[r]));
        }
        if (partial) l = hn::IfThenElse(candidates, l, unavailable);
        hn::StoreU(l, d8, in.cur + k);
        lowest[r] = hn::Min(lowest[r], l);
        low = hn::Add(low, hn::PromoteTo(d16, hn::LowerHalf(dh, l)));
        high = hn::Add(high, hn::PromoteTo(d16, hn::UpperHalf(dh, l)));
      }
      hn::StoreU(low, d16, sum + k);
      hn::StoreU(high, d16, sum + k + half);
    }
    for (size_t r = 0; r < kPaths; ++r) mins[r] = row_selection_hwy::LowestLane(d8, lowest[r]);
  }
};
#endif

// One sweep's side of a row's meeting with the other sweep (file comment, "Order"): where the
// row's complete sum goes when this sweep completes it, and what follows then.
// `complete_row(y)` gives the row's place; `finish(y, row)` is called with it once the sum is in.
template <typename CompleteRow, typename Finish>
struct RowSink {
  CompleteRow complete_row;
  Finish finish;
};

// The paths of `directions` over the whole image in one sweep: rows top to bottom and pixels left
// to right for the paths that come from above or the left (dy > 0, or dy == 0 with dx > 0), the
// other way round for the others. A horizontal direction keeps one slot (its predecessor is the
// pixel just done); the others one per path (file comment).
// Row y's partial sum (this sweep's paths) meets the other sweep's: where the other sweep has
// stored row y already (stored[y] != 0), this one adds it in as it goes, into sink's row, and
// finishes the row; otherwise it stores its partial into `own` and counts itself in stored[y],
// and should the other sweep have come in meanwhile, adds the two rows and finishes. So each row
// is finished exactly once, by whichever sweep comes second. `Step` is WordStep or ByteStep.
template <class Step, size_t kPaths, class Sink>
void Sweep(const Pass& pass, const Direction (&directions)[kPaths], bool downward,
           PaddedVolume<int16_t>& own, const PaddedVolume<int16_t>& other,
           std::atomic<int>* stored, Sink& sink, std::vector<int16_t>& path_cost_storage) {
  using Cost = typename Step::Cost;
  const Step step;
  const int width = pass.costs->width();
  const int height = pass.costs->height();
  const size_t stride = static_cast<size_t>(pass.costs->stride());
  const int slots_per_direction = width + 1;
  const size_t slot_count = kPaths * slots_per_direction;
  // Every slot's buffer and one spare per direction; a pixel writes its L into the spare and
  // then swaps it with the slot it read, so nothing is copied. A slot: `pad` unavailable
  // entries, the stride, `pad` more. In `path_cost_storage` (16-bit words: bytes may view them).
  const size_t entries = (slot_count + kPaths) * pass.slot_size;
  path_cost_storage.resize((entries * sizeof(Cost) + 1) / 2);
  Cost* buffers = reinterpret_cast<Cost*>(path_cost_storage.data());
  std::fill(buffers, buffers + entries, Step::kNone);
  std::vector<Cost*> slot(slot_count);
  for (size_t i = 0; i < slot_count; ++i) slot[i] = buffers + i * pass.slot_size + pass.pad;
  Cost* spare[kPaths];
  for (size_t r = 0; r < kPaths; ++r) {
    spare[r] = buffers + (slot_count + r) * pass.slot_size + pass.pad;
  }
  std::vector<int> slot_min(slot_count, 0);
  PathInput<Cost> inputs[kPaths] = {};
  size_t index[kPaths];
  int mins[kPaths];
  const int step_x = downward ? 1 : -1;
  const int volume_pixels = width * height;
  for (int i = 0; i < height; ++i) {
    const int y = downward ? i : height - 1 - i;
    const bool second = stored[y].load(std::memory_order_acquire) != 0;
    int16_t* target = second ? sink.complete_row(y) : own.pixel(0, y);
    const int16_t* init = second ? other.pixel(0, y) : nullptr;
    // Per direction: the slot of the row's first pixel (then one on per pixel, wrapping), and
    // whether the predecessors' row is inside the image.
    int slot_index[kPaths];
    bool row_has_predecessors[kPaths];
    const int first_x = downward ? 0 : width - 1;
    for (size_t r = 0; r < kPaths; ++r) {
      const Direction dir = directions[r];
      int s = dir.dy == 0 ? 0 : (first_x - dir.dx * dir.dy * y) % slots_per_direction;
      if (s < 0) s += slots_per_direction;
      slot_index[r] = s;
      row_has_predecessors[r] = y - dir.dy >= 0 && y - dir.dy < height;
    }
    for (int j = 0; j < width; ++j) {
      const int x = downward ? j : width - 1 - j;
      {
        // The costs and the other sweep's sums come from memory: ask for them 16 pixels ahead
        // (past the row's end, the next row's, which this sweep does next).
        const size_t ahead =
            static_cast<size_t>(std::clamp(y * width + x + 16 * step_x, 0, volume_pixels - 1));
        for (size_t e = 0; e < stride; e += 64) {
          hwy::Prefetch(pass.costs->pixel(0, 0) + ahead * stride + e);
        }
        if (init != nullptr) {
          for (size_t e = 0; e < stride; e += 32) hwy::Prefetch(other.pixel(0, 0) + ahead * stride + e);
        }
      }
      for (size_t r = 0; r < kPaths; ++r) {
        const Direction dir = directions[r];
        index[r] = r * slots_per_direction + slot_index[r];
        if (dir.dy != 0) {
          slot_index[r] += step_x;
          if (slot_index[r] == slots_per_direction) slot_index[r] = 0;
          if (slot_index[r] < 0) slot_index[r] = slots_per_direction - 1;
        }
        const int qx = x - dir.dx, qy = y - dir.dy;
        PathInput<Cost>& in = inputs[r];
        in.cur = spare[r];
        if (!row_has_predecessors[r] || qx < 0 || qx >= width) {
          in.q = nullptr;  // the first pixel of the path: L = C
        } else {
          in.q = slot[index[r]] + pass.shift(x, y, qx, qy);
          in.prev_min = static_cast<Cost>(slot_min[index[r]]);
          in.p2_jump = static_cast<Cost>(slot_min[index[r]] + pass.p2(x, y, qx, qy));
        }
      }
      step.template Run<kPaths>(pass, x, y, inputs, init != nullptr ? init + x * stride : nullptr,
                                target + x * stride, mins);
      for (size_t r = 0; r < kPaths; ++r) {
        std::swap(slot[index[r]], spare[r]);
        slot_min[index[r]] = mins[r];
      }
    }
    if (second) {
      sink.finish(y, target);
      continue;
    }
    if (stored[y].fetch_add(1, std::memory_order_acq_rel) != 0) {
      const hn::ScalableTag<int16_t> d;
      const int16_t* mine = own.pixel(0, y);
      const int16_t* theirs = other.pixel(0, y);
      int16_t* row = sink.complete_row(y);
      for (size_t e = 0; e < width * stride; e += hn::Lanes(d)) {
        hn::StoreU(hn::Add(hn::LoadU(d, mine + e), hn::LoadU(d, theirs + e)), d, row + e);
      }
      sink.finish(y, row);
    }
  }
}

// The two sweeps, on two threads when there are two: one down the image for the paths that come
// from above or the left, storing its partial rows into `forward`, one up for the others, into
// `backward`; each row is completed by the sweep that comes to it second, into that sweep's sink
// (Sweep). Neither sweep ever waits for the other: on a shared, loaded machine a waiting thread
// loses a time slice.
template <class Step, class ForwardSink, class BackwardSink>
void AggregateWith(const Pass& pass, int threads, PaddedVolume<int16_t>& forward,
                   PaddedVolume<int16_t>& backward, ForwardSink& forward_sink,
                   BackwardSink& backward_sink, std::vector<int16_t>* const* path_cost_storage) {
  static constexpr Direction kForward4[] = {{1, 0}, {0, 1}};
  static constexpr Direction kBackward4[] = {{-1, 0}, {0, -1}};
  static constexpr Direction kForward8[] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
  static constexpr Direction kBackward8[] = {{-1, 0}, {0, -1}, {1, -1}, {-1, -1}};
  const bool eight = pass.settings.paths == 8;
  const int height = pass.costs->height();
  std::unique_ptr<std::atomic<int>[]> stored(new std::atomic<int>[height]);
  for (int y = 0; y < height; ++y) stored[y].store(0, std::memory_order_relaxed);
  auto forward_sweep = [&] {
    if (eight) {
      Sweep<Step>(pass, kForward8, true, forward, backward, stored.get(), forward_sink,
                  *path_cost_storage[0]);
    } else {
      Sweep<Step>(pass, kForward4, true, forward, backward, stored.get(), forward_sink,
                  *path_cost_storage[0]);
    }
  };
  auto backward_sweep = [&] {
    if (eight) {
      Sweep<Step>(pass, kBackward8, false, backward, forward, stored.get(), backward_sink,
                  *path_cost_storage[1]);
    } else {
      Sweep<Step>(pass, kBackward4, false, backward, forward, stored.get(), backward_sink,
                  *path_cost_storage[1]);
    }
  };
  // Two tasks for parallel_for: where the second thread comes late, the first does both in turn
  // (the sweeps meet wherever they do), rather than wait for it.
  if (threads > 1) {
    parallel_for(0, 2, [&](int task) { task == 0 ? forward_sweep() : backward_sweep(); });
  } else {
    forward_sweep();
    backward_sweep();
  }
}

// AggregateWith on the byte path costs where pass.byte_path_costs allows them, on whole vectors
// of bytes over the stride (a multiple of kVolumeLaneAlign, which a 512-bit vector may not
// divide); `Sinks` makes the two sinks.
template <class Sinks>
void AggregateAll(const Pass& pass, int threads, PaddedVolume<int16_t>& forward,
                  PaddedVolume<int16_t>& backward, Sinks sinks,
                  std::vector<int16_t>* const* path_cost_storage) {
  auto forward_sink = sinks(0);
  auto backward_sink = sinks(1);
  const auto run = [&](auto step) {
    AggregateWith<decltype(step)>(pass, threads, forward, backward, forward_sink, backward_sink,
                                  path_cost_storage);
  };
#if HWY_TARGET == HWY_SCALAR
  run(WordStep());
#else
  const hn::ScalableTag<uint8_t> full;
  if (!pass.byte_path_costs) {
    run(WordStep());
  } else if (pass.costs->stride() % hn::Lanes(full) == 0) {
    run(ByteStep<decltype(full)>());
  } else {
    run(ByteStep<hn::CappedTag<uint8_t, kVolumeLaneAlign>>());
  }
#endif
}

// The whole sum volume: every completed row goes to `sum` (the forward sweep's own volume, so a
// row the backward sweep completes is summed in place).
void AggregateSum(const Pass& pass, int threads, PaddedVolume<int16_t>& sum,
                  PaddedVolume<int16_t>& scratch) {
  std::vector<int16_t> storage[2];
  std::vector<int16_t>* const path_cost_storage[2] = {&storage[0], &storage[1]};
  AggregateAll(pass, threads, sum, scratch, [&](int) {
    auto complete_row = [&](int y) { return sum.pixel(0, y); };
    auto finish = [](int, const int16_t*) {};
    return RowSink<decltype(complete_row), decltype(finish)>{complete_row, finish};
  }, path_cost_storage);
}

// Aggregation and selection in one: each sweep completes rows into a row of its own (in cache)
// and selects them there.
void AggregateSelect(const Pass& pass, int threads, SgmWorkspace& work,
                     const row_selection::RowSelection& selection, ImageI16& out, ImageI16* right_view) {
  const size_t row_entries = static_cast<size_t>(pass.costs->width()) * pass.costs->stride();
  for (SgmWorkspace::Sweep& sweep : work.sweeps) sweep.row.resize(row_entries);
  std::vector<int16_t>* const path_cost_storage[2] = {&work.sweeps[0].path_costs,
                                                      &work.sweeps[1].path_costs};
  AggregateAll(pass, threads, work.forward, work.backward, [&](int side) {
    SgmWorkspace::Sweep& sweep = work.sweeps[side];
    auto complete_row = [&sweep](int) { return sweep.row.data(); };
    auto finish = [&](int y, const int16_t* row) {
      row_selection_hwy::SelectRow(row, pass.bases->row(y), selection, out.row(y),
                                   right_view != nullptr ? right_view->row(y) : nullptr, sweep.reversed);
    };
    return RowSink<decltype(complete_row), decltype(finish)>{complete_row, finish};
  }, path_cost_storage);
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(AggregateSum);
HWY_EXPORT(AggregateSelect);

bool sgm_byte_path_costs(const SearchRange& range, const SgmSettings& settings, int max_cost) {
  return range.is_uniform() && max_cost >= 0 && max_cost + settings.p2 <= 255;
}

namespace {

// The checks sgm_aggregate makes, then what the sweeps need; `bases` receives the range's base
// plane and must outlive the pass.
sgm_detail::Pass prepare_pass(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                              const ImageU8& left, const SgmSettings& settings, int max_cost,
                              ImageI16& bases) {
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
  bases = base_plane(range, costs.width(), costs.height());
  sgm_detail::Pass pass{&costs, &bases, &left, settings, 0, 0,
                        sgm_byte_path_costs(range, settings, max_cost), range.is_uniform()};
  // Shifted reads reach count + 3 entries beyond either end of the candidates (file comment);
  // a uniform range never shifts, so one entry each side is read.
  const int reach = range.is_uniform() ? 1 : costs.count() + 3;
  pass.pad = (reach + kVolumeLaneAlign - 1) / kVolumeLaneAlign * kVolumeLaneAlign;
  pass.slot_size = 2 * pass.pad + costs.stride();
  return pass;
}

bool empty(const PaddedVolume<uint8_t>& costs) {
  return costs.width() == 0 || costs.height() == 0 || costs.count() == 0;
}

}  // namespace

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
  ImageI16 bases;
  const sgm_detail::Pass pass = prepare_pass(costs, range, left, settings, max_cost, bases);
  sum.reshape(costs.width(), costs.height(), range);
  if (empty(costs)) return;
  scratch.reshape(costs.width(), costs.height(), range);
  HWY_DYNAMIC_DISPATCH(AggregateSum)(pass, worker_count(), sum, scratch);
}

ImageI16 fast_sgm_select(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                         const ImageU8& left, const SgmSettings& settings, const WtaSettings& wta,
                         ImageI16* right_view, SgmWorkspace& work, int max_cost) {
  ImageI16 bases;
  const sgm_detail::Pass pass = prepare_pass(costs, range, left, settings, max_cost, bases);
  if (wta.uniqueness < 0 || wta.uniqueness > 99) {
    throw InputError("Uniqueness must lie in 0..99 percent, got " + std::to_string(wta.uniqueness) + ".");
  }
  ImageI16 out(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (right_view != nullptr) *right_view = ImageI16(costs.width(), costs.height(), kInvalidFixedDisparity);
  if (empty(costs)) return out;
  work.forward.reshape(costs.width(), costs.height(), range);
  work.backward.reshape(costs.width(), costs.height(), range);
  const auto [lowest, highest] = std::minmax_element(bases.data(), bases.data() + bases.size());
  const row_selection::RowSelection selection{
      costs.width(), costs.count(), costs.stride(),
      row_selection::reversed_row_pad(*lowest, *highest, costs.stride()), wta};
  HWY_DYNAMIC_DISPATCH(AggregateSelect)(pass, worker_count(), work, selection, out, right_view);
  return out;
}

}  // namespace sv
#endif  // HWY_ONCE
