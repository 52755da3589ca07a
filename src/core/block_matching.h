#pragma once

#include <cstdint>
#include <limits>

#include "src/core/cost_volume.h"
#include "src/core/image.h"

namespace sv {

// Cost of a SAD / SSD candidate whose right centre pixel lies outside the image.
constexpr uint32_t kBlockMatchingOutsideCost = std::numeric_limits<uint32_t>::max();
// Cost of a ZNCC candidate whose right centre pixel lies outside the image: finite (so a
// parabola fit stays finite) and strictly worse than any real ZNCC cost, which is at most 2.
constexpr float kZnccOutsideCost = 3.0f;

// Window costs of block matching over an odd square window (3..21), for every candidate of
// `range`. Window samples outside the image are clamped to the border (left and right
// coordinates clamped separately); candidates whose right centre pixel (x - d) lies outside the
// image take kBlockMatchingOutsideCost / kZnccOutsideCost.
// EXACT DEFINITIONS are in block_matching.cpp's header comment.
// Throws InputError for a bad window or images (or a per-pixel range base) of different sizes.
CostVolume<uint32_t> sad_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                     const SearchRange& range);
CostVolume<uint32_t> ssd_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                     const SearchRange& range);
// Cost = 1 - ZNCC, in [0, 2]; a flat window (zero variance) on either side costs 1.
CostVolume<float> zncc_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                   const SearchRange& range);

}  // namespace sv
