#include "src/core/cpu_frame_cost.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "src/core/algorithm_registry.h"
#include "src/core/confidence.h"
#include "src/core/error.h"
#include "src/core/pyramid.h"

namespace sv {
namespace {

// What one level of an algorithm costs, per candidate disparity of each pixel and per pixel.
struct LevelCosts {
  double bytes_per_candidate;  // the cost volumes alive at once
  double bytes_per_pixel;      // the level's own images (census codes, window sums)
  double ns_per_candidate;     // one core
  double ns_per_pixel;         // one core
};

// Times measured on one core (480x360, 32 and 128 disparities, default parameters); SGM's
// share scales with its paths, ESAW/ESMP's passes with their iterations.
LevelCosts level_costs(const AlgorithmInfo& algorithm, const StereoParams& params) {
  const double path_share = params.sgm_paths == 4 ? 0.7 : 1.0;
  const double iteration_share = params.esaw_iterations / 9.0;
  switch (algorithm.cost) {
    case MatchingCost::Census:
      // uint8 costs and the uint16 path sums; two images of 32-byte census codes.
      return {3.0, 64.0, 32.0 * path_share, 460.0};
    case MatchingCost::Rank:
      return {3.0, 2.0, 27.0 * path_share, 80.0};
    case MatchingCost::Sad:
    case MatchingCost::Ssd:
      return {4.0, 0.0, 10.5, 45.0};  // uint32 window sums
    case MatchingCost::Zncc:
      return {8.0, 16.0, 15.0, 90.0};  // uint32 cross sums and float costs; window statistics
    case MatchingCost::TruncatedAd:
      // Two float volumes: a pass reads one and writes the other.
      return algorithm.aggregation == Aggregation::Esmp
                 ? LevelCosts{8.0, 0.0, 63.0 * iteration_share, 50.0}
                 : LevelCosts{8.0, 0.0, 15.5 * iteration_share, 50.0};
  }
  return {8.0, 64.0, 63.0, 460.0};
}

// Full-size images every frame holds besides the level's: gray views, the disparity in fixed
// point and float, the right view of the LR check, the median's copy; with the confidence its
// cost peaks, texture and map; 16-bit or float input its planes.
double frame_bytes_per_pixel(const StereoParams& params) {
  double bytes = 24.0;
  if (wants_confidence(params)) bytes += 24.0;
  bytes += 16.0;  // full-depth input planes and their pyramid, when there are any
  return bytes;
}

}  // namespace

FrameCost cpu_frame_cost(int width, int height, const StereoParams& params, int threads) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr) throw InputError("unknown algorithm \"" + params.algorithm + "\"");
  const LevelCosts costs = level_costs(*algorithm, params);
  const int levels = params.pyramid_levels;
  const std::vector<std::pair<int, int>> sizes = pyramid_level_sizes(width, height, levels);

  double peak_level_bytes = 0.0;
  double nanoseconds = 0.0;
  for (int level = levels; level >= 0; --level) {
    const double pixels = static_cast<double>(sizes[level].first) * sizes[level].second;
    const int count = level == levels
                          ? coarse_search_range(params.min_disparity, params.num_disparities, levels).count()
                          : refined_search_count(params.refine_radius, params.min_disparity,
                                                 params.num_disparities, level);
    const double candidates = pixels * count;
    peak_level_bytes = std::max(peak_level_bytes, candidates * costs.bytes_per_candidate +
                                                      pixels * costs.bytes_per_pixel);
    nanoseconds += candidates * costs.ns_per_candidate + pixels * costs.ns_per_pixel;
  }
  if (wants_confidence(params)) {
    // The peaks of every pixel's costs over all its candidates, then texture and the map
    // (640x480 D64 census-SGM: 10 % more CPU time than without).
    const double full_pixels = static_cast<double>(width) * height;
    nanoseconds += full_pixels * params.num_disparities * 4.0 + full_pixels * 150.0;
  }
  const double full_pixels = static_cast<double>(width) * height;
  FrameCost cost;
  cost.host_bytes = static_cast<uint64_t>(peak_level_bytes + full_pixels * frame_bytes_per_pixel(params));
  cost.seconds = nanoseconds * 1e-9 / std::max(1, threads);
  return cost;
}

}  // namespace sv
