#pragma once

#include <cstdint>

#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"

namespace sv {

// Matching costs of the census family are integers in 0..kMaxMatchCost; candidates whose right
// pixel lies outside the image take kMaxMatchCost. The scale is the same for every window (5x5
// .. 11x11: the Hamming distance is normalized by the bits compared), so one P1/P2 setting means
// the same for all of them and the 8-bit path costs of the fast GPU SGM (kMaxMatchCost + P2 <=
// 255) hold for every window.
constexpr int kMaxMatchCost = 64;

// Normalized Hamming distance of two census codes over the bits valid in both, scaled to
// 0..kMaxMatchCost and rounded half up; kMaxMatchCost when no bit is valid in both.
// EXACT DEFINITION: census_cost.cpp's header comment.
uint8_t census_cost(const CensusCode& left, const CensusCode& right);

// Cost of matching left pixel (x, y) with right pixel (x - d, y) for every d of `range`.
// Throws InputError when the two images (or a per-pixel range's base image) differ in size.
CostVolume<uint8_t> census_cost_volume(const CensusImage& left, const CensusImage& right,
                                       const SearchRange& range);

}  // namespace sv
