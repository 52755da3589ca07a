#include "src/core/algorithm_registry.h"

namespace sv {
namespace {

// Parameters every algorithm reads: search range, winner selection and post-processing.
std::vector<std::string> with_common(std::vector<std::string> specific) {
  for (const char* key : {"min-disparity", "disparities", "uniqueness", "subpixel", "lr-check",
                          "lr-max-diff", "median", "speckle-size", "speckle-range", "fill-holes",
                          "pyramid-levels", "refine-radius", "confidence", "confidence-threshold",
                          "repair", "temporal", "temporal-alpha", "temporal-delta",
                          "temporal-persistence"}) {
    specific.emplace_back(key);
  }
  return specific;
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithm_registry() {
  static const std::vector<AlgorithmInfo> registry = {
      {"census-sgm", "census transform, normalized Hamming cost, semi-global matching",
       MatchingCost::Census, Aggregation::Sgm,
       with_common({"census", "missing-value", "paths", "p1", "p2", "adaptive-p2",
                    "p2-edge-scale"})},
      {"rank-sgm", "rank transform, absolute rank difference, semi-global matching (Banz 2011)",
       MatchingCost::Rank, Aggregation::Sgm,
       with_common({"rank-window", "paths", "p1", "p2", "adaptive-p2", "p2-edge-scale"})},
      {"bm-sad", "block matching, sum of absolute differences", MatchingCost::Sad,
       Aggregation::Window, with_common({"window", "bm-max-cost"})},
      {"bm-ssd", "block matching, sum of squared differences", MatchingCost::Ssd,
       Aggregation::Window, with_common({"window", "bm-max-cost"})},
      {"bm-zncc", "block matching, zero-mean normalized cross-correlation", MatchingCost::Zncc,
       Aggregation::Window, with_common({"window", "zncc-min"})},
      {"esaw", "truncated absolute difference, exponential-step adaptive weights (Yu 2009)",
       MatchingCost::TruncatedAd, Aggregation::Esaw,
       with_common({"iterations", "step-base", "gamma-c", "gamma-p", "tau", "lambda",
                    "half-costs", "colour-weights"})},
      {"esmp", "ESAW aggregating min-sum messages, truncated linear smoothness (Yu 2009)",
       MatchingCost::TruncatedAd, Aggregation::Esmp,
       with_common({"iterations", "step-base", "gamma-c", "gamma-p", "tau", "lambda", "smooth-c",
                    "smooth-eta", "half-costs", "colour-weights"})},
  };
  return registry;
}

const AlgorithmInfo* find_algorithm(const std::string& name) {
  for (const auto& info : algorithm_registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string algorithm_names() {
  std::string names;
  for (const auto& info : algorithm_registry()) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

}  // namespace sv
