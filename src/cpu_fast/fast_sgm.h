#pragma once

#include <cstdint>
#include <vector>

#include "src/core/image.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/winner_takes_all.h"
#include "src/cpu_fast/padded_volume.h"
#include "src/cpu_fast/reversed_row.h"

namespace sv {

// sgm_aggregate (sgm_aggregation.h) on padded costs, bit for bit: S(p, k) = sum over the 4 or 8
// paths of L_r(p, k), for k < count() (lanes past it are unspecified). `range` is the costs'
// search range; `left` guides the adaptive P2 (may be empty without it). Path costs run in
// 8- or 16-bit lanes over the candidates; one sweep down the image carries the paths that come
// from above or the left and one sweep up the others, on two threads where there are two.
// Deterministic for any thread count. Throws InputError as sgm_aggregate does.
// `max_cost` bounds the costs (kMaxMatchCost for census costs): where sgm_byte_path_costs holds,
// the path costs run in 8-bit lanes, twice as many a vector; a cost above it gives wrong sums.
PaddedVolume<int16_t> fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs,
                                         const SearchRange& range, const ImageU8& left,
                                         const SgmSettings& settings, int max_cost = 255);

// The same into `sum`, with `scratch` for the backward sweep's rows; both reshaped (their memory
// reused when large enough).
void fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                        const ImageU8& left, const SgmSettings& settings,
                        PaddedVolume<int16_t>& sum, PaddedVolume<int16_t>& scratch,
                        int max_cost = 255);

// What fast_sgm_select keeps from call to call, so that a frame allocates no fresh memory (whose
// pages the kernel would zero): the sweeps' stored partial sums and, per sweep, its path costs,
// the row it completes and backward matching's row.
struct SgmWorkspace {
  struct Sweep {
    std::vector<int16_t> path_costs;  // storage of 8- or 16-bit path costs
    std::vector<int16_t> row;
    ReversedRow reversed;
  };
  PaddedVolume<int16_t> forward;
  PaddedVolume<int16_t> backward;
  Sweep sweeps[2];
};

// fast_winner_takes_all (fast_wta.h) of fast_sgm_aggregate's sums, bit for bit, in one go: each
// row is selected as soon as its sum is complete (by the second sweep to reach it) while it is
// still in cache, so the sum volume is never written whole and read back. `right_view` as
// there. Throws InputError as the two do.
ImageI16 fast_sgm_select(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                         const ImageU8& left, const SgmSettings& settings, const WtaSettings& wta,
                         ImageI16* right_view, SgmWorkspace& work, int max_cost = 255);

// Whether every path cost fits a byte, so fast_sgm_aggregate runs them in 8-bit lanes: a uniform
// range and max_cost + P2 <= 255 (fast_sgm.cpp's comment says why this suffices).
bool sgm_byte_path_costs(const SearchRange& range, const SgmSettings& settings, int max_cost);

}  // namespace sv
