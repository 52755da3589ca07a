#include "src/core/stereo_params.h"

#include <cmath>
#include <sstream>

#include "src/core/algorithm_registry.h"
#include "src/core/error.h"

namespace sv {

int census_window_width(CensusWindow w) {
  switch (w) {
    case CensusWindow::W5x5: return 5;
    case CensusWindow::W7x7: return 7;
    case CensusWindow::W9x7: return 9;
    case CensusWindow::W9x9: return 9;
    case CensusWindow::W11x11: return 11;
  }
  return 9;
}

int census_window_height(CensusWindow w) {
  switch (w) {
    case CensusWindow::W5x5: return 5;
    case CensusWindow::W7x7: return 7;
    case CensusWindow::W9x7: return 7;
    case CensusWindow::W9x9: return 9;
    case CensusWindow::W11x11: return 11;
  }
  return 7;
}

const char* census_window_name(CensusWindow w) {
  switch (w) {
    case CensusWindow::W5x5: return "5x5";
    case CensusWindow::W7x7: return "7x7";
    case CensusWindow::W9x7: return "9x7";
    case CensusWindow::W9x9: return "9x9";
    case CensusWindow::W11x11: return "11x11";
  }
  return "9x7";
}

namespace {

template <typename T>
void check_range(std::vector<std::string>& problems, const char* what, T value, T lo, T hi) {
  if (value < lo || value > hi) {
    std::ostringstream msg;
    msg << what << " must be in " << lo << ".." << hi << ", got " << value;
    problems.push_back(msg.str());
  }
}

// Like check_range, and NaN fails too.
void check_float_range(std::vector<std::string>& problems, const char* what, float value, float lo,
                       float hi) {
  if (!(value >= lo && value <= hi)) {
    std::ostringstream msg;
    msg << what << " must be in " << lo << ".." << hi << ", got " << value;
    problems.push_back(msg.str());
  }
}

}  // namespace

std::vector<std::string> StereoParams::validate() const {
  std::vector<std::string> problems;
  if (!find_algorithm(algorithm)) {
    problems.push_back("unknown algorithm \"" + algorithm + "\" (known: " + algorithm_names() + ")");
  }
  check_range(problems, "minimum disparity", min_disparity, -256, 256);
  check_range(problems, "number of disparities", num_disparities, 1, 256);
  if (window < 3 || window > 21 || window % 2 == 0) {
    problems.push_back("window size must be odd and in 3..21, got " + std::to_string(window));
  }
  if (!(bm_max_cost >= 0.0f) || !std::isfinite(bm_max_cost)) {
    std::ostringstream msg;
    msg << "block matching maximum cost must be a finite number >= 0 (0 = off), got "
        << bm_max_cost;
    problems.push_back(msg.str());
  }
  if (!(zncc_min >= -1.0f && zncc_min <= 1.0f)) {
    problems.push_back("ZNCC minimum must be in -1..1, got " + std::to_string(zncc_min));
  }
  if (rank_window < 3 || rank_window > 15 || rank_window % 2 == 0) {
    problems.push_back("rank window must be odd and in 3..15, got " + std::to_string(rank_window));
  }
  if (sgm_paths != 4 && sgm_paths != 8) {
    problems.push_back("SGM path count must be 4 or 8, got " + std::to_string(sgm_paths));
  }
  check_range(problems, "P1", p1, 0, 255);
  check_range(problems, "P2", p2, 0, 255);
  if (p2 < p1) {
    problems.push_back("P2 must be at least P1, got P1 = " + std::to_string(p1) +
                       " and P2 = " + std::to_string(p2));
  }
  check_range(problems, "P2 edge scale", p2_edge_scale, 1, 255);
  check_range(problems, "uniqueness ratio", uniqueness, 0, 99);
  check_range(problems, "left-right check maximum difference", lr_max_diff, 0, 64);
  if (median != 0 && median != 3 && median != 5) {
    problems.push_back("median filter size must be 0 (off), 3 or 5, got " + std::to_string(median));
  }
  check_range(problems, "missing value", missing_value, -1, 65535);
  check_range(problems, "speckle size", speckle_size, 0, 100000);
  check_range(problems, "speckle range", speckle_range, 0, 64);
  check_float_range(problems, "confidence threshold", confidence_threshold, 0.0f, 1.0f);
  check_range(problems, "pyramid levels", pyramid_levels, 0, 4);
  check_range(problems, "refinement radius", refine_radius, 1, 16);
  check_range(problems, "ESAW iterations", esaw_iterations, 1, 16);
  check_float_range(problems, "ESAW step base", esaw_step_base, 1.0f, 4.0f);
  check_float_range(problems, "ESAW gamma-c", esaw_gamma_c, 0.1f, 1000.0f);
  check_float_range(problems, "ESAW gamma-p", esaw_gamma_p, 0.1f, 1000.0f);
  check_float_range(problems, "truncation tau", ad_tau, 1.0f, 255.0f);
  check_float_range(problems, "cost scale lambda", ad_lambda, 0.001f, 100.0f);
  check_float_range(problems, "ESMP smoothness slope c", esmp_c, 0.0f, 100.0f);
  check_float_range(problems, "ESMP smoothness cap eta", esmp_eta, 0.0f, 10.0f);
  check_float_range(problems, "temporal alpha", temporal_alpha, 0.01f, 1.0f);
  check_float_range(problems, "temporal delta", temporal_delta, 0.0f, 64.0f);
  check_range(problems, "temporal persistence", temporal_persistence, 0, 255);
  // Only for counts and levels in range: the shift below must not reach 32 bits.
  if (pyramid_levels > 0 && pyramid_levels <= 4 && num_disparities >= 1 && num_disparities <= 256) {
    // The coarsest level searches ceil(num_disparities / 2^levels) candidates; it needs at least 2.
    const int coarse = (num_disparities + (1 << pyramid_levels) - 1) >> pyramid_levels;
    if (coarse < 2) {
      problems.push_back("pyramid levels " + std::to_string(pyramid_levels) + " leave " +
                         std::to_string(coarse) + " disparity on the coarsest level for " +
                         std::to_string(num_disparities) +
                         " disparities; use fewer levels or more disparities");
    }
  }
  return problems;
}

bool StereoParams::operator==(const StereoParams& o) const {
  return algorithm == o.algorithm && min_disparity == o.min_disparity &&
         num_disparities == o.num_disparities && window == o.window &&
         bm_max_cost == o.bm_max_cost && zncc_min == o.zncc_min && census == o.census &&
         missing_value == o.missing_value && rank_window == o.rank_window &&
         sgm_paths == o.sgm_paths && p1 == o.p1 && p2 == o.p2 && adaptive_p2 == o.adaptive_p2 &&
         p2_edge_scale == o.p2_edge_scale && uniqueness == o.uniqueness &&
         subpixel == o.subpixel && lr_check == o.lr_check && lr_max_diff == o.lr_max_diff &&
         median == o.median && speckle_size == o.speckle_size &&
         speckle_range == o.speckle_range && fill_holes == o.fill_holes && pyramid_levels == o.pyramid_levels &&
         confidence == o.confidence && confidence_threshold == o.confidence_threshold &&
         repair == o.repair &&
         refine_radius == o.refine_radius && esaw_iterations == o.esaw_iterations &&
         esaw_step_base == o.esaw_step_base && esaw_gamma_c == o.esaw_gamma_c &&
         esaw_gamma_p == o.esaw_gamma_p && ad_tau == o.ad_tau && ad_lambda == o.ad_lambda &&
         esmp_c == o.esmp_c && esmp_eta == o.esmp_eta &&
         half_costs == o.half_costs && colour_weights == o.colour_weights &&
         temporal_filter == o.temporal_filter && temporal_alpha == o.temporal_alpha &&
         temporal_delta == o.temporal_delta && temporal_persistence == o.temporal_persistence;
}

void require_valid(const StereoParams& params) {
  const auto problems = params.validate();
  if (problems.empty()) return;
  std::string message = "invalid parameters:";
  for (const auto& p : problems) message += "\n  " + p;
  throw InputError(message);
}

}  // namespace sv
