#include "cuda/frame_memory.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "cuda/stages.h"
#include "src/core/algorithm_registry.h"
#include "src/core/census_cost.h"
#include "src/core/confidence.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/pyramid.h"

namespace sv::cuda {
namespace {

// The largest size each grow-only buffer reaches over the levels.
struct GrowOnly {
  uint64_t bytes = 0;
  void need(uint64_t n) { bytes = std::max(bytes, n); }
};

}  // namespace

FrameCost cuda_frame_cost(int width, int height, const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr) throw InputError("unknown algorithm \"" + params.algorithm + "\"");
  const int levels = params.pyramid_levels;
  const std::vector<std::pair<int, int>> sizes = pyramid_level_sizes(width, height, levels);
  const uint64_t full = static_cast<uint64_t>(width) * height;
  const SgmSettings sgm = sgm_settings(params);

  GrowOnly census, ranks, fast_costs, fast_volumes, fast_keys, costs_u8, costs_u16, costs_u32,
      costs_f32, adaptive_scratch, keys;
  uint64_t fixed = 0;
  for (int level = levels; level >= 0; --level) {
    const uint64_t pixels = static_cast<uint64_t>(sizes[level].first) * sizes[level].second;
    const bool uniform = level == levels;  // finer levels search per-pixel ranges
    const int count = uniform ? coarse_search_range(params.min_disparity, params.num_disparities, levels).count()
                              : refined_search_count(params.refine_radius, params.min_disparity,
                                                     params.num_disparities, level);
    const uint64_t volume = pixels * count;
    if (level > 0) fixed += 2 * pixels;                         // the level's two images
    if (level < levels) fixed += pixels * sizeof(int16_t);      // its range base
    switch (algorithm->cost) {
      case MatchingCost::Census:
      case MatchingCost::Rank: {
        if (algorithm->cost == MatchingCost::Census) {
          census.need(2 * pixels * sizeof(CensusCode));
        } else {
          ranks.need(2 * pixels);
        }
        if (algorithm->aggregation == Aggregation::Sgm && uniform &&
            sgm_path_costs_supported(count, sgm)) {
          const uint64_t stride = 32ull * sgm_path_cells_per_lane(count);
          fast_costs.need(pixels * stride);
          fast_volumes.need(pixels * stride * sgm.paths);
          fast_keys.need(pixels * sizeof(uint32_t));
        } else {
          costs_u8.need(volume);
          if (algorithm->aggregation == Aggregation::Sgm) costs_u16.need(volume * sizeof(uint16_t));
        }
        break;
      }
      case MatchingCost::Sad:
      case MatchingCost::Ssd:
        if (algorithm->cost == MatchingCost::Sad && uniform && count <= 256 &&
            sad_cost_volume16_supported(params.window)) {
          costs_u16.need(pixels * 32ull * sgm_path_cells_per_lane(count) * sizeof(uint16_t));
          keys.need(pixels * sizeof(uint32_t));
        } else {
          costs_u32.need(volume * sizeof(uint32_t));
        }
        break;
      case MatchingCost::TruncatedAd:
        costs_f32.need(volume * sizeof(float));
        // Half costs: two half volumes; otherwise a second float volume.
        adaptive_scratch.need(volume * (esaw_settings(params).half_storage ? 2 * 2 : sizeof(float)));
        break;
      case MatchingCost::Zncc:
        costs_f32.need(volume * sizeof(float));
        break;
    }
  }
  // Full-size images: disparity, its scratch and the right view (int16); the 8-bit views of
  // full-depth input; the confidence's peaks (float2) and two float maps; speckle labels and
  // counts (int32).
  fixed += 3 * full * sizeof(int16_t) + 2 * full;
  if (wants_confidence(params)) fixed += full * (8 + 2 * sizeof(float));
  if (params.speckle_size > 0) fixed += 2 * full * sizeof(int32_t);
  if (params.temporal_filter) fixed += full * (sizeof(int16_t) + 1);  // previous output, age
  // Two frame slots: both input planes (up to float) and the left colour guide.
  fixed += 2 * full * (2 * sizeof(float) + 3);

  FrameCost cost;
  cost.device_bytes = fixed + census.bytes + ranks.bytes + fast_costs.bytes + fast_volumes.bytes +
                      fast_keys.bytes + costs_u8.bytes + costs_u16.bytes + costs_u32.bytes +
                      costs_f32.bytes + adaptive_scratch.bytes + keys.bytes;
  // Pinned staging of both slots (the planes, the colour guide, the int16 result, the
  // confidence, rectified colour views) and the result images handed back.
  cost.host_bytes = 2 * full * (2 * sizeof(float) + 3 + sizeof(int16_t) + sizeof(float) + 6) +
                    full * (sizeof(float) + sizeof(int16_t) + sizeof(float) + 6);
  return cost;
}

}  // namespace sv::cuda
