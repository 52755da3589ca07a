#pragma once

#include <cstdint>

#include "src/core/cost_volume.h"
#include "src/core/image.h"

namespace sv {

// sad_cost_volume (block_matching.h), bit for bit: the SAD of an odd square window for every
// candidate of `range`, border samples replicated, kBlockMatchingOutsideCost where the right
// centre pixel lies outside the image. A uniform range runs with SIMD lanes over the candidates
// (column sums rolled down bands of rows, window sums slid along them); a per-pixel range (the
// pyramid's refinement, a few candidates a pixel) is the reference's own direct summation.
// Throws InputError as sad_cost_volume does.
CostVolume<uint32_t> fast_sad_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                          const SearchRange& range);

}  // namespace sv
