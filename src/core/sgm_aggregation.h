#pragma once

#include <cstdint>

#include "src/core/cost_volume.h"
#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

struct SgmSettings {
  int paths = 8;  // 4 (horizontal and vertical) or 8 (plus diagonals)
  int p1 = 12;    // 0..255, penalty for a 1 px disparity change along a path
  int p2 = 40;    // 0..255, penalty for larger changes
  bool adaptive_p2 = false;  // P2' = max(P1, P2 * s / (s + |I(p) - I(p - r)|)), integer division
  int p2_edge_scale = 16;    // s >= 1: the intensity step that halves P2
};

// The SGM fields of the pipeline's parameters.
inline SgmSettings sgm_settings(const StereoParams& params) {
  SgmSettings sgm;
  sgm.paths = params.sgm_paths;
  sgm.p1 = params.p1;
  sgm.p2 = params.p2;
  sgm.adaptive_p2 = params.adaptive_p2;
  sgm.p2_edge_scale = params.p2_edge_scale;
  return sgm;
}

// Semi-global aggregation (Hirschmueller; Banz eq. 4): the sum over paths of the path costs
// L_r, each normalized by subtracting the previous pixel's minimum.
// `left` is the guidance image for the adaptive P2 (unused, and may be empty, without it).
// Per-pixel search ranges are supported: a path compares equal disparities, not equal indices.
// The result has the cost volume's size and range. Multi-threaded, deterministic.
// Throws InputError for paths other than 4 / 8, penalties outside 0..255, p2_edge_scale < 1
// with adaptive_p2, or a guidance image / per-pixel base of another size.
// EXACT DEFINITION in sgm_aggregation.cpp.
CostVolume<uint16_t> sgm_aggregate(const CostVolume<uint8_t>& costs, const ImageU8& left,
                                   const SgmSettings& settings);

}  // namespace sv
