#pragma once

#include "src/core/evaluation.h"
#include "src/core/image.h"

namespace sv {

// How `stereoview eval --out` classes each pixel at the bad-1 threshold, by evaluation.cpp's
// rules for the region "all" (mask `masks.all`, or every known pixel): a pixel is bad when its
// estimate is invalid or |estimate - truth| > 1 px. Occluded means outside masks.nonocc (never,
// without that mask).
enum class ErrorClass : uint8_t {
  Unevaluated,   // ground truth unknown, or outside the "all" mask
  Good,
  Bad,           // bad and not occluded: what nonocc bad-1 counts
  BadOccluded,   // bad inside an occlusion: counted by "all" only
};
constexpr float kErrorMapThreshold = 1.0f;

ErrorClass classify_error_pixel(float estimate, float truth, bool in_all, bool occluded);
// The class of every pixel. Sizes must match (InputError otherwise, as evaluate_disparity).
Image<ErrorClass> classify_errors(const ImageF32& estimate, const ImageF32& ground_truth,
                                  const EvaluationMasks& masks);

// The error map: the left view as dimmed gray (darker where unevaluated, so every such pixel
// has r == g == b) and over it every bad pixel in colour, never gray: non-occluded ones from
// yellow (just over 1 px) to red (4 px or more), an invalid estimate blue, occluded ones
// purple whatever their error. So the coloured pixels are exactly the bad ones.
ImageRgb8 error_map(const ImageRgb8& left, const ImageF32& estimate, const ImageF32& ground_truth,
                    const EvaluationMasks& masks);

}  // namespace sv
