#pragma once

#include <cstdint>

#include "src/core/cost_volume.h"
#include "src/cpu_fast/packed_census.h"
#include "src/cpu_fast/padded_volume.h"

namespace sv {

// census_cost_volume (census_cost.h) on packed codes, bit for bit: the normalized Hamming cost
// of left pixel (x, y) and right pixel (x - d, y) for every d of `range`, kMaxMatchCost where the
// right pixel is outside. Lanes past count() are left unspecified. Throws InputError for codes
// of different sizes or windows, or a per-pixel base of another size.
PaddedVolume<uint8_t> fast_census_cost_volume(const PackedCensus& left, const PackedCensus& right,
                                              const SearchRange& range);
// The same into `costs`, reshaped (its memory reused when large enough).
void fast_census_cost_volume(const PackedCensus& left, const PackedCensus& right,
                             const SearchRange& range, PaddedVolume<uint8_t>& costs);

}  // namespace sv
