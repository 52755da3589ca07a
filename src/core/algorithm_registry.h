#pragma once

#include <string>
#include <vector>

#include "src/core/stereo_params.h"

namespace sv {

// One selectable algorithm: how costs are computed and aggregated, and which parameters of
// StereoParams it reads (their keys in param_table.h), so the UI shows only those.
struct AlgorithmInfo {
  std::string name;
  std::string summary;
  MatchingCost cost;
  Aggregation aggregation;
  std::vector<std::string> parameters;
};

const std::vector<AlgorithmInfo>& algorithm_registry();
const AlgorithmInfo* find_algorithm(const std::string& name);  // nullptr when unknown
std::string algorithm_names();  // "a, b, c" for messages

}  // namespace sv
