#include "src/cpu_fast/fast_cpu_engine.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "src/core/algorithm_registry.h"
#include "src/core/census_cost.h"
#include "src/core/confidence.h"
#include "src/core/disparity.h"
#include "src/core/high_bit_depth.h"
#include "src/core/lr_check.h"
#include "src/core/winner_takes_all.h"
#include "src/core/parallel_for.h"
#include "src/core/pyramid.h"
#include "src/cpu_fast/fast_block_matching.h"
#include "src/cpu_fast/fast_census_cost.h"
#include "src/cpu_fast/fast_median.h"
#include "src/cpu_fast/fast_sgm.h"
#include "src/cpu_fast/fast_wta.h"
#include "src/cpu_fast/packed_census.h"
#include "src/cpu_fast/padded_volume.h"

namespace sv {

// Allocated once and reused by every frame of the same or a smaller size (PaddedVolume::reshape,
// packed_census into a PackedCensus).
struct FastCpuEngine::Volumes {
  PackedCensus census_left;
  PackedCensus census_right;
  PaddedVolume<uint8_t> costs;
  // The fused aggregation and selection's; with the pixel probe, its two volumes hold the whole
  // sum volume and the backward sweep's rows.
  SgmWorkspace sgm;
};

FastCpuEngine::FastCpuEngine() : volumes_(std::make_unique<Volumes>()) {}
FastCpuEngine::~FastCpuEngine() { stop_worker(); }  // before volumes_ go

namespace {

// One view's pyramid as cpu_engine.cpp builds it: the 8-bit levels every stage reads and, for
// 16-bit or float input, the full-depth levels the census reads instead.
struct ViewLevels {
  std::vector<ImageU8> eight_bit;
  std::vector<ImageU16> sixteen_bit;
  std::vector<ImageF32> floats;
};

ViewLevels build_levels(const ImageU8& view, const ImageU16* plane16, const ImageF32* planef,
                        FloatViewRange float_range, const StereoParams& params) {
  const int levels = params.pyramid_levels;
  ViewLevels out;
  if (plane16 != nullptr) {
    out.sixteen_bit = build_pyramid(*plane16, levels, params.missing_value);
    out.eight_bit.push_back(view);
    for (int i = 1; i <= levels; ++i) out.eight_bit.push_back(eight_bit_view(out.sixteen_bit[i]));
  } else if (planef != nullptr) {
    out.floats = build_pyramid(*planef, levels, float_missing_value(params));
    out.eight_bit.push_back(view);
    for (int i = 1; i <= levels; ++i) out.eight_bit.push_back(eight_bit_view(out.floats[i], float_range));
  } else {
    out.eight_bit = build_pyramid(view, levels);
  }
  return out;
}

// The census of one view on one level, from the plane the reference's census reads there, into
// `out` (its memory reused).
void level_census(const ViewLevels& view, int level, const StereoParams& params, PackedCensus& out) {
  if (!view.floats.empty()) {
    packed_census(view.floats[level], params.census, float_missing_value(params), out);
  } else if (!view.sixteen_bit.empty()) {
    packed_census(view.sixteen_bit[level], params.census, params.missing_value, out);
  } else {
    // Coarse 8-bit levels hold plain averages, so only the input level knows missing values.
    packed_census(view.eight_bit[level], params.census, level == 0 ? params.missing_value : -1, out);
  }
}

bool uses_sad(const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  return algorithm != nullptr && algorithm->cost == MatchingCost::Sad;
}

// cpu_engine.cpp's LevelMatcher for block-matching SAD: the SIMD window sums, then the
// reference's selection on them (the same stages and settings, so the same disparities).
template <typename Timer>
ImageI16 match_sad_level(const ImageU8& left, const ImageU8& right, const SearchRange& range,
                         const StereoParams& params, bool final_level, const Timer& timer,
                         PixelCosts* probe) {
  CostVolume<uint32_t> costs;
  {
    const auto t = timer("cost");
    costs = fast_sad_cost_volume(left, right, params.window, range);
  }
  WtaSettings wta;
  wta.uniqueness = final_level ? params.uniqueness : 0;
  wta.subpixel = params.subpixel || !final_level;
  // bm-max-cost is a mean per window pixel, as in the reference.
  wta.max_cost = params.bm_max_cost > 0.0f
                     ? static_cast<double>(params.bm_max_cost) * params.window * params.window
                     : std::numeric_limits<double>::infinity();
  ImageI16 disparity;
  {
    const auto t = timer("wta");
    disparity = winner_takes_all(costs, wta);
  }
  if (final_level && probe != nullptr) {
    const int x = probe->pixel.x, y = probe->pixel.y;
    probe->base = range.base(x, y);
    probe->matching = cost_curve(costs.pixel(x, y), costs.count());
    probe->matching_name = "window SAD";
    probe->selection = explain_selection(costs.pixel(x, y), costs.count(), probe->base, wta);
    probe->uniqueness = wta.uniqueness;
    probe->final_disparity = probe->selection.disparity;
    probe->reason = probe->selection.reason;
  }
  if (final_level && params.lr_check) {
    const auto t = timer("lr-check");
    lr_check(disparity, right_view_disparity(costs), params.lr_max_diff);
    if (probe != nullptr) probe->follow(disparity, InvalidReason::LrCheck);
  }
  return disparity;
}

// The probe's pixel from this engine's volumes: the same numbers as the reference's volumes.
void tap_pixel(const FastCpuEngine::Volumes& volumes, const SearchRange& range,
               const WtaSettings& wta, const StereoParams& params, PixelCosts& probe) {
  const int x = probe.pixel.x, y = probe.pixel.y;
  const int count = range.count();
  probe.base = range.base(x, y);
  probe.matching = cost_curve(volumes.costs.pixel(x, y), count);
  probe.matching_name = "census";
  // Sums are below 4096 here (fast_wta.h), so the reference's uint16 holds them as they are.
  const int16_t* sums = volumes.sgm.forward.pixel(x, y);
  const std::vector<uint16_t> aggregated(sums, sums + count);
  probe.aggregated = cost_curve(aggregated.data(), count);
  probe.aggregated_name = "SGM, " + std::to_string(params.sgm_paths) + " paths";
  probe.selection = explain_selection(aggregated.data(), count, probe.base, wta);
  probe.uniqueness = wta.uniqueness;
  probe.final_disparity = probe.selection.disparity;
  probe.reason = probe.selection.reason;
}

// cpu_engine.cpp's run_pipeline for census-SGM and block-matching SAD without confidence, stage
// for stage, with the SIMD stages; the timings carry the reference's stage names.
DisparityResult run_fast_pipeline(const ImageU8& left, const ImageU8& right, const ImageU16* left16,
                                  const ImageU16* right16, const ImageF32* leftf,
                                  const ImageF32* rightf, FloatViewRange float_range,
                                  const StereoParams& params, FastCpuEngine::Volumes& volumes,
                                  const CpuEngine::OverTimeStage& over_time, PixelCosts* probe) {
  require_matching_pair(left, right);
  const int levels = params.pyramid_levels;
  pyramid_level_sizes(left.width(), left.height(), levels);  // throws when too small
  if (probe != nullptr) {
    probe->unavailable = probe_outside_problem(probe->pixel, left.width(), left.height());
    if (!probe->available()) probe = nullptr;
  }

  DisparityResult result;
  ViewLevels left_levels, right_levels;
  {
    ScopedStageTimer timer(result.timings, "pyramid");
    left_levels = build_levels(left, left16, leftf, float_range, params);
    right_levels = build_levels(right, right16, rightf, float_range, params);
  }
  SearchRange range = coarse_search_range(params.min_disparity, params.num_disparities, levels);
  ImageI16 disparity;
  for (int level = levels; level >= 0; --level) {
    const bool final_level = level == 0;
    const std::string prefix = level > 0 ? "L" + std::to_string(level) + " " : "";
    auto timer = [&](const char* stage) { return ScopedStageTimer(result.timings, prefix + stage); };
    const bool lr = final_level && params.lr_check;
    if (uses_sad(params)) {
      disparity = match_sad_level(left_levels.eight_bit[level], right_levels.eight_bit[level],
                                  range, params, final_level, timer,
                                  final_level ? probe : nullptr);
    } else {
      {
        const auto t = timer("census");
        // The two views side by side (each then runs on one thread), whole images apart.
        parallel_for(0, 2, [&](int view) {
          level_census(view == 0 ? left_levels : right_levels, level, params,
                       view == 0 ? volumes.census_left : volumes.census_right);
        });
      }
      {
        const auto t = timer("cost");
        fast_census_cost_volume(volumes.census_left, volumes.census_right, range, volumes.costs);
      }
      WtaSettings wta;
      wta.uniqueness = final_level ? params.uniqueness : 0;
      wta.subpixel = params.subpixel || !final_level;
      ImageI16 right_view;
      const bool tap = final_level && probe != nullptr;
      if (tap) {  // the probe reads the pixel's sums from the whole sum volume
        {
          const auto t = timer("sgm");
          fast_sgm_aggregate(volumes.costs, range, left_levels.eight_bit[level], sgm_settings(params),
                             volumes.sgm.forward, volumes.sgm.backward, kMaxMatchCost);
        }
        const auto t = timer("wta");
        disparity = fast_winner_takes_all(volumes.sgm.forward, range, wta, lr ? &right_view : nullptr);
      } else {
        const auto t = timer("sgm+wta");
        disparity = fast_sgm_select(volumes.costs, range, left_levels.eight_bit[level],
                                    sgm_settings(params), wta, lr ? &right_view : nullptr,
                                    volumes.sgm, kMaxMatchCost);
      }
      if (tap) tap_pixel(volumes, range, wta, params, *probe);
      if (lr) {
        const auto t = timer("lr-check");
        lr_check(disparity, right_view, params.lr_max_diff);
        if (probe != nullptr) probe->follow(disparity, InvalidReason::LrCheck);
      }
    }
    if (level > 0) {
      const ImageU8& finer = left_levels.eight_bit[level - 1];
      range = refine_search_range(disparity, finer.width(), finer.height(), params.refine_radius,
                                  params.min_disparity, params.num_disparities, level - 1);
    }
  }
  filter_disparity(disparity, params, over_time, result.timings, fast_median_filter, probe);
  result.width = disparity.width();
  result.height = disparity.height();
  result.disparity_fixed = std::move(disparity);
  return result;
}

}  // namespace

bool FastCpuEngine::accelerates(const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr || wants_confidence(params)) return false;
  return (algorithm->cost == MatchingCost::Census && algorithm->aggregation == Aggregation::Sgm) ||
         algorithm->cost == MatchingCost::Sad;
}

FrameCost FastCpuEngine::frame_cost(int width, int height, const StereoParams& params) const {
  FrameCost cost = CpuEngine::frame_cost(width, height, params);
  if (!accelerates(params)) return cost;
  if (uses_sad(params)) {
    // The reference's volumes; the SIMD window sums make the frame about 2.4 times as fast in
    // CPU time (640x480 D128, window 9; the reference's WTA and LR check on them remain).
    cost.seconds /= 2.0;
    return cost;
  }
  // The finest level's volumes dominate: uint8 costs and two int16 sums per padded candidate
  // here, against uint8 costs and one uint16 sum per candidate in the reference.
  const int stride = (params.num_disparities + kVolumeLaneAlign - 1) / kVolumeLaneAlign * kVolumeLaneAlign;
  const uint64_t pixels = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
  cost.host_bytes += pixels * (5ull * stride - 3ull * params.num_disparities);
  // Measured against the reference (docs/cpu-engine.md: 640x480 D128, one thread, CPU
  // time): about 34 times as fast; a factor of 10 keeps the estimate on the long side.
  cost.seconds /= 10.0;
  return cost;
}

std::optional<DisparityResult> FastCpuEngine::compute_accelerated(const HostPair& pair,
                                                                  const StereoParams& params,
                                                                  const OverTimeStage& over_time,
                                                                  PixelCosts* probe) {
  require_valid(params);
  if (!accelerates(params)) return std::nullopt;
  switch (pair.format) {
    case PixelFormat::Gray8:
      require_missing_value_fits(params, 255);
      return run_fast_pipeline(pair.left8, pair.right8, nullptr, nullptr, nullptr, nullptr, {},
                               params, *volumes_, over_time, probe);
    case PixelFormat::Rgb8:  // census-SGM matches the gray (no colour weights)
      require_missing_value_fits(params, 255);
      return run_fast_pipeline(to_gray(pair.left_rgb), to_gray(pair.right_rgb), nullptr, nullptr,
                               nullptr, nullptr, {}, params, *volumes_, over_time, probe);
    case PixelFormat::Gray16:
      require_high_bit_depth_support(params);
      require_matching_pair(pair.left16, pair.right16);
      return run_fast_pipeline(eight_bit_view(pair.left16), eight_bit_view(pair.right16),
                               &pair.left16, &pair.right16, nullptr, nullptr, {}, params,
                               *volumes_, over_time, probe);
    case PixelFormat::GrayFloat: {
      require_float_input_support(params);
      require_matching_pair(pair.leftf, pair.rightf);
      const FloatViewRange range = float_view_range(pair.leftf, pair.rightf, params);
      return run_fast_pipeline(eight_bit_view(pair.leftf, range), eight_bit_view(pair.rightf, range),
                               nullptr, nullptr, &pair.leftf, &pair.rightf, range, params,
                               *volumes_, over_time, probe);
    }
  }
  return std::nullopt;
}

}  // namespace sv
