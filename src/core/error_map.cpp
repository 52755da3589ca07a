#include "src/core/error_map.h"

#include <algorithm>
#include <cmath>

#include "src/core/error.h"

namespace sv {

namespace {

constexpr Rgb8 kInvalidEstimateColour{40, 110, 255};
constexpr Rgb8 kOccludedColour{170, 40, 230};

bool is_set(const ImageU8& mask, size_t i) { return mask.empty() || mask.data()[i] == 255; }

// Yellow at the threshold to red at 4 px: green falls with the error, red and blue stay.
Rgb8 error_colour(double error) {
  const double t = std::clamp((error - kErrorMapThreshold) / (4.0 - kErrorMapThreshold), 0.0, 1.0);
  return Rgb8{255, static_cast<uint8_t>(std::lround(230.0 * (1.0 - t))), 0};
}

}  // namespace

ErrorClass classify_error_pixel(float estimate, float truth, bool in_all, bool occluded) {
  if (!std::isfinite(truth) || !in_all) return ErrorClass::Unevaluated;
  // The same comparison as evaluation.cpp: in double, invalid counts as bad.
  const bool bad = !std::isfinite(estimate) ||
                   std::fabs(static_cast<double>(estimate) - static_cast<double>(truth)) >
                       static_cast<double>(kErrorMapThreshold);
  if (!bad) return ErrorClass::Good;
  return occluded ? ErrorClass::BadOccluded : ErrorClass::Bad;
}

Image<ErrorClass> classify_errors(const ImageF32& estimate, const ImageF32& ground_truth,
                                  const EvaluationMasks& masks) {
  // evaluate_disparity checks every size and says which one is wrong.
  evaluate_disparity(estimate, ground_truth, masks);
  Image<ErrorClass> classes(ground_truth.width(), ground_truth.height());
  for (size_t i = 0; i < ground_truth.size(); ++i) {
    const bool occluded = !masks.nonocc.empty() && masks.nonocc.data()[i] != 255;
    classes.data()[i] = classify_error_pixel(estimate.data()[i], ground_truth.data()[i],
                                             is_set(masks.all, i), occluded);
  }
  return classes;
}

ImageRgb8 error_map(const ImageRgb8& left, const ImageF32& estimate, const ImageF32& ground_truth,
                    const EvaluationMasks& masks) {
  if (!left.same_size(ground_truth)) {
    throw InputError("error map: the left view is " + std::to_string(left.width()) + "x" +
                     std::to_string(left.height()) + " but the ground truth is " +
                     std::to_string(ground_truth.width()) + "x" +
                     std::to_string(ground_truth.height()));
  }
  const Image<ErrorClass> classes = classify_errors(estimate, ground_truth, masks);
  ImageRgb8 map(left.width(), left.height());
  for (size_t i = 0; i < map.size(); ++i) {
    const int gray = rgb_to_gray(left.data()[i]);
    switch (classes.data()[i]) {
      case ErrorClass::Unevaluated: {
        const uint8_t g = static_cast<uint8_t>(gray / 4);
        map.data()[i] = Rgb8{g, g, g};
        break;
      }
      case ErrorClass::Good: {
        const uint8_t g = static_cast<uint8_t>(40 + gray / 2);
        map.data()[i] = Rgb8{g, g, g};
        break;
      }
      case ErrorClass::Bad:
        map.data()[i] = std::isfinite(estimate.data()[i])
                            ? error_colour(std::fabs(static_cast<double>(estimate.data()[i]) -
                                                     ground_truth.data()[i]))
                            : kInvalidEstimateColour;
        break;
      case ErrorClass::BadOccluded: map.data()[i] = kOccludedColour; break;
    }
  }
  return map;
}

}  // namespace sv
