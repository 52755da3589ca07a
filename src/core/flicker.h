#pragma once

#include <optional>

#include "src/core/image.h"

namespace sv {

// Flicker of a disparity stream: the mean absolute frame-to-frame change, in px, over the pixels
// valid (finite) in both maps. nullopt when the sizes differ or no pixel is valid in both.
std::optional<double> disparity_flicker(const ImageF32& previous, const ImageF32& current);

// The flicker of each new map against the one before it.
class FlickerMeter {
 public:
  // The flicker of `current` against the previous map given (nullopt for the first, a new size
  // or no common valid pixel); remembers `current`.
  std::optional<double> add(const ImageF32& current);
  void reset() { previous_ = ImageF32(); }

 private:
  ImageF32 previous_;
};

}  // namespace sv
