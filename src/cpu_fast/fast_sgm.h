#pragma once

#include <cstdint>

#include "src/core/image.h"
#include "src/core/sgm_aggregation.h"
#include "src/cpu_fast/padded_volume.h"

namespace sv {

// sgm_aggregate (sgm_aggregation.h) on padded costs, bit for bit: S(p, k) = sum over the 4 or 8
// paths of L_r(p, k), for k < count() (lanes past it are unspecified). `range` is the costs'
// search range; `left` guides the adaptive P2 (may be empty without it). Path costs run in
// 16-bit lanes over the candidates; the horizontal paths run row by row in parallel, the
// vertical and diagonal ones sweep down and then up the image, threads splitting each row.
// Deterministic for any thread count. Throws InputError as sgm_aggregate does.
PaddedVolume<int16_t> fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs,
                                         const SearchRange& range, const ImageU8& left,
                                         const SgmSettings& settings);

// The same into `sum`, with `scratch` for the backward sweep's rows; both reshaped (their memory
// reused when large enough).
void fast_sgm_aggregate(const PaddedVolume<uint8_t>& costs, const SearchRange& range,
                        const ImageU8& left, const SgmSettings& settings,
                        PaddedVolume<int16_t>& sum, PaddedVolume<int16_t>& scratch);

}  // namespace sv
