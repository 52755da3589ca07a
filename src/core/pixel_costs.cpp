#include "src/core/pixel_costs.h"

namespace sv {

const char* invalid_reason_name(InvalidReason reason) {
  switch (reason) {
    case InvalidReason::None: return "";
    case InvalidReason::NoCost: return "no valid cost";
    case InvalidReason::CostLimit: return "cost limit";
    case InvalidReason::Uniqueness: return "uniqueness";
    case InvalidReason::LrCheck: return "LR check";
    case InvalidReason::Confidence: return "confidence threshold";
    case InvalidReason::Median: return "median";
    case InvalidReason::Speckle: return "speckle";
    case InvalidReason::Temporal: return "temporal filter";
  }
  return "";
}

void PixelCosts::follow(const ImageI16& disparity_fixed, InvalidReason stage) {
  if (available()) follow_value(disparity_fixed.at(pixel.x, pixel.y), stage);
}

void PixelCosts::follow_value(int16_t now, InvalidReason stage) {
  if (!is_valid_fixed_disparity(now)) {
    if (is_valid_fixed_disparity(final_disparity)) reason = stage;
  } else {
    reason = InvalidReason::None;
  }
  final_disparity = now;
}

std::string probe_outside_problem(const ProbePixel& pixel, int width, int height) {
  if (pixel.x >= 0 && pixel.y >= 0 && pixel.x < width && pixel.y < height) return "";
  return "(" + std::to_string(pixel.x) + ", " + std::to_string(pixel.y) + ") lies outside the " +
         std::to_string(width) + "x" + std::to_string(height) + " image";
}

}  // namespace sv
