#include "src/core/cpu_engine.h"

#include <limits>
#include <string>
#include <utility>

#include "src/core/algorithm_registry.h"
#include "src/core/block_matching.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_aggregation.h"
#include "src/core/hole_filling.h"
#include "src/core/lr_check.h"
#include "src/core/median_filter.h"
#include "src/core/pyramid.h"
#include "src/core/rank_transform.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/speckle_filter.h"
#include "src/core/truncated_ad_cost.h"
#include "src/core/winner_takes_all.h"

namespace sv {
namespace {

// Matches one pyramid level. Coarse levels only feed the predictor, so they skip the
// rejection steps (LR check, uniqueness, speckles) whose holes the predictor would have to fill.
class LevelMatcher {
 public:
  LevelMatcher(const AlgorithmInfo& algorithm, const StereoParams& params, bool final_level,
               const std::string& stage_prefix, StageTimings& timings)
      : algorithm_(algorithm), params_(params), final_(final_level), prefix_(stage_prefix),
        timings_(timings) {}

  ImageI16 match(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    switch (algorithm_.cost) {
      case MatchingCost::Census: return match_census(left, right, range);
      case MatchingCost::Rank: return match_rank(left, right, range);
      case MatchingCost::TruncatedAd: return match_exponential_step(left, right, range);
      case MatchingCost::Sad: {
        const auto costs = timed("cost", [&] { return sad_cost_volume(left, right, params_.window, range); });
        return select(costs, window_cost_limit());
      }
      case MatchingCost::Ssd: {
        const auto costs = timed("cost", [&] { return ssd_cost_volume(left, right, params_.window, range); });
        return select(costs, window_cost_limit() * 255.0);
      }
      case MatchingCost::Zncc: {
        const auto costs = timed("cost", [&] { return zncc_cost_volume(left, right, params_.window, range); });
        const double limit = params_.zncc_min > -1.0f ? 1.0 - params_.zncc_min : kNoLimit;
        return select(costs, limit);
      }
    }
    throw RuntimeError("unhandled matching cost of algorithm " + algorithm_.name);
  }

 private:
  static constexpr double kNoLimit = std::numeric_limits<double>::infinity();

  template <typename F>
  auto timed(const char* stage, F&& work) -> decltype(work()) {
    ScopedStageTimer timer(timings_, prefix_ + stage);
    return work();
  }

  // bm-max-cost is a mean per window pixel (absolute difference; SSD scales it by 255 so one
  // setting means roughly the same for both).
  double window_cost_limit() const {
    return params_.bm_max_cost > 0.0f
               ? static_cast<double>(params_.bm_max_cost) * params_.window * params_.window
               : kNoLimit;
  }

  ImageI16 match_census(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    const CensusImage census_left = timed("census", [&] { return census_transform(left, params_.census); });
    const CensusImage census_right = timed("census", [&] { return census_transform(right, params_.census); });
    const auto costs = timed("cost", [&] { return census_cost_volume(census_left, census_right, range); });
    if (algorithm_.aggregation != Aggregation::Sgm) return select(costs, kNoLimit);
    const SgmSettings sgm = sgm_settings(params_);
    const auto aggregated = timed("sgm", [&] { return sgm_aggregate(costs, left, sgm); });
    return select(aggregated, kNoLimit);
  }

  ImageI16 match_rank(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    const int window = params_.rank_window;
    const ImageU8 ranks_left = timed("rank", [&] { return rank_transform(left, window); });
    const ImageU8 ranks_right = timed("rank", [&] { return rank_transform(right, window); });
    const auto costs = timed("cost", [&] { return rank_cost_volume(ranks_left, ranks_right, window, range); });
    if (algorithm_.aggregation != Aggregation::Sgm) return select(costs, kNoLimit);
    const auto aggregated = timed("sgm", [&] { return sgm_aggregate(costs, left, sgm_settings(params_)); });
    return select(aggregated, kNoLimit);
  }

  // ESAW / ESMP (Yu et al. 2009). eta is relative to the full search range, so it is the same
  // at every pyramid level.
  ImageI16 match_exponential_step(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    auto costs = timed("cost", [&] {
      return truncated_ad_cost_volume(left, right, range, params_.ad_lambda, params_.ad_tau);
    });
    EsawSettings esaw;
    esaw.iterations = params_.esaw_iterations;
    esaw.step_base = params_.esaw_step_base;
    esaw.gamma_c = params_.esaw_gamma_c;
    esaw.gamma_p = params_.esaw_gamma_p;
    if (algorithm_.aggregation == Aggregation::Esmp) {
      MessageSettings messages;
      messages.slope = params_.esmp_c;
      messages.cap = params_.esmp_eta * static_cast<float>(params_.num_disparities);
      const auto aggregated = timed("esmp", [&] { return esmp_aggregate(std::move(costs), left, esaw, messages); });
      return select(aggregated, kNoLimit);
    }
    const auto aggregated = timed("esaw", [&] { return esaw_aggregate(std::move(costs), left, esaw); });
    return select(aggregated, kNoLimit);
  }

  template <typename T>
  ImageI16 select(const CostVolume<T>& costs, double max_cost) {
    WtaSettings wta;
    wta.uniqueness = final_ ? params_.uniqueness : 0;
    wta.subpixel = params_.subpixel || !final_;
    wta.max_cost = max_cost;
    ImageI16 disparity = timed("wta", [&] { return winner_takes_all(costs, wta); });
    if (final_ && params_.lr_check) {
      ScopedStageTimer timer(timings_, prefix_ + "lr-check");
      lr_check(disparity, right_view_disparity(costs), params_.lr_max_diff);
    }
    return disparity;
  }

  const AlgorithmInfo& algorithm_;
  const StereoParams& params_;
  bool final_;
  std::string prefix_;
  StageTimings& timings_;
};


}  // namespace

void require_matching_pair(const ImageU8& left, const ImageU8& right) {
  if (left.empty() || right.empty()) throw InputError("empty input image");
  if (!left.same_size(right)) {
    throw InputError("left and right images differ in size: " + std::to_string(left.width()) +
                     "x" + std::to_string(left.height()) + " vs " +
                     std::to_string(right.width()) + "x" + std::to_string(right.height()));
  }
}

DisparityResult CpuEngine::compute(const ImageU8& left, const ImageU8& right,
                                   const StereoParams& params) {
  require_valid(params);
  require_matching_pair(left, right);
  const AlgorithmInfo& algorithm = *find_algorithm(params.algorithm);
  const int levels = params.pyramid_levels;
  pyramid_level_sizes(left.width(), left.height(), levels);  // throws when too small

  DisparityResult result;
  std::vector<ImageU8> left_pyramid, right_pyramid;
  {
    ScopedStageTimer timer(result.timings, "pyramid");
    left_pyramid = build_pyramid(left, levels);
    right_pyramid = build_pyramid(right, levels);
  }

  SearchRange range = coarse_search_range(params.min_disparity, params.num_disparities, levels);
  ImageI16 disparity;
  for (int level = levels; level >= 0; --level) {
    const std::string prefix = level > 0 ? "L" + std::to_string(level) + " " : "";
    LevelMatcher matcher(algorithm, params, level == 0, prefix, result.timings);
    disparity = matcher.match(left_pyramid[level], right_pyramid[level], range);
    if (level > 0) {
      const ImageU8& finer = left_pyramid[level - 1];
      range = refine_search_range(disparity, finer.width(), finer.height(), params.refine_radius,
                                  params.min_disparity, params.num_disparities, level - 1);
    }
  }

  if (params.median > 1) {
    ScopedStageTimer timer(result.timings, "median");
    disparity = median_filter(disparity, params.median);
  }
  if (params.speckle_size > 0) {
    ScopedStageTimer timer(result.timings, "speckle");
    remove_speckles(disparity, params.speckle_size, params.speckle_range);
  }
  if (params.fill_holes) {
    ScopedStageTimer timer(result.timings, "fill");
    fill_holes(disparity);
  }
  result.disparity = fixed_to_float_disparity(disparity);
  result.disparity_fixed = std::move(disparity);
  return result;
}

}  // namespace sv
