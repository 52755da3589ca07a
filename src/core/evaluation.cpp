// Disparity error statistics against ground truth, as the Middlebury (v2) evaluation defines them.
//
// Definitions (the exact rules; evaluation.h points here):
//   known pixel     ground_truth is finite. The loaders turn the datasets' "unknown" codes (0 in
//                   8/16-bit files, inf in PFM) into +inf, so nothing else is special here.
//   valid estimate  estimate is finite (+inf, -inf and NaN are all "no disparity").
//   region nonocc   known pixels with masks.nonocc == 255; reported only when masks.nonocc
//                   exists (without occlusion information, e.g. KITTI with disp_occ_0 only, a
//                   "nonocc" figure would only repeat "all" under a name it has not earned).
//   region all      known pixels with masks.all == 255; every known pixel when masks.all is empty.
//   region disc     known pixels with masks.disc == 255 (128 in Middlebury's disc.png marks
//                   "other non-occluded" and is not counted); reported only when masks.disc exists.
//   bad-x           percent of the region's pixels with |estimate - truth| > x, computed in
//                   double, or with an invalid estimate (Middlebury counts a missing disparity
//                   as wrong at every threshold).
//   avg_abs_error   mean |estimate - truth| over the region's pixels with a valid estimate; 0 when
//                   there are none.
//   bad_1_kept      percent of the region's valid estimates with error > 1 (0 when none).
//   density         percent of known pixels (whole image, no mask) with a valid estimate.
// A region with no pixels reports pixels = 0 and every rate 0; callers show it as unavailable.

#include "src/core/evaluation.h"

#include <cmath>
#include <cstdlib>

#include "src/core/error.h"

namespace sv {

namespace {

void require_mask_size(const ImageU8& mask, const ImageF32& truth, const char* name) {
  if (!mask.empty() && !mask.same_size(truth)) {
    throw InputError("evaluation: the " + std::string(name) + " mask is " +
                     std::to_string(mask.width()) + "x" + std::to_string(mask.height()) +
                     " but the ground truth is " + std::to_string(truth.width()) + "x" +
                     std::to_string(truth.height()));
  }
}

// `mask` empty means "every known pixel".
RegionErrors evaluate_region(const std::string& region, const ImageF32& estimate,
                             const ImageF32& truth, const ImageU8& mask) {
  long long pixels = 0, bad_0_5 = 0, bad_1 = 0, bad_2 = 0, bad_4 = 0, valid = 0;
  double abs_error_sum = 0.0;
  for (size_t i = 0; i < truth.size(); ++i) {
    const float t = truth.data()[i];
    if (!std::isfinite(t)) continue;
    if (!mask.empty() && mask.data()[i] != 255) continue;
    ++pixels;
    const float e = estimate.data()[i];
    if (!std::isfinite(e)) {
      ++bad_0_5, ++bad_1, ++bad_2, ++bad_4;
      continue;
    }
    const double error = std::fabs(static_cast<double>(e) - static_cast<double>(t));
    ++valid;
    abs_error_sum += error;
    bad_0_5 += error > 0.5;
    bad_1 += error > 1.0;
    bad_2 += error > 2.0;
    bad_4 += error > 4.0;
  }
  RegionErrors r;
  r.region = region;
  r.pixels = pixels;
  if (pixels > 0) {
    const double to_percent = 100.0 / static_cast<double>(pixels);
    r.bad_0_5 = bad_0_5 * to_percent;
    r.bad_1 = bad_1 * to_percent;
    r.bad_2 = bad_2 * to_percent;
    r.bad_4 = bad_4 * to_percent;
  }
  if (valid > 0) {
    r.avg_abs_error = abs_error_sum / static_cast<double>(valid);
    r.bad_1_kept = 100.0 * static_cast<double>(bad_1 - (pixels - valid)) / static_cast<double>(valid);
  }
  return r;
}

}  // namespace

const RegionErrors* DisparityEvaluation::find(const std::string& region) const {
  for (const RegionErrors& r : regions) {
    if (r.region == region) return &r;
  }
  return nullptr;
}

DisparityEvaluation evaluate_disparity(const ImageF32& estimate, const ImageF32& ground_truth,
                                       const EvaluationMasks& masks) {
  if (!estimate.same_size(ground_truth)) {
    throw InputError("evaluation: the disparity map is " + std::to_string(estimate.width()) + "x" +
                     std::to_string(estimate.height()) + " but the ground truth is " +
                     std::to_string(ground_truth.width()) + "x" +
                     std::to_string(ground_truth.height()));
  }
  require_mask_size(masks.nonocc, ground_truth, "nonocc");
  require_mask_size(masks.all, ground_truth, "all");
  require_mask_size(masks.disc, ground_truth, "disc");

  DisparityEvaluation result;
  if (!masks.nonocc.empty()) {
    result.regions.push_back(evaluate_region("nonocc", estimate, ground_truth, masks.nonocc));
  }
  result.regions.push_back(evaluate_region("all", estimate, ground_truth, masks.all));
  if (!masks.disc.empty()) {
    result.regions.push_back(evaluate_region("disc", estimate, ground_truth, masks.disc));
  }

  long long known = 0, valid = 0;
  for (size_t i = 0; i < ground_truth.size(); ++i) {
    if (!std::isfinite(ground_truth.data()[i])) continue;
    ++known;
    valid += std::isfinite(estimate.data()[i]) ? 1 : 0;
  }
  if (known > 0) result.density = 100.0 * static_cast<double>(valid) / static_cast<double>(known);
  return result;
}

}  // namespace sv
