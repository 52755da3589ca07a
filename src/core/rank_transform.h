#pragma once

#include <cstdint>

#include "src/core/cost_volume.h"
#include "src/core/host_device.h"
#include "src/core/image.h"

namespace sv {

// Rank transform (Zabih and Woodfill; Banz 2011, eq. 3): each pixel becomes the number of pixels
// of its M x M window (M odd, 3..15) darker than it. Ranks are at most M*M - 1 <= 224.
// EXACT DEFINITION (borders, rounding of the cost) at the top of rank_transform.cpp.
// Throws InputError for a bad window.
ImageU8 rank_transform(const ImageU8& image, int window);

// Matching cost of ranks (Banz eq. 2), |R_l(x, y) - R_r(x - d, y)|, scaled to the census cost
// range 0..kMaxMatchCost (census_cost.h) so SGM's P1/P2 mean the same for both costs;
// kMaxMatchCost where x - d is outside the image. Throws InputError for images of different
// sizes, a per-pixel range of another size, or a bad window.
CostVolume<uint8_t> rank_cost_volume(const ImageU8& left_ranks, const ImageU8& right_ranks,
                                     int window, const SearchRange& range);

// The scaled cost of two ranks of an M x M window: (|a - b| * 64 + n / 2) / n, n = M*M - 1.
SV_HOST_DEVICE inline uint8_t rank_cost(int a, int b, int window) {
  const int n = window * window - 1;
  const int diff = a > b ? a - b : b - a;
  return static_cast<uint8_t>((diff * 64 + n / 2) / n);
}

}  // namespace sv
