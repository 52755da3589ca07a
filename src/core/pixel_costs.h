#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/image.h"

namespace sv {

// A left-view pixel whose costs a frame should report (ResultParts::probe).
struct ProbePixel {
  int x = 0;
  int y = 0;
};

// Why a pixel of the result is invalid: the last stage that turned it from valid to invalid.
enum class InvalidReason {
  None,         // valid
  NoCost,       // the selection found no real candidate (empty range, all out of the image)
  CostLimit,    // the best cost lies above bm-max-cost / below zncc-min
  Uniqueness,   // a candidate more than 1 px away comes too close to the best (uniqueness)
  LrCheck,      // the right view's disparity disagrees (lr-check)
  Confidence,   // the confidence lies below confidence-threshold
  Median,       // the median filter
  Speckle,      // part of a region smaller than speckle-size
  Temporal,     // the temporal filter
};

// "uniqueness", "LR check", ...; "" for None.
const char* invalid_reason_name(InvalidReason reason);

// The parabola through the winner's cost and its two neighbours' (winner_takes_all.cpp).
struct SubpixelFit {
  bool fitted = false;  // false: subpixel off, the winner at the range's end, or no real neighbour
  double before = 0.0, at = 0.0, after = 0.0;  // costs of the candidates kb - 1, kb, kb + 1
  // Vertex offset from kb in px, as the parabola gives it (0 when it opens downwards).
  double vertex = 0.0;
  int offset = 0;  // what the selection adds, 1/16 px: the vertex rounded and clamped to +-8
};

// How winner_takes_all decided one pixel, with the numbers it compared.
struct PixelSelection {
  int best = -1;     // the winner's candidate index; -1 when there is no candidate
  int second = -1;   // the uniqueness rule's rival: the lowest cost more than one candidate
                     // from the winner (ties to the lower index); -1 when there is none
  double best_cost = 0.0, second_cost = 0.0;  // +inf where the cost is no real candidate
  // best_cost / second_cost; the pixel passes while it is at most (100 - uniqueness) / 100.
  double uniqueness_ratio = 0.0;
  SubpixelFit fit;
  int16_t disparity = kInvalidFixedDisparity;  // the selection's result, 1/16 px
  InvalidReason reason = InvalidReason::None;  // NoCost, CostLimit or Uniqueness when invalid
};

// One pixel's costs over its disparity range and the story of its disparity, for the viewer's
// cost curve. Candidate k is disparity base + k; costs that stand for no real candidate (the
// type's maximum, a non-finite float) are +inf, every other cost is the stage's value exactly.
struct PixelCosts {
  ProbePixel pixel;
  std::string unavailable;  // why there are no curves (algorithm, engine, pixel); empty if there are
  int base = 0;
  std::vector<double> matching;    // the matching cost (census, rank, SAD window sum, ...)
  std::vector<double> aggregated;  // the aggregated cost (SGM, ESAW, ESMP); empty without one
  std::string matching_name;       // "census", "window SAD", ...
  std::string aggregated_name;     // "SGM (8 paths)", "ESAW", ...; empty without aggregation
  PixelSelection selection;        // on `aggregated`, else on `matching`
  int uniqueness = 0;              // the rule's percent (0: off)
  int16_t final_disparity = kInvalidFixedDisparity;  // the pixel of the frame's result
  InvalidReason reason = InvalidReason::None;         // why final_disparity is invalid

  bool available() const { return unavailable.empty(); }
  // Follows one stage's result at the pixel: invalid after being valid puts the blame on
  // `stage`; valid again (repair, hole filling) clears it.
  void follow(const ImageI16& disparity_fixed, InvalidReason stage);
  // The same with the pixel's value after the stage (an engine that fetched only that value).
  void follow_value(int16_t now, InvalidReason stage);
};

// The costs of one pixel as PixelCosts holds them (no-candidate values as +inf).
template <typename T>
std::vector<double> cost_curve(const T* costs, int count) {
  std::vector<double> curve(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) {
    const T c = costs[k];
    bool real;
    if constexpr (std::is_floating_point<T>::value) {
      real = std::isfinite(c);
    } else {
      real = c != std::numeric_limits<T>::max();
    }
    curve[static_cast<size_t>(k)] = real ? static_cast<double>(c) : std::numeric_limits<double>::infinity();
  }
  return curve;
}

// "(x, y) lies outside the WxH image" when the probe does, else "".
std::string probe_outside_problem(const ProbePixel& pixel, int width, int height);

}  // namespace sv
