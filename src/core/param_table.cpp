#include "src/core/param_table.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "src/core/algorithm_registry.h"
#include "src/core/error.h"
#include "src/core/output_folders.h"
#include "src/core/input_file.h"

namespace sv {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

// The value is quoted up to 40 characters, control bytes as '?', so a line of junk still gives
// a one-line, printable message.
[[noreturn]] void bad_value(const std::string& key, const std::string& value, const char* what) {
  std::string shown = value.size() > 40 ? value.substr(0, 40) + "..." : value;
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  throw InputError("--" + key + ": \"" + shown + "\" is not " + what);
}

// True when strto* consumed all of `value`: a NUL byte inside (a binary file read as a preset)
// would otherwise end the number early.
bool parsed_whole(const std::string& value, const char* end) {
  return !value.empty() && end == value.c_str() + value.size();
}

int parse_int(const std::string& key, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (!parsed_whole(value, end)) bad_value(key, value, "an integer");
  if (errno != 0 || v < -1000000000L || v > 1000000000L) {
    bad_value(key, value, "an integer of at most 1000000000 either way");
  }
  return static_cast<int>(v);
}

// Finite only: strtof takes "inf", "nan" and rounds 1e39 to infinity, none of which any
// parameter means (nor could a preset give it back).
float parse_float(const std::string& key, const std::string& value) {
  char* end = nullptr;
  const float v = std::strtof(value.c_str(), &end);
  if (!parsed_whole(value, end)) bad_value(key, value, "a number");
  if (!std::isfinite(v)) bad_value(key, value, "a finite number (at most about 3.4e38)");
  return v;
}

bool parse_bool(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true" || value == "on" || value == "yes") return true;
  if (value == "0" || value == "false" || value == "off" || value == "no") return false;
  bad_value(key, value, "a boolean (true/false, on/off, 1/0)");
}

std::string format_float(float v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

ParamDescriptor int_param(std::string key, std::string help, double lo, double hi,
                          int StereoParams::*field) {
  ParamDescriptor d;
  d.key = key;
  d.help = std::move(help);
  d.kind = ParamKind::Int;
  d.min = lo;
  d.max = hi;
  d.get = [field](const StereoParams& p) { return std::to_string(p.*field); };
  d.set = [field, key](StereoParams& p, const std::string& v) { p.*field = parse_int(key, v); };
  return d;
}

ParamDescriptor float_param(std::string key, std::string help, double lo, double hi,
                            float StereoParams::*field) {
  ParamDescriptor d;
  d.key = key;
  d.help = std::move(help);
  d.kind = ParamKind::Float;
  d.min = lo;
  d.max = hi;
  d.get = [field](const StereoParams& p) { return format_float(p.*field); };
  d.set = [field, key](StereoParams& p, const std::string& v) { p.*field = parse_float(key, v); };
  return d;
}

ParamDescriptor bool_param(std::string key, std::string help, bool StereoParams::*field) {
  ParamDescriptor d;
  d.key = key;
  d.help = std::move(help);
  d.kind = ParamKind::Bool;
  d.min = 0;
  d.max = 1;
  d.get = [field](const StereoParams& p) { return std::string(p.*field ? "true" : "false"); };
  d.set = [field, key](StereoParams& p, const std::string& v) { p.*field = parse_bool(key, v); };
  return d;
}

std::vector<ParamDescriptor> make_table() {
  std::vector<ParamDescriptor> t;

  ParamDescriptor algorithm;
  algorithm.key = "algorithm";
  algorithm.help = "Matching algorithm: how pixels are compared and how costs are aggregated.";
  algorithm.kind = ParamKind::Choice;
  for (const auto& info : algorithm_registry()) algorithm.choices.push_back(info.name);
  algorithm.get = [](const StereoParams& p) { return p.algorithm; };
  algorithm.set = [](StereoParams& p, const std::string& v) {
    if (!find_algorithm(v)) {
      throw InputError("--algorithm: unknown algorithm \"" + v + "\" (known: " +
                       algorithm_names() + ")");
    }
    p.algorithm = v;
  };
  t.push_back(algorithm);

  t.push_back(int_param("min-disparity",
                        "Smallest disparity searched, px. Negative for converging cameras.",
                        -256, 256, &StereoParams::min_disparity));
  t.push_back(int_param("disparities",
                        "Number of disparities searched from the minimum; sets the nearest "
                        "depth that can be matched.",
                        1, 256, &StereoParams::num_disparities));
  t.push_back(int_param("window",
                        "Block matching window size (odd). Larger is smoother and more robust "
                        "on weak texture, but blurs depth edges.",
                        3, 21, &StereoParams::window));
  t.push_back(float_param("bm-max-cost",
                          "SAD/SSD: reject matches whose best cost per window pixel exceeds "
                          "this (0 = off).",
                          0, 65025, &StereoParams::bm_max_cost));
  t.push_back(float_param("zncc-min",
                          "ZNCC: reject matches whose best correlation is below this "
                          "(-1 = off).",
                          -1, 1, &StereoParams::zncc_min));

  ParamDescriptor census;
  census.key = "census";
  census.help = "Census window (width x height). Larger windows are more distinctive but "
                "blur depth edges.";
  census.kind = ParamKind::Choice;
  census.choices = {"5x5", "7x7", "9x7", "9x9", "11x11"};
  census.get = [](const StereoParams& p) { return std::string(census_window_name(p.census)); };
  census.set = [](StereoParams& p, const std::string& v) {
    for (auto w : {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                   CensusWindow::W9x9, CensusWindow::W11x11}) {
      if (v == census_window_name(w)) {
        p.census = w;
        return;
      }
    }
    throw InputError("--census: \"" + v + "\" is not one of 5x5, 7x7, 9x7, 9x9, 11x11");
  };
  t.push_back(census);
  t.push_back(int_param("missing-value",
                        "Census: input value that means no data (dead pixels, a black "
                        "rectification border); such pixels never match. -1 = none; up to 255 "
                        "for 8-bit input, 65535 for 16-bit.",
                        -1, 65535, &StereoParams::missing_value));
  t.push_back(int_param("rank-window",
                        "Rank transform window M x M (odd): each pixel becomes the count of its "
                        "neighbours darker than it. Larger is more robust, blurs depth edges.",
                        3, 15, &StereoParams::rank_window));

  t.push_back(int_param("paths", "SGM path directions: 4 (faster) or 8 (fewer streaks).", 4, 8,
                        &StereoParams::sgm_paths));
  t.push_back(int_param("p1",
                        "SGM penalty for a 1 px disparity change between neighbours; "
                        "allows slanted and curved surfaces.",
                        0, 255, &StereoParams::p1));
  t.push_back(int_param("p2",
                        "SGM penalty for larger disparity jumps; higher values give smoother "
                        "maps, lower values sharper depth edges.",
                        0, 255, &StereoParams::p2));
  t.push_back(bool_param("adaptive-p2",
                         "Lower P2 across intensity edges, where depth edges usually are.",
                         &StereoParams::adaptive_p2));
  t.push_back(int_param("p2-edge-scale",
                        "Adaptive P2: the intensity step at which P2 is halved.", 1, 255,
                        &StereoParams::p2_edge_scale));
  t.push_back(int_param("uniqueness",
                        "Percent by which the best match must beat the runner-up; rejects "
                        "ambiguous pixels (0 = off).",
                        0, 99, &StereoParams::uniqueness));
  t.push_back(bool_param("subpixel", "Refine disparities to 1/16 px with a parabola fit.",
                         &StereoParams::subpixel));
  t.push_back(bool_param("lr-check",
                         "Left-right consistency check: reject pixels whose right-view match "
                         "disagrees (occlusions, mismatches).",
                         &StereoParams::lr_check));
  t.push_back(int_param("lr-max-diff", "Largest left-right disagreement accepted, px.", 0, 64,
                        &StereoParams::lr_max_diff));
  t.push_back(int_param("median", "Median filter size on the disparity: 0 (off), 3 or 5.", 0, 5,
                        &StereoParams::median));
  t.push_back(int_param("speckle-size",
                        "Remove connected disparity regions smaller than this many pixels "
                        "(0 = off).",
                        0, 100000, &StereoParams::speckle_size));
  t.push_back(int_param("speckle-range",
                        "Neighbours within this many px belong to the same speckle region.",
                        0, 64, &StereoParams::speckle_range));
  t.push_back(bool_param("fill-holes",
                         "Fill pixels rejected by the checks from the farther of their valid row "
                         "neighbours (occlusions belong to the background). Off shows the holes.",
                         &StereoParams::fill_holes));
  t.push_back(bool_param("confidence",
                         "Compute a per-pixel confidence in 0..1 (peak ratio x matching score x "
                         "texture x left-right agreement) for the confidence view and readout.",
                         &StereoParams::confidence));
  t.push_back(float_param("confidence-threshold",
                          "Reject pixels whose confidence is below this (0 = off). Around 0.1 "
                          "drops ambiguous and textureless matches; turn fill-holes off to keep "
                          "them out.",
                          0, 1, &StereoParams::confidence_threshold));
  t.push_back(bool_param("repair",
                         "Correct low-confidence outliers and narrow gaps from two more confident "
                         "neighbours that agree, within 10 px on either side (horizontal, "
                         "vertical, horizontal passes).",
                         &StereoParams::repair));
  t.push_back(int_param("pyramid-levels",
                        "Coarse-to-fine levels (0 = off): full range on a 2^L smaller image, "
                        "then a narrow search on each finer level.",
                        0, 4, &StereoParams::pyramid_levels));
  t.push_back(int_param("refine-radius",
                        "Pyramid: search +-this many px around the estimate from the coarser "
                        "level.",
                        1, 16, &StereoParams::refine_radius));
  t.push_back(int_param("iterations",
                        "ESAW/ESMP: aggregation iterations T, each a horizontal then a vertical "
                        "3-tap pass. The support grows to about b^T px; more is smoother and "
                        "slower (time grows linearly).",
                        1, 16, &StereoParams::esaw_iterations));
  t.push_back(float_param("step-base",
                          "ESAW/ESMP: base b of the exponential step; iteration t averages with "
                          "the pixels round(b^(t-1)) px away. Larger reaches farther with gaps.",
                          1, 4, &StereoParams::esaw_step_base));
  t.push_back(float_param("gamma-c",
                          "ESAW/ESMP: colour difference (largest RGB channel; gray level with "
                          "colour-weights off) at which a neighbour's weight falls by 1/e. "
                          "Smaller keeps depth edges sharper, larger smooths more; 12 suits gray.",
                          0.1, 1000, &StereoParams::esaw_gamma_c));
  t.push_back(float_param("gamma-p",
                          "ESAW/ESMP: distance in px at which a neighbour's weight falls by 1/e; "
                          "limits how far support spreads.",
                          0.1, 1000, &StereoParams::esaw_gamma_p));
  t.push_back(float_param("tau",
                          "ESAW/ESMP: truncation of the absolute gray difference; caps the cost "
                          "of outliers and occlusions.",
                          1, 255, &StereoParams::ad_tau));
  t.push_back(float_param("lambda",
                          "ESAW/ESMP: scale of the matching cost (lambda x truncated difference). "
                          "ESAW ignores it; for ESMP it weighs the data against c and eta.",
                          0.001, 100, &StereoParams::ad_lambda));
  t.push_back(float_param("smooth-c",
                          "ESMP: smoothness cost per px of disparity change between neighbours "
                          "(c in V(x) = min(c|x|, eta)). Larger favours smooth slanted surfaces.",
                          0, 100, &StereoParams::esmp_c));
  t.push_back(float_param("smooth-eta",
                          "ESMP: the most a disparity jump costs, as a fraction of the number of "
                          "disparities (eta = this x disparities). Lower keeps depth edges.",
                          0, 10, &StereoParams::esmp_eta));
  t.push_back(bool_param("half-costs",
                         "ESAW/ESMP: keep the cost volumes in half precision (11 significant "
                         "bits): half the memory traffic on the GPU, a slightly coarser cost.",
                         &StereoParams::half_costs));
  t.push_back(bool_param("colour-weights",
                         "ESAW/ESMP: weigh neighbours by colour (largest RGB channel "
                         "difference) instead of gray level, so edges between colours of equal "
                         "brightness stay sharp. Needs colour input; the cost stays on gray.",
                         &StereoParams::colour_weights));
  t.push_back(bool_param("temporal",
                         "Temporal filter for live sources: smooth each pixel's disparity over "
                         "frames, so a still scene stops flickering. Off for single pairs.",
                         &StereoParams::temporal_filter));
  t.push_back(float_param("temporal-alpha",
                          "Temporal filter: how far each frame moves a pixel towards its new "
                          "disparity (1 = no smoothing, 0.1 = very smooth but slow).",
                          0.01, 1, &StereoParams::temporal_alpha));
  t.push_back(float_param("temporal-delta",
                          "Temporal filter: a change larger than this many px is taken at once "
                          "(the scene moved), so moving edges leave no trail.",
                          0, 64, &StereoParams::temporal_delta));
  t.push_back(int_param("temporal-persistence",
                        "Temporal filter: frames a pixel that turned invalid keeps its last "
                        "disparity (0 = show holes at once).",
                        0, 255, &StereoParams::temporal_persistence));
  return t;
}

}  // namespace

const std::vector<ParamDescriptor>& param_table() {
  static const std::vector<ParamDescriptor> table = make_table();
  return table;
}

const ParamDescriptor* find_param(const std::string& key) {
  for (const auto& d : param_table()) {
    if (d.key == key) return &d;
  }
  return nullptr;
}

void set_param(StereoParams& params, const std::string& key, const std::string& value) {
  const ParamDescriptor* d = find_param(key);
  if (!d) throw InputError("unknown parameter \"" + key + "\"");
  d->set(params, trim(value));
}

std::string to_preset_text(const StereoParams& params) {
  std::ostringstream out;
  out << "# stereoview preset: one parameter per line, key = value\n";
  for (const auto& d : param_table()) out << d.key << " = " << d.get(params) << "\n";
  return out.str();
}

StereoParams parse_preset_text(const std::string& text, const StereoParams& defaults,
                               const std::string& origin) {
  StereoParams params = defaults;
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string content = trim(line.substr(0, line.find('#')));
    if (content.empty()) continue;
    const auto eq = content.find('=');
    const std::string where = origin + ":" + std::to_string(line_number) + ": ";
    if (eq == std::string::npos) throw InputError(where + "expected \"key = value\", got \"" + content + "\"");
    const std::string key = trim(content.substr(0, eq));
    try {
      set_param(params, key, content.substr(eq + 1));
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
  }
  return params;
}

StereoParams load_preset_file(const std::string& path, const StereoParams& defaults) {
  return parse_preset_text(read_small_file(path, "preset file", kMaxPresetFileBytes), defaults, path);
}

void save_preset_file(const std::string& path, const StereoParams& params) {
  // A preset is read back by parse_preset_text, which takes no value validate() refuses.
  const auto problems = params.validate();
  if (!problems.empty()) {
    std::string reasons;
    for (const auto& p : problems) reasons += (reasons.empty() ? "" : "; ") + p;
    throw InputError("not writing preset file \"" + path + "\": " + reasons);
  }
  create_parent_folders(path, "preset file");
  std::ofstream file(path);
  if (!file) throw RuntimeError("cannot write preset file \"" + path + "\"");
  file << to_preset_text(params);
  if (!file.flush()) throw RuntimeError("writing preset file \"" + path + "\" failed");
}

}  // namespace sv
