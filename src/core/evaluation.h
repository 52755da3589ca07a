#pragma once

#include <string>
#include <vector>

#include "src/core/image.h"

namespace sv {

// Error statistics of a disparity map against ground truth over one region (a mask).
// Pixels counted: ground truth known (finite and, for integer datasets, non-zero as the loader
// decides) and mask == 255. An invalid estimate counts as an error at every threshold, as
// Middlebury does; it is left out of the average absolute error.
struct RegionErrors {
  std::string region;     // "nonocc", "all", "disc"
  long long pixels = 0;   // evaluated pixels
  double bad_0_5 = 0.0;   // percent with |error| > 0.5 px (or invalid)
  double bad_1 = 0.0;
  double bad_2 = 0.0;
  double bad_4 = 0.0;
  double avg_abs_error = 0.0;  // over valid estimates, px
  // Percent of the valid estimates with |error| > 1 px: the error of what a filter (LR check,
  // confidence threshold) kept, read beside the density.
  double bad_1_kept = 0.0;
};

struct EvaluationMasks {
  ImageU8 nonocc;  // 255 = evaluate; empty = region not available
  ImageU8 all;     // empty = every pixel with known ground truth
  ImageU8 disc;
};

struct DisparityEvaluation {
  std::vector<RegionErrors> regions;  // nonocc and disc where their masks exist, and all
  double density = 0.0;               // percent of valid estimates among pixels with known truth
  const RegionErrors* find(const std::string& region) const;
};

// `ground_truth` marks unknown pixels with a non-finite value (the loaders convert 0 and inf).
// Sizes must match; throws InputError otherwise.
DisparityEvaluation evaluate_disparity(const ImageF32& estimate, const ImageF32& ground_truth,
                                       const EvaluationMasks& masks);

}  // namespace sv
