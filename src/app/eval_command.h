#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

class StereoEngine;

struct EvalOptions {
  std::string dataset_dir;
  StereoParams params;
  bool params_disparities_given = false;  // --disparities given: it overrides the dataset's range
  bool json = false;
  // With a folder: each pair's pictures and a summary page there too (eval_pictures.h).
  std::string out_dir;
  std::string engine = "cpu";  // reported in the output; the computing is done by the EvalComputeFn
};

// One disparity computation as eval needs it: the left-view map (+inf invalid) and the time the
// engine reports for it.
struct EvalComputeResult {
  ImageF32 disparity;
  double milliseconds = 0.0;
};
using EvalComputeFn =
    std::function<EvalComputeResult(const ImageRgb8& left, const ImageRgb8& right, const StereoParams&)>;

// Adapts an engine: its disparity (StereoEngine::compute on the colour pair, which matches the
// gray views except where colour weights apply) and the sum of its stage timings. Each new size
// is checked first (frame_budget.h): a pair that cannot fit is an InputError with the numbers,
// a slow one a notice on `notices`. `engine` and `notices` must outlive the returned function.
EvalComputeFn eval_compute_with(StereoEngine& engine, std::ostream& notices);

// `stereoview eval`: loads every pair of options.dataset_dir (dataset_loader.h), computes each
// with `compute` on the colour images with options.params, its num_disparities set to
// the dataset's suggestion unless params_disparities_given, and evaluates against the ground truth
// (evaluation.h). Writes to `out` a table, one row per pair plus their average, with bad-1 for
// nonocc / all / disc (Middlebury's classic columns), then bad-0.5, bad-2, bad-4 per region, the
// average absolute error (nonocc), density and time, and finally the average of all bad-1
// columns (pairs x regions); or, with options.json, the same numbers as one JSON object.
// Regions a pair lacks (disc without disc.png) or that hold no pixel are shown as "-" / null and
// left out of the averages. With options.out_dir, the pictures and summary of eval_pictures.h
// are written there as well (the folder is made before the first pair). Returns 0 on success, 1 after writing the reason to `err`.
int run_eval_command(const EvalOptions& options, const EvalComputeFn& compute, std::ostream& out,
                     std::ostream& err);

}  // namespace sv
