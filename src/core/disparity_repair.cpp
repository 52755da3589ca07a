// Confidence-driven outlier repair, the CPU reference (Prehn 2007, section 5.3.3).
//
// EXACT DEFINITION (disparities D in 1/16 px fixed point, confidences C in [0, 1], float)
//   Three passes along u = (1, 0), then (0, 1), then (1, 0). Each pass reads the previous pass's
//   D and C and writes new ones (every pixel from the same input, so the result does not depend
//   on the order pixels are visited). For a pixel p:
//     need = C(p) + step (one float addition).
//     a = the nearest q = p - i u, i = 1..radius, inside the image, with D(q) valid and
//         C(q) >= need; b = the same on the other side, q = p + i u.
//     When both exist and |D(a) - D(b)| <= tolerance, with m = floor((D(a) + D(b)) / 2):
//       when D(p) is invalid or |D(p) - m| > tolerance: D'(p) = m, C'(p) = min(1, need).
//     Otherwise D'(p) = D(p), C'(p) = C(p).
//   The paper's constants: radius 10, step 0.1 ("10 percent", taken on the [0, 1] scale: a
//   relative 10 % of an invalid pixel's 0 would let any neighbour support it), agreement within
//   one pixel (the paper's integer "disparity levels" become 1/16 px here). A pixel the
//   supporters already agree with is left alone: only outliers are corrected.
//   Invalid pixels (confidence 0 from combined_confidence) are repaired like outliers, which
//   closes narrow gaps between two confident pixels of one surface.
//
// The per-pixel rule is confidence_math::repair_pixel, shared with cuda/disparity_repair.cu.
// Parallel over rows; each row writes only its own output row.

#include "src/core/disparity_repair.h"

#include <string>
#include <utility>
#include <vector>

#include "src/core/confidence_math.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

int repair_pass(const ImageI16& d_in, const ImageF32& c_in, bool horizontal,
                const confidence_math::RepairRule& rule, ImageI16& d_out, ImageF32& c_out) {
  const int width = d_in.width(), height = d_in.height();
  std::vector<int> changed(height, 0);
  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const long step = horizontal ? 1 : width;
      const int before = horizontal ? x : y;
      const int after = horizontal ? width - 1 - x : height - 1 - y;
      changed[y] += confidence_math::repair_pixel(&d_in.at(x, y), &c_in.at(x, y), step, before,
                                                  after, rule, &d_out.at(x, y), &c_out.at(x, y));
    }
  });
  int total = 0;
  for (int n : changed) total += n;
  return total;
}

}  // namespace

int repair_disparity(ImageI16& disparity_fixed, ImageF32& confidence,
                     const RepairSettings& settings) {
  if (!confidence.same_size(disparity_fixed)) {
    throw InputError("Repair: the disparity and confidence images differ in size.");
  }
  if (settings.radius < 1 || settings.tolerance < 0 || !(settings.step >= 0.0f)) {
    throw InputError("Repair: radius must be >= 1, tolerance >= 0 and step >= 0, got radius " +
                     std::to_string(settings.radius) + ", tolerance " +
                     std::to_string(settings.tolerance) + ", step " +
                     std::to_string(settings.step) + ".");
  }
  const confidence_math::RepairRule rule{settings.radius, settings.step, settings.tolerance};
  ImageI16 d_next(disparity_fixed.width(), disparity_fixed.height());
  ImageF32 c_next(confidence.width(), confidence.height());
  int updates = 0;
  for (bool horizontal : {true, false, true}) {
    updates += repair_pass(disparity_fixed, confidence, horizontal, rule, d_next, c_next);
    std::swap(disparity_fixed, d_next);
    std::swap(confidence, c_next);
  }
  return updates;
}

}  // namespace sv
