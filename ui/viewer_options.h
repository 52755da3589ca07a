#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <vector>

#include "src/app/cli_options.h"
#include "src/app/param_script.h"
#include "src/core/error.h"
#include "src/core/stereo_params.h"
#include "src/core/pixel_costs.h"
#include "ui/viewer_settings.h"

namespace sv {

// A command-line mistake: the viewer prints it with a hint and exits with code 2.
class ViewerUsageError : public InputError {
 public:
  using InputError::InputError;
};

struct ViewerOptions {
  bool help = false;
  bool version = false;  // --version: print it and exit
  int frames = 0;               // quit after this many processed frames were shown; 0 = never
  std::string screenshot_path;  // PNG of the whole window after the last frame (or on closing)
  // Each frame whose pointer, buttons or wheel changed prints "input: ..." on stderr, so a test
  // that sends real X input knows when the viewer has seen each event.
  bool log_input = false;
  std::string script_path;      // param_script.h
  std::vector<ScriptEvent> script;  // its events, read and checked while parsing
  std::string engine = "auto";
  int scene_width = 640;
  int scene_height = 480;
  int scene_disparity = 0;  // the synthetic scene's nearest disparity; 0 = --disparities
  uint32_t seed = 1;
  int window_width = 1280;
  int window_height = 800;
  std::string shader_dir;
  // The stereoview CLI's source flags (--left/--right, --sbs, --tb, --camera, --uvc, --dataset,
  // --calib, --loop, ...), read by parse_source_flags; source "synthetic" when none is given.
  CliOptions source;
  bool list_cameras = false;  // --list-cameras: print them and exit
  bool fast = false;          // --fast: files as fast as possible instead of at their own rate
  std::string record_cloud_dir;  // --record-cloud: the 3D view's cloud as a PLY per frame
  ViewerSettings settings;
  StereoParams params;
  // The Cost curve window at start (--cost-curve), pinned to a pixel (--cost-curve-at X,Y).
  bool cost_curve = false;
  std::optional<ProbePixel> cost_curve_pin;
  // --compare: start with the A/B comparison on, B's parameters and engine these.
  bool compare = false;
  StereoParams compare_params;
  std::string compare_engine;  // "": A's
};

// Every parameter of param_table() as --key VALUE / --key=VALUE (booleans also --key and
// --no-key), --preset FILE first and flags over it, like the stereoview CLI; the source flags go,
// with their values, to parse_source_flags (source_factory.h). The preset and the script are read
// here, so their mistakes are usage errors too. Throws ViewerUsageError for anything it cannot
// use.
ViewerOptions parse_viewer_options(int argc, const char* const* argv);
std::string viewer_usage();

}  // namespace sv
