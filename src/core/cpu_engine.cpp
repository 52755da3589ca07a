#include "src/core/cpu_engine.h"

#include <limits>
#include <string>
#include <utility>

#include "src/core/algorithm_registry.h"
#include "src/core/block_matching.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/confidence.h"
#include "src/core/cpu_frame_cost.h"
#include "src/core/disparity.h"
#include "src/core/disparity_repair.h"
#include "src/core/error.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_aggregation.h"
#include "src/core/half_float.h"
#include "src/core/high_bit_depth.h"
#include "src/core/hole_filling.h"
#include "src/core/lr_check.h"
#include "src/core/median_filter.h"
#include "src/core/parallel_for.h"
#include "src/core/pyramid.h"
#include "src/core/rank_transform.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/speckle_filter.h"
#include "src/core/truncated_ad_cost.h"
#include "src/core/winner_takes_all.h"

namespace sv {
namespace {

// What the confidence needs from the final level's cost volume (its costs are gone afterwards).
struct ConfidenceInputs {
  CostPeaks peaks;
  ImageI16 right_view;  // empty without the LR check
};

// Matches one pyramid level. Coarse levels only feed the predictor, so they skip the
// rejection steps (LR check, uniqueness, speckles) whose holes the predictor would have to fill.
class LevelMatcher {
 public:
  LevelMatcher(const AlgorithmInfo& algorithm, const StereoParams& params, bool final_level,
               const std::string& stage_prefix, StageTimings& timings)
      : algorithm_(algorithm), params_(params), final_(final_level), prefix_(stage_prefix),
        timings_(timings) {}

  // Asks the level to keep the cost peaks and right view for the confidence.
  void keep_confidence_inputs(ConfidenceInputs* inputs) { confidence_inputs_ = inputs; }

  // 16-bit input (high_bit_depth.h): the census reads these instead of the 8-bit views.
  void use_16bit_census_input(const ImageU16& left, const ImageU16& right) {
    left16_ = &left;
    right16_ = &right;
  }

  // Float input (high_bit_depth.h): the census reads these, NaN and `missing` marking no data.
  void use_float_census_input(const ImageF32& left, const ImageF32& right, float missing) {
    leftf_ = &left;
    rightf_ = &right;
    float_missing_ = missing;
  }

  // Colour input of the level (esaw_aggregation.cpp, "Colour or gray"): ESAW / ESMP weigh with it.
  void use_colour_guide(const ImageRgb8& left) { colour_guide_ = &left; }

  // Asks the level to copy one pixel's costs and selection into `probe` as the stages pass.
  void tap_pixel(PixelCosts* probe) { probe_ = probe; }

  ImageI16 match(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    switch (algorithm_.cost) {
      case MatchingCost::Census: return match_census(left, right, range);
      case MatchingCost::Rank: return match_rank(left, right, range);
      case MatchingCost::TruncatedAd: return match_exponential_step(left, right, range);
      case MatchingCost::Sad: {
        const auto costs = timed("cost", [&] { return sad_cost_volume(left, right, params_.window, range); });
        tap_matching(costs, "window SAD");
        return select(costs, window_cost_limit());
      }
      case MatchingCost::Ssd: {
        const auto costs = timed("cost", [&] { return ssd_cost_volume(left, right, params_.window, range); });
        tap_matching(costs, "window SSD");
        return select(costs, window_cost_limit() * 255.0);
      }
      case MatchingCost::Zncc: {
        const auto costs = timed("cost", [&] { return zncc_cost_volume(left, right, params_.window, range); });
        tap_matching(costs, "1 - ZNCC");
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

  // The probe's pixel, when it reads this level's volumes.
  template <typename T>
  void tap_matching(const CostVolume<T>& costs, const char* name) {
    if (probe_ == nullptr) return;
    const ProbePixel& p = probe_->pixel;
    probe_->base = costs.range().base(p.x, p.y);
    probe_->matching = cost_curve(costs.pixel(p.x, p.y), costs.count());
    probe_->matching_name = name;
  }

  template <typename T>
  void tap_aggregated(const CostVolume<T>& costs, const std::string& name) {
    if (probe_ == nullptr) return;
    const ProbePixel& p = probe_->pixel;
    probe_->aggregated = cost_curve(costs.pixel(p.x, p.y), costs.count());
    probe_->aggregated_name = name;
  }

  std::string sgm_name() const { return "SGM, " + std::to_string(params_.sgm_paths) + " paths"; }

  // bm-max-cost is a mean per window pixel (absolute difference; SSD scales it by 255 so one
  // setting means roughly the same for both).
  double window_cost_limit() const {
    return params_.bm_max_cost > 0.0f
               ? static_cast<double>(params_.bm_max_cost) * params_.window * params_.window
               : kNoLimit;
  }

  ImageI16 match_census(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    // Missing values are input values: coarse 8-bit levels hold plain averages, so only the
    // input level (the final one) knows them; 16-bit levels keep them (pyramid.cpp).
    const int missing = final_ || left16_ ? params_.missing_value : -1;
    const auto census_of = [&](const ImageU8& image8, const ImageU16* image16) {
      return timed("census", [&] {
        return image16 ? census_transform(*image16, params_.census, missing)
                       : census_transform(image8, params_.census, missing);
      });
    };
    const auto float_census_of = [&](const ImageF32& image) {
      return timed("census", [&] { return census_transform(image, params_.census, float_missing_); });
    };
    const CensusImage census_left = leftf_ ? float_census_of(*leftf_) : census_of(left, left16_);
    const CensusImage census_right = rightf_ ? float_census_of(*rightf_) : census_of(right, right16_);
    const auto costs = timed("cost", [&] { return census_cost_volume(census_left, census_right, range); });
    tap_matching(costs, "census");
    if (algorithm_.aggregation != Aggregation::Sgm) return select(costs, kNoLimit);
    const SgmSettings sgm = sgm_settings(params_);
    const auto aggregated = timed("sgm", [&] { return sgm_aggregate(costs, left, sgm); });
    tap_aggregated(aggregated, sgm_name());
    return select(aggregated, kNoLimit);
  }

  ImageI16 match_rank(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    const int window = params_.rank_window;
    const ImageU8 ranks_left = timed("rank", [&] { return rank_transform(left, window); });
    const ImageU8 ranks_right = timed("rank", [&] { return rank_transform(right, window); });
    const auto costs = timed("cost", [&] { return rank_cost_volume(ranks_left, ranks_right, window, range); });
    tap_matching(costs, "rank difference");
    if (algorithm_.aggregation != Aggregation::Sgm) return select(costs, kNoLimit);
    const auto aggregated = timed("sgm", [&] { return sgm_aggregate(costs, left, sgm_settings(params_)); });
    tap_aggregated(aggregated, sgm_name());
    return select(aggregated, kNoLimit);
  }

  // ESAW / ESMP (Yu et al. 2009).
  ImageI16 match_exponential_step(const ImageU8& left, const ImageU8& right, const SearchRange& range) {
    auto costs = timed("cost", [&] {
      auto volume = truncated_ad_cost_volume(left, right, range, params_.ad_lambda, params_.ad_tau);
      if (params_.half_costs) round_to_half(volume);  // stored as half, like the CUDA engine
      return volume;
    });
    tap_matching(costs, "truncated AD");
    const EsawSettings esaw = esaw_settings(params_);
    if (algorithm_.aggregation == Aggregation::Esmp) {
      const MessageSettings messages = esmp_message_settings(params_);
      const auto aggregated = timed("esmp", [&] {
        return colour_guide_ ? esmp_aggregate(std::move(costs), *colour_guide_, esaw, messages)
                             : esmp_aggregate(std::move(costs), left, esaw, messages);
      });
      tap_aggregated(aggregated, "ESMP");
      return select(aggregated, kNoLimit);
    }
    const auto aggregated = timed("esaw", [&] {
      return colour_guide_ ? esaw_aggregate(std::move(costs), *colour_guide_, esaw)
                           : esaw_aggregate(std::move(costs), left, esaw);
    });
    tap_aggregated(aggregated, "ESAW");
    return select(aggregated, kNoLimit);
  }

    static void record_selection(PixelCosts& probe, const PixelSelection& selection,
                               const WtaSettings& wta) {
    probe.selection = selection;
    probe.uniqueness = wta.uniqueness;
    probe.final_disparity = selection.disparity;
    probe.reason = selection.reason;
  }

  template <typename T>
  ImageI16 select(const CostVolume<T>& costs, double max_cost) {
    WtaSettings wta;
    wta.uniqueness = final_ ? params_.uniqueness : 0;
    wta.subpixel = params_.subpixel || !final_;
    wta.max_cost = max_cost;
    ImageI16 disparity = timed("wta", [&] { return winner_takes_all(costs, wta); });
    if (probe_ != nullptr) {
      const ProbePixel& p = probe_->pixel;
      record_selection(*probe_, explain_selection(costs.pixel(p.x, p.y), costs.count(),
                                                  costs.range().base(p.x, p.y), wta), wta);
    }
    ImageI16 right_view;
    if (final_ && params_.lr_check) {
      ScopedStageTimer timer(timings_, prefix_ + "lr-check");
      right_view = right_view_disparity(costs);
      lr_check(disparity, right_view, params_.lr_max_diff);
      if (probe_ != nullptr) probe_->follow(disparity, InvalidReason::LrCheck);
    }
    if (confidence_inputs_ != nullptr) {
      ScopedStageTimer timer(timings_, prefix_ + "confidence");
      confidence_inputs_->peaks = cost_peaks(costs);
      confidence_inputs_->right_view = std::move(right_view);
    }
    return disparity;
  }

  const AlgorithmInfo& algorithm_;
  const StereoParams& params_;
  bool final_;
  std::string prefix_;
  StageTimings& timings_;
  ConfidenceInputs* confidence_inputs_ = nullptr;
  const ImageU16* left16_ = nullptr;
  const ImageU16* right16_ = nullptr;
  const ImageF32* leftf_ = nullptr;
  const ImageF32* rightf_ = nullptr;
  float float_missing_ = 0.0f;
  const ImageRgb8* colour_guide_ = nullptr;
  PixelCosts* probe_ = nullptr;
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

namespace {

// Every pyramid level of one view: the 8-bit image all stages read and, for 16-bit or float
// input, the full-depth plane the census reads instead (pyramid.cpp reduces it at full depth;
// the coarse 8-bit images are its 8-bit views, high_bit_depth.h).
struct ViewPyramid {
  std::vector<ImageU8> eight_bit;
  std::vector<ImageU16> sixteen_bit;  // empty unless the input is 16-bit
  std::vector<ImageF32> floats;       // empty unless the input is float
};

ViewPyramid build_view_pyramid(const ImageU8& view, const ImageU16* plane16, const ImageF32* planef,
                               FloatViewRange float_range, const StereoParams& params) {
  const int levels = params.pyramid_levels;
  ViewPyramid pyramid;
  if (plane16 != nullptr) {
    pyramid.sixteen_bit = build_pyramid(*plane16, levels, params.missing_value);
    pyramid.eight_bit.push_back(view);
    for (int i = 1; i <= levels; ++i) pyramid.eight_bit.push_back(eight_bit_view(pyramid.sixteen_bit[i]));
  } else if (planef != nullptr) {
    pyramid.floats = build_pyramid(*planef, levels, float_missing_value(params));
    pyramid.eight_bit.push_back(view);
    for (int i = 1; i <= levels; ++i) pyramid.eight_bit.push_back(eight_bit_view(pyramid.floats[i], float_range));
  } else {
    pyramid.eight_bit = build_pyramid(view, levels);
  }
  return pyramid;
}

}  // namespace

// The whole pipeline on 8-bit views; for 16-bit input `left16` / `right16` (else null) feed the
// census instead, level by level; `over_time` is the engine's temporal stage; `colour_left`
// (else null), the colour of `left`, guides ESAW / ESMP's weights on the input level; for float
// input `leftf` / `rightf` (else null) feed the census the same way, `float_range` being the
// views' range.
static DisparityResult run_pipeline(const ImageU8& left, const ImageU8& right,
                                    const ImageU16* left16, const ImageU16* right16,
                                    const StereoParams& params,
                                    const CpuEngine::OverTimeStage& over_time,
                                    const ImageRgb8* colour_left = nullptr,
                                    const ImageF32* leftf = nullptr,
                                    const ImageF32* rightf = nullptr,
                                    FloatViewRange float_range = {},
                                    PixelCosts* probe = nullptr) {
  require_valid(params);
  require_matching_pair(left, right);
  if (probe != nullptr) {
    probe->unavailable = probe_outside_problem(probe->pixel, left.width(), left.height());
    if (!probe->available()) probe = nullptr;
  }
  const AlgorithmInfo& algorithm = *find_algorithm(params.algorithm);
  const int levels = params.pyramid_levels;
  pyramid_level_sizes(left.width(), left.height(), levels);  // throws when too small

  DisparityResult result;
  ViewPyramid left_levels, right_levels;
  {
    ScopedStageTimer timer(result.timings, "pyramid");
    left_levels = build_view_pyramid(left, left16, leftf, float_range, params);
    right_levels = build_view_pyramid(right, right16, rightf, float_range, params);
  }
  const std::vector<ImageU8>& left_pyramid = left_levels.eight_bit;
  const std::vector<ImageU8>& right_pyramid = right_levels.eight_bit;

  SearchRange range = coarse_search_range(params.min_disparity, params.num_disparities, levels);
  ImageI16 disparity;
  ConfidenceInputs confidence_inputs;
  for (int level = levels; level >= 0; --level) {
    const std::string prefix = level > 0 ? "L" + std::to_string(level) + " " : "";
    LevelMatcher matcher(algorithm, params, level == 0, prefix, result.timings);
    if (left16 != nullptr) {
      matcher.use_16bit_census_input(left_levels.sixteen_bit[level], right_levels.sixteen_bit[level]);
    }
    if (leftf != nullptr) {
      matcher.use_float_census_input(left_levels.floats[level], right_levels.floats[level],
                                     float_missing_value(params));
    }
    if (level == 0 && colour_left != nullptr) matcher.use_colour_guide(*colour_left);
    if (level == 0 && wants_confidence(params)) matcher.keep_confidence_inputs(&confidence_inputs);
    if (level == 0) matcher.tap_pixel(probe);
    disparity = matcher.match(left_pyramid[level], right_pyramid[level], range);
    if (level > 0) {
      const ImageU8& finer = left_pyramid[level - 1];
      range = refine_search_range(disparity, finer.width(), finer.height(), params.refine_radius,
                                  params.min_disparity, params.num_disparities, level - 1);
    }
  }

  // The confidence belongs to the selected disparities, so it and what it drives (repair, then
  // the threshold on the repaired confidence) come before the filters that change them.
  if (wants_confidence(params)) {
    {
      ScopedStageTimer timer(result.timings, "confidence");
      const ConfidenceSettings settings = confidence_settings(params);
      const ImageF32 texture = texture_deviation(left, settings.texture_window_width,
                                                 settings.texture_window_height);
      result.confidence = combined_confidence(disparity, confidence_inputs.peaks, texture,
                                              confidence_inputs.right_view, settings);
    }
    if (params.repair) {
      ScopedStageTimer timer(result.timings, "repair");
      repair_disparity(disparity, result.confidence);
      if (probe != nullptr) probe->follow(disparity, InvalidReason::Confidence);
    }
    if (params.confidence_threshold > 0.0f) {
      ScopedStageTimer timer(result.timings, "threshold");
      apply_confidence_threshold(disparity, result.confidence, params.confidence_threshold);
      if (probe != nullptr) probe->follow(disparity, InvalidReason::Confidence);
    }
  }
  filter_disparity(disparity, params, over_time, result.timings, median_filter, probe);
  result.width = disparity.width();
  result.height = disparity.height();
  result.disparity_fixed = std::move(disparity);
  return result;
}

void filter_disparity(ImageI16& disparity, const StereoParams& params,
                      const CpuEngine::OverTimeStage& over_time, StageTimings& timings,
                      MedianFilter median, PixelCosts* probe) {
  const auto follow = [&](InvalidReason stage) {
    if (probe != nullptr) probe->follow(disparity, stage);
  };
  if (params.median > 1) {
    ScopedStageTimer timer(timings, "median");
    disparity = median(disparity, params.median);
    follow(InvalidReason::Median);
  }
  if (params.speckle_size > 0) {
    ScopedStageTimer timer(timings, "speckle");
    remove_speckles(disparity, params.speckle_size, params.speckle_range);
    follow(InvalidReason::Speckle);
  }
  // Before the fill, as in the RealSense chain: a held or smoothed value beats a filled guess,
  // and the fill then works on the steadier map.
  over_time(disparity, timings);
  follow(InvalidReason::Temporal);
  if (params.fill_holes) {
    ScopedStageTimer timer(timings, "fill");
    fill_holes(disparity);
    follow(InvalidReason::None);
  }
}

CpuEngine::CpuEngine()
    : worker_("cpu", [this](HostPair& pair, const FrameRequest& request) {
        return compute_now(pair, request);
      }) {}

namespace {

DisparityResult compute_gray(const ImageU8& left, const ImageU8& right,
                             const StereoParams& params, const CpuEngine::OverTimeStage& over_time,
                             PixelCosts* probe) {
  require_valid(params);
  require_missing_value_fits(params, 255);
  return run_pipeline(left, right, nullptr, nullptr, params, over_time, nullptr, nullptr, nullptr,
                      {}, probe);
}

DisparityResult compute_colour(const ImageRgb8& left, const ImageRgb8& right,
                               const StereoParams& params, const CpuEngine::OverTimeStage& over_time,
                               PixelCosts* probe) {
  const ImageU8 gray_left = to_gray(left);
  const ImageU8 gray_right = to_gray(right);
  if (!uses_colour_weights(params)) {
    return compute_gray(gray_left, gray_right, params, over_time, probe);
  }
  require_valid(params);
  require_missing_value_fits(params, 255);
  return run_pipeline(gray_left, gray_right, nullptr, nullptr, params, over_time, &left, nullptr,
                      nullptr, {}, probe);
}

DisparityResult compute_16bit(const ImageU16& left, const ImageU16& right,
                              const StereoParams& params, const CpuEngine::OverTimeStage& over_time,
                              PixelCosts* probe) {
  require_valid(params);
  require_high_bit_depth_support(params);
  require_matching_pair(left, right);
  return run_pipeline(eight_bit_view(left), eight_bit_view(right), &left, &right, params,
                      over_time, nullptr, nullptr, nullptr, {}, probe);
}

DisparityResult compute_float(const ImageF32& left, const ImageF32& right,
                              const StereoParams& params, const CpuEngine::OverTimeStage& over_time,
                              PixelCosts* probe) {
  require_valid(params);
  require_float_input_support(params);
  require_matching_pair(left, right);
  const FloatViewRange range = float_view_range(left, right, params);
  return run_pipeline(eight_bit_view(left, range), eight_bit_view(right, range), nullptr, nullptr,
                      params, over_time, nullptr, &left, &right, range, probe);
}

}  // namespace

DisparityResult CpuEngine::compute_now(HostPair& pair, const FrameRequest& request) {
  rectify_on_host(request, pair);
  DisparityResult result;
  const OverTimeStage time_stage = over_time(request.params);
  const StereoParams& params = request.params;
  std::optional<PixelCosts> probe;
  if (request.want.probe) {
    probe.emplace();
    probe->pixel = *request.want.probe;
  }
  PixelCosts* const tap = probe ? &*probe : nullptr;
  std::optional<DisparityResult> fast = compute_accelerated(pair, params, time_stage, tap);
  if (fast) {
    result = std::move(*fast);
  } else {
    switch (pair.format) {
      case PixelFormat::Gray8: result = compute_gray(pair.left8, pair.right8, params, time_stage, tap); break;
      case PixelFormat::Rgb8: result = compute_colour(pair.left_rgb, pair.right_rgb, params, time_stage, tap); break;
      case PixelFormat::Gray16: result = compute_16bit(pair.left16, pair.right16, params, time_stage, tap); break;
      case PixelFormat::GrayFloat: result = compute_float(pair.leftf, pair.rightf, params, time_stage, tap); break;
    }
  }
  result.probe = std::move(probe);
  const ResultParts& want = request.want;
  if (want.floating) result.disparity = fixed_to_float_disparity(result.disparity_fixed);
  if (!want.fixed) result.disparity_fixed = ImageI16();
  if (!want.confidence) result.confidence = ImageF32();
  return_rectified_views(request, pair, result);
  return result;
}

bool CpuEngine::supports_high_bit_depth(const StereoParams& params) const {
  return high_bit_depth_problem(params).empty();
}

bool CpuEngine::supports_float_input(const StereoParams& params) const {
  return float_input_problem(params).empty();
}

CpuEngine::OverTimeStage CpuEngine::over_time(const StereoParams& params) {
  return [this, &params](ImageI16& disparity, StageTimings& timings) {
    const std::lock_guard<std::mutex> lock(temporal_mutex_);
    if (!params.temporal_filter || !same_matching(temporal_params_, params)) temporal_.reset();
    temporal_params_ = params;
    if (!params.temporal_filter) return;
    ScopedStageTimer timer(timings, "temporal");
    temporal_.apply(disparity, temporal_filter_settings(params));
  };
}

FrameCost CpuEngine::frame_cost(int width, int height, const StereoParams& params) const {
  return cpu_frame_cost(width, height, params, worker_count());
}

}  // namespace sv
