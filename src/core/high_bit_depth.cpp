#include "src/core/high_bit_depth.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "src/core/algorithm_registry.h"
#include "src/core/error.h"

namespace sv {

uint8_t eight_bit_value(uint16_t value) { return static_cast<uint8_t>(value >> 8); }

ImageU8 eight_bit_view(const ImageU16& image) {
  ImageU8 view(image.width(), image.height());
  for (size_t i = 0; i < image.size(); ++i) view.data()[i] = eight_bit_value(image.data()[i]);
  return view;
}

float float_missing_value(const StereoParams& params) {
  return params.missing_value >= 0 ? static_cast<float>(params.missing_value)
                                   : std::numeric_limits<float>::quiet_NaN();
}

FloatViewRange float_view_range(const ImageF32& left, const ImageF32& right,
                                const StereoParams& params) {
  const float missing = float_missing_value(params);
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  for (const ImageF32* image : {&left, &right}) {
    for (size_t i = 0; i < image->size(); ++i) {
      const float v = image->data()[i];
      if (!std::isfinite(v) || v == missing) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  FloatViewRange range;
  if (!(lo < hi)) return range;  // no finite value, or a flat pair
  const float scale = 255.0f / (hi - lo);
  if (!std::isfinite(scale)) return range;
  range.lo = lo;
  range.scale = scale;
  return range;
}

uint8_t eight_bit_value(float value, FloatViewRange range) {
  // (v - lo) * scale is a subtraction then a product, which no compiler fuses into an FMA.
  const float q = (value - range.lo) * range.scale;
  if (std::isnan(q)) return 0;
  return static_cast<uint8_t>(std::nearbyint(std::min(std::max(q, 0.0f), 255.0f)));
}

ImageU8 eight_bit_view(const ImageF32& image, FloatViewRange range) {
  ImageU8 view(image.width(), image.height());
  for (size_t i = 0; i < image.size(); ++i) view.data()[i] = eight_bit_value(image.data()[i], range);
  return view;
}

std::string high_bit_depth_problem(const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr || algorithm->cost != MatchingCost::Census) {
    return params.algorithm + " cannot take 16-bit input (only census algorithms such as "
                              "census-sgm compare 16-bit values)";
  }
  return "";
}

void require_high_bit_depth_support(const StereoParams& params) {
  const std::string problem = high_bit_depth_problem(params);
  if (!problem.empty()) throw InputError(problem);
}

std::string float_input_problem(const StereoParams& params) {
  const AlgorithmInfo* algorithm = find_algorithm(params.algorithm);
  if (algorithm == nullptr || algorithm->cost != MatchingCost::Census) {
    return params.algorithm + " cannot take float input (only census algorithms such as "
                              "census-sgm compare float values)";
  }
  return "";
}

void require_float_input_support(const StereoParams& params) {
  const std::string problem = float_input_problem(params);
  if (!problem.empty()) throw InputError(problem);
}

void require_missing_value_fits(const StereoParams& params, int max_value) {
  if (params.missing_value > max_value) {
    throw InputError("missing value " + std::to_string(params.missing_value) +
                     " cannot occur in " + (max_value == 255 ? "8" : "16") +
                     "-bit input (0.." + std::to_string(max_value) + ", or -1 for none)");
  }
}

void require_matching_pair(const ImageU16& left, const ImageU16& right) {
  if (left.empty() || right.empty()) throw InputError("empty 16-bit input image");
  if (!left.same_size(right)) {
    throw InputError("left and right 16-bit images differ in size: " +
                     std::to_string(left.width()) + "x" + std::to_string(left.height()) + " vs " +
                     std::to_string(right.width()) + "x" + std::to_string(right.height()));
  }
}

void require_matching_pair(const ImageF32& left, const ImageF32& right) {
  if (left.empty() || right.empty()) throw InputError("empty float input image");
  if (!left.same_size(right)) {
    throw InputError("left and right float images differ in size: " +
                     std::to_string(left.width()) + "x" + std::to_string(left.height()) + " vs " +
                     std::to_string(right.width()) + "x" + std::to_string(right.height()));
  }
}

namespace {

// Float planes first when the engine takes them for `params`, then 16-bit ones, then the views.
template <class View>
PairView deepest_view(const StereoEngine& engine, const View& left, const View& right,
                      const ImageF32& leftf, const ImageF32& rightf, const ImageU16& left16,
                      const ImageU16& right16, const StereoParams& params) {
  if (!leftf.empty() && !rightf.empty() && engine.supports_float_input(params)) {
    return PairView::of(leftf, rightf);
  }
  if (!left16.empty() && !right16.empty() && engine.supports_high_bit_depth(params)) {
    return PairView::of(left16, right16);
  }
  return PairView::of(left, right);
}

}  // namespace

PairView full_depth_view(const StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                         const ImageF32& leftf, const ImageF32& rightf, const ImageU16& left16,
                         const ImageU16& right16, const StereoParams& params) {
  return deepest_view(engine, left, right, leftf, rightf, left16, right16, params);
}

PairView full_depth_view(const StereoEngine& engine, const ImageRgb8& left, const ImageRgb8& right,
                         const ImageF32& leftf, const ImageF32& rightf, const ImageU16& left16,
                         const ImageU16& right16, const StereoParams& params) {
  return deepest_view(engine, left, right, leftf, rightf, left16, right16, params);
}

DisparityResult match_at_full_depth(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                    const ImageF32& leftf, const ImageF32& rightf,
                                    const ImageU16& left16, const ImageU16& right16,
                                    const StereoParams& params) {
  FrameRequest request;
  request.pair = full_depth_view(engine, left, right, leftf, rightf, left16, right16, params);
  request.params = params;
  return engine.compute(request);
}

DisparityResult match_at_full_depth(StereoEngine& engine, const ImageRgb8& left,
                                    const ImageRgb8& right, const ImageF32& leftf,
                                    const ImageF32& rightf, const ImageU16& left16,
                                    const ImageU16& right16, const StereoParams& params) {
  FrameRequest request;
  request.pair = full_depth_view(engine, left, right, leftf, rightf, left16, right16, params);
  request.params = params;
  return engine.compute(request);
}

std::string float_input_fallback_note(const StereoEngine& engine, const StereoParams& params) {
  if (engine.supports_float_input(params)) return "";
  std::string why = float_input_problem(params);
  if (why.empty()) why = "the " + engine.name() + " engine cannot take float input";
  return "the images are float, but " + why + "; matching their 8-bit view (scaled by the "
         "pair's range)";
}

std::string high_bit_depth_fallback_note(const StereoEngine& engine, const StereoParams& params) {
  if (engine.supports_high_bit_depth(params)) return "";
  std::string why = high_bit_depth_problem(params);
  if (why.empty()) why = "the " + engine.name() + " engine cannot take 16-bit input";
  return "the images are 16-bit, but " + why + "; matching their 8-bit view (the high byte)";
}

}  // namespace sv
