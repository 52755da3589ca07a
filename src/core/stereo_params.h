#pragma once

#include <string>
#include <vector>

namespace sv {

// How pixels are compared. Each value's exact definition lives in the header of its CPU stage:
// block_matching.h (SAD, SSD, ZNCC), census_transform.h / census_cost.h (census) and
// truncated_ad_cost.h (truncated absolute difference).
enum class MatchingCost { Sad, Ssd, Zncc, Census, Rank, TruncatedAd };

// How matching costs are combined before the winner is taken.
// Esaw and Esmp: Yu et al. 2009 (esaw_aggregation.h, esmp_aggregation.h).
enum class Aggregation { Window, Sgm, Esaw, Esmp };

// Census window shapes (width x height). 9x7 packs into 62 bits, 9x9 into 80 bits, 11x11 into
// 120 bits (CensusCode holds 128).
enum class CensusWindow { W5x5, W7x7, W9x7, W9x9, W11x11 };

int census_window_width(CensusWindow w);
int census_window_height(CensusWindow w);
const char* census_window_name(CensusWindow w);

// Every tunable of the pipeline, with the defaults a user starts from. The valid range of each
// field is stated beside it and enforced by validate(); param_table.h exposes the fields by name
// to the CLI, preset files and the viewer.
struct StereoParams {
  std::string algorithm = "census-sgm";  // a name from algorithm_registry.h

  // Search range: disparities d in [min_disparity, min_disparity + num_disparities).
  int min_disparity = 0;     // -256..256
  int num_disparities = 64;  // 1..256

  // Block matching window (odd, 3..21) and its rejection thresholds.
  int window = 9;
  float bm_max_cost = 0.0f;  // SAD/SSD: reject when best cost / window area exceeds it; 0 = off
  float zncc_min = -1.0f;    // ZNCC: reject when the best correlation is below it; -1 = off

  CensusWindow census = CensusWindow::W9x7;
  // Input value meaning "no data" (dead pixels, a rectification border): the census marks such
  // pixels missing, so they never match (census_transform.h). -1 = none; 0..255 for 8-bit input,
  // 0..65535 for 16-bit (StereoEngine::compute rejects a value the input cannot hold). Census
  // algorithms only; pyramid levels above 0 average pixels, so it applies to the input level.
  int missing_value = -1;
  int rank_window = 9;  // rank transform window M x M (odd, 3..15), rank_transform.h

  // Semi-global matching, in units of the census cost (0..kMaxMatchCost, census_cost.h).
  int sgm_paths = 8;  // 4 or 8
  int p1 = 12;        // 0..255, penalty for a 1 px disparity change
  int p2 = 40;        // p1..255, penalty for larger changes
  bool adaptive_p2 = false;  // lower P2 across intensity edges (sgm_aggregation.h)
  int p2_edge_scale = 16;    // 1..255, intensity step at which the adapted P2 is halved

  // Winner-takes-all and post-processing.
  int uniqueness = 10;  // 0..99: percent by which the best must beat the runner-up
  bool subpixel = true;
  bool lr_check = true;
  int lr_max_diff = 1;      // 0..64 px
  int median = 3;           // 0 (off), 3 or 5
  int speckle_size = 0;     // 0 (off)..100000 px: smaller connected regions are invalidated
  int speckle_range = 1;    // 0..64 px: neighbours closer than this belong to one region
  bool fill_holes = true;   // fill invalid pixels from the farther valid row neighbour

  // Confidence (Prehn 2007, confidence.h) and the outlier repair it drives (disparity_repair.h).
  // Order: selection, LR check, confidence, repair, threshold, then median, speckle, fill.
  bool confidence = false;            // compute DisparityResult::confidence
  float confidence_threshold = 0.0f;  // 0..1: invalidate pixels less confident than this; 0 = off
  bool repair = false;                // confidence-driven repair in H, V, H passes

  // Coarse-to-fine: full range on the coarsest of pyramid_levels 2x2 reductions, then
  // +-refine_radius around the doubled estimate on each finer level.
  int pyramid_levels = 0;  // 0..4
  int refine_radius = 2;   // 1..16

  // ESAW / ESMP (Yu et al. 2009): cost lambda * min(|IL - IR|, tau) on gray levels, then T
  // iterations of three-tap adaptive-weight passes at offsets round(b^(t-1)). Defaults: the
  // paper's ESAW settings (T 9, b 1.9, gamma-c 17, gamma-p 36, tau 12) and ESMP's lambda, c and
  // eta. gamma-c 17 is for colour weights (the default, and the paper's); with gray weights
  // (gray input or colour-weights off) 12 does better on Middlebury (docs/accuracy.md).
  int esaw_iterations = 9;        // 1..16, T
  float esaw_step_base = 1.9f;    // 1..4, b
  float esaw_gamma_c = 17.0f;     // 0.1..1000 levels, weight falloff with colour / gray change
  float esaw_gamma_p = 36.0f;     // 0.1..1000 px, weight falloff with distance
  float ad_tau = 12.0f;           // 1..255 gray levels, truncation of the absolute difference
  float ad_lambda = 0.15f;        // 0.001..100, cost scale (matters only against ESMP's c, eta)
  // ESMP smoothness V(x) = min(c |x|, eta) in cost units, eta = esmp_eta * num_disparities.
  float esmp_c = 1.0f;            // 0..100
  float esmp_eta = 0.0375f;       // 0..10
  // Store the ESAW / ESMP cost volumes in half precision (CUDA: __half; CPU: every stored cost
  // rounded to half, half_float.h): half the memory traffic of the passes.
  bool half_costs = false;
  // ESAW / ESMP: adaptive weights from the colour of the left view (largest RGB channel
  // difference, esaw_aggregation.cpp) when the engine is given colour images; gray otherwise.
  bool colour_weights = true;

  // Temporal filter for live sources (temporal_filter_math.h): each pixel moves `temporal_alpha`
  // of the way from its previous output towards the new disparity, unless they differ by more
  // than `temporal_delta` px (the scene moved: it takes the new value at once); an invalid pixel
  // keeps its previous value for up to `temporal_persistence` frames. It runs before hole filling
  // (the RealSense order); the engine keeps its state per stream.
  bool temporal_filter = false;
  float temporal_alpha = 0.4f;    // 0.01..1 (1 = no smoothing)
  float temporal_delta = 1.5f;    // 0..64 px
  int temporal_persistence = 3;   // 0..255 frames

  // Every problem found, each as a complete sentence naming the field and the value;
  // empty when the parameters are usable.
  std::vector<std::string> validate() const;

  bool operator==(const StereoParams& other) const;
  bool operator!=(const StereoParams& other) const { return !(*this == other); }
};

// Throws InputError carrying every message of validate(), one per line.
void require_valid(const StereoParams& params);

}  // namespace sv
