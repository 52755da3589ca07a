#include "src/core/flicker.h"

#include <cmath>

namespace sv {

std::optional<double> disparity_flicker(const ImageF32& previous, const ImageF32& current) {
  if (!previous.same_size(current) || current.empty()) return std::nullopt;
  double sum = 0.0;
  long long pixels = 0;
  for (size_t i = 0; i < current.size(); ++i) {
    const float a = previous.data()[i], b = current.data()[i];
    if (!std::isfinite(a) || !std::isfinite(b)) continue;
    sum += std::fabs(static_cast<double>(b) - static_cast<double>(a));
    ++pixels;
  }
  if (pixels == 0) return std::nullopt;
  return sum / static_cast<double>(pixels);
}

std::optional<double> FlickerMeter::add(const ImageF32& current) {
  const std::optional<double> flicker = disparity_flicker(previous_, current);
  previous_ = current;
  return flicker;
}

}  // namespace sv
