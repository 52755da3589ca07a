#pragma once

#include <cstdint>

#include "src/core/image.h"
#include "src/core/winner_takes_all.h"
#include "src/cpu_fast/padded_volume.h"

namespace sv {

// winner_takes_all and right_view_disparity (winner_takes_all.h) of aggregated SGM costs, bit for
// bit with the reference on the same costs as uint16 (every real cost here is below 4096, so no
// candidate is the type's "no match" maximum). `right_view` is filled only when non-null.
// Parallel over rows. Throws InputError as the reference does.
ImageI16 fast_winner_takes_all(const PaddedVolume<int16_t>& costs, const SearchRange& range,
                               const WtaSettings& settings, ImageI16* right_view);

}  // namespace sv
