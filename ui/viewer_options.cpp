#include "ui/viewer_options.h"

#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include "src/app/data_files.h"
#include "src/app/source_factory.h"
#include "src/core/param_table.h"
#include "src/app/help_table.h"
#include "ui/ab_comparison.h"

namespace sv {
namespace {

bool is_bool_word(const std::string& s) {
  return s == "true" || s == "false" || s == "on" || s == "off" || s == "yes" || s == "no" ||
         s == "1" || s == "0";
}

long parse_integer(const std::string& flag, const std::string& text, long lo, long hi) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < lo || value > hi) {
    throw ViewerUsageError(flag + " needs a whole number from " + std::to_string(lo) + " to " +
                           std::to_string(hi) + ", got \"" + text + "\"");
  }
  return value;
}

double parse_positive(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0.0) || value > 1e9) {
    throw ViewerUsageError(flag + " needs a positive number, got \"" + text + "\"");
  }
  return value;
}

float parse_fraction(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 0.0 && value <= 1.0)) {
    throw ViewerUsageError(flag + " needs a number from 0 to 1, got \"" + text + "\"");
  }
  return static_cast<float>(value);
}

std::pair<int, int> parse_size(const std::string& flag, const std::string& text, int lo, int hi) {
  const auto x = text.find('x');
  if (x == std::string::npos) throw ViewerUsageError(flag + " needs WIDTHxHEIGHT, got \"" + text + "\"");
  return {static_cast<int>(parse_integer(flag, text.substr(0, x), lo, hi)),
          static_cast<int>(parse_integer(flag, text.substr(x + 1), lo, hi))};
}

ColorRange parse_range(const std::string& text) {
  ColorRange range;
  if (text == "search") return range;
  if (text == "auto") {
    range.mode = ColorRangeMode::Auto;
    return range;
  }
  if (text == "smoothed") {
    range.mode = ColorRangeMode::Smoothed;
    return range;
  }
  const auto colon = text.find(':');
  char* end1 = nullptr;
  char* end2 = nullptr;
  if (colon != std::string::npos) {
    const std::string lo = text.substr(0, colon), hi = text.substr(colon + 1);
    range.fixed_min = std::strtof(lo.c_str(), &end1);
    range.fixed_max = std::strtof(hi.c_str(), &end2);
    if (!lo.empty() && !hi.empty() && *end1 == '\0' && *end2 == '\0' &&
        std::isfinite(range.fixed_min) && std::isfinite(range.fixed_max) &&
        range.fixed_max > range.fixed_min) {
      range.mode = ColorRangeMode::Fixed;
      return range;
    }
  }
  throw ViewerUsageError("--range needs search, auto, smoothed or MIN:MAX (finite numbers, MIN < MAX), got \"" +
                         text + "\"");
}

// X,Y,W,H: a rectangle of image pixels, at least 1x1; what lies outside the image is clipped.
RegionRect parse_region(const std::string& flag, const std::string& text) {
  long v[4] = {0, 0, 0, 0};
  size_t from = 0;
  for (int i = 0; i < 4; ++i) {
    const size_t comma = i < 3 ? text.find(',', from) : text.size();
    if (comma == std::string::npos) {
      throw ViewerUsageError(flag + " needs X,Y,WIDTH,HEIGHT, got \"" + text + "\"");
    }
    v[i] = parse_integer(flag, text.substr(from, comma - from), i < 2 ? 0 : 1, 65535);
    from = comma + 1;
  }
  return RegionRect{static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]),
                   static_cast<int>(v[3])};
}

// X,Y: a pixel of the image.
ProbePixel parse_pixel(const std::string& flag, const std::string& text) {
  const size_t comma = text.find(',');
  if (comma == std::string::npos) throw ViewerUsageError(flag + " needs X,Y, got \"" + text + "\"");
  return ProbePixel{static_cast<int>(parse_integer(flag, text.substr(0, comma), 0, 65535)),
                    static_cast<int>(parse_integer(flag, text.substr(comma + 1), 0, 65535))};
}

// The flags in order, with a cursor for their values.
class Args {
 public:
  Args(int argc, const char* const* argv) : args_(argv + 1, argv + (argc > 0 ? argc : 1)) {}
  bool done() const { return next_ >= args_.size(); }
  std::string take() { return args_[next_++]; }
  bool next_is_value() const { return !done() && args_[next_].rfind("--", 0) != 0; }
  const std::string& peek() const { return args_[next_]; }
  std::string value(const std::string& flag, const std::string& inline_value) {
    if (!inline_value.empty()) return inline_value;
    if (!next_is_value()) throw ViewerUsageError(flag + " needs a value");
    return take();
  }

 private:
  std::vector<std::string> args_;
  size_t next_ = 0;
};

}  // namespace

std::string viewer_usage() {
  const HelpLayout layout;
  std::string out =
      "usage: stereoview-viewer [options]\n\n" +
      wrap_paragraph("The desktop viewer: stereo pairs through the stereo engine, live. The source "
                     "panel switches sources while it runs.") +
      "\nSource (default: the built-in synthetic scene; the flags of the stereoview CLI):\n";
  out += format_help_rows({
      {"--width N --height N", "synthetic scene size (default 640x480; also --size WxH)"},
      {"--scene-disparity N", "the scene's nearest disparity (default: --disparities)"},
      {"--seed N", "synthetic scene seed (default 1)"},
      {"--left L --right R",
       "two images, two videos or two image sequences (a printf pattern like left_%04d.png, or "
       "a folder each)"},
      {"--sbs FILE | --tb FILE", "one video holding both views side by side / top-bottom"},
      {"--camera N [M]", "V4L2 stereo webcam N, or cameras N and M"},
      {"--uvc VID:PID[:SERIAL]", "a stereo UVC camera through libuvc"},
      {"--dataset DIR", "the pairs of a Middlebury or KITTI folder"},
      {"--camera-size WxH --camera-fps N --camera-format MJPG|YUYV --exposure N --gain N",
       "what to ask of a camera"},
      {"--calib FILE[,FILE]",
       "OpenCV calibration: rectify, and depth from its Q; two files "
       "(intrinsics.yml,extrinsics.yml) or a folder of them"},
      {"--calib-unit mm|cm|m",
       "the unit of the calibration's translation (default: the file's translation_unit, else m)"},
      {"--rectify-alpha A", "0 keeps only valid pixels (default), 1 every source pixel"},
      {"--swap-views", "use the view named left as the right one and vice versa"},
      {"--loop", "play files again and again"},
      {"--fast", "play files as fast as possible (default: their own rate)"},
      {"--list-cameras", "list the attached cameras and exit"},
  }, layout);
  out += "\n" + wrap_paragraph("A source that cannot be opened is an error (exit code 1); a still "
                               "image pair stays on screen and is matched again whenever a "
                               "parameter changes.");
  out += "\nRunning:\n";
  out += format_help_rows({
      {"--engine cpu|cuda|auto", "stereo engine (default auto; reference: the plain CPU reference)"},
      {"--frames N",
       "quit after N shown frames (a still pair shows one, and one more after each parameter "
       "change); script events that never ran are listed and make the exit code 1"},
      {"--screenshot PATH",
       "write a PNG of the whole window after the last frame, or without --frames when the "
       "viewer is closed (missing folders are created)"},
      {"--log-input",
       "print the pointer, buttons and wheel on stderr in each frame they change (for tests "
       "that drive the viewer with X input, and bug reports)"},
      {"--script FILE", "timed changes: 'at 5 set p2 = 80', 'at frame 3 colormap gray'"},
      {"--version", "print the version and exit"},
      {"--preset FILE|NAME",
       "load parameters (key = value lines) from FILE or a shipped preset by NAME (default, "
       "fast); flags override it"},
      {"--compare FILE|NAME",
       "A/B: run a second side, B, on the same frames with A's parameters and those of this "
       "preset, shown beside A (view disparity-b) or as their difference (view difference)"},
      {"--compare-set KEY=VALUE", "A/B with B's KEY set to VALUE (repeatable), e.g. p2=200"},
      {"--compare-engine cpu|cuda|auto", "A/B with B on this engine (default: A's)"},
  }, layout);
  out += "\nDisplay:\n";
  out += format_help_rows({
      {"--layout 1|2|4", "number of views (default 2)"},
      {"--view NAME",
       "the first view: left, right, disparity, blend, confidence, disparity-b, difference, 3d "
       "(default disparity)"},
      {"--cloud-view NAME", "the 3D view's first camera: camera, front, top, side (default camera)"},
      {"--point-colour NAME", "the 3D view's points coloured by image, depth or confidence (default image)"},
      {"--point-size N", "the 3D view's point size in pixels, 1..10 (default 2)"},
      {"--point-min-confidence T", "the 3D view hides points of a lower confidence, 0..1 (default 0)"},
      {"--record-cloud DIR", "record the 3D view's cloud (as shown) as DIR/cloud_<frame>.ply per frame"},
      {"--colormap NAME", "turbo, jet, inferno or gray (default turbo)"},
      {"--range search|auto|smoothed|MIN:MAX",
       "colormap range (default search: the search range; smoothed: the frame's 1st..99th "
       "percentile followed over time)"},
      {"--region X,Y,W,H", "region statistics of this rectangle of image pixels (a right-button "
                           "drag on a view draws one)"},
      {"--cost-curve", "open the Cost curve window: the costs of the pixel under the cursor (P)"},
      {"--cost-curve-at X,Y", "open it pinned to this pixel (a click on a view pins another)"},
      {"--focal-px F --baseline-m B",
       "depth readout Z = F * B / d (synthetic scene: its own)"},
      {"--window-size WxH", "window size (default 1280x800)"},
      {"--hide-panel", "start without the control panel (H shows it)"},
      {"--hide-timings", "start without the Timings window (T shows it)"},
      {"--epipolar-lines", "horizontal lines across the left and right views"},
      {"--shader-dir DIR", "where view.vert, view.frag, cloud.vert and cloud.frag are"},
  }, layout);
  out += "\n" + wrap_paragraph(
                    "Keys: Space pause, Right step, S snapshot, R record, H hide the panel, T hide "
                    "the timings, P the Cost curve window, C the Calibrate window (V captures a view), F11 fullscreen, Q/Esc quit; mouse wheel zooms, drag pans, double "
                    "click fits.");
  out += "\nParameters (--key VALUE or --key=VALUE; booleans also --key / --no-key):\n";
  return out + format_help_rows(parameter_help_rows(), layout);
}

ViewerOptions parse_viewer_options(int argc, const char* const* argv) {
  ViewerOptions options;
  Args args(argc, argv);
  std::vector<std::pair<std::string, std::string>> param_flags;
  std::string preset_path;
  std::string compare_preset;
  std::vector<std::pair<std::string, std::string>> compare_flags;  // --compare-set
  bool view_given = false;
  bool layout_given = false;
  std::vector<std::string> source_flags;  // for parse_source_flags, in order
  while (!args.done()) {
    const std::string arg = args.take();
    if (arg.rfind("--", 0) != 0) throw ViewerUsageError("unexpected argument \"" + arg + "\"");
    std::string flag = arg;
    std::string inline_value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      flag = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
      if (inline_value.empty()) throw ViewerUsageError(flag + " needs a value after '='");
    }
    const std::string key = flag.substr(2);
    auto value = [&] { return args.value(flag, inline_value); };

    if (flag == "--help") {
      options.help = true;
    } else if (flag == "--version") {
      options.version = true;
    } else if (flag == "--frames") {
      options.frames = static_cast<int>(parse_integer(flag, value(), 1, 10000000));
    } else if (flag == "--screenshot") {
      options.screenshot_path = value();
    } else if (flag == "--log-input") {
      options.log_input = true;
    } else if (flag == "--script") {
      options.script_path = value();
    } else if (flag == "--engine") {
      options.engine = value();
      if (options.engine != "cpu" && options.engine != "reference" && options.engine != "cuda" &&
          options.engine != "auto") {
        throw ViewerUsageError("--engine must be cpu, reference, cuda or auto, got \"" + options.engine + "\"");
      }
    } else if (flag == "--width") {
      options.scene_width = static_cast<int>(parse_integer(flag, value(), 16, 8192));
    } else if (flag == "--height") {
      options.scene_height = static_cast<int>(parse_integer(flag, value(), 16, 8192));
    } else if (flag == "--size") {
      std::tie(options.scene_width, options.scene_height) = parse_size(flag, value(), 16, 8192);
    } else if (flag == "--scene-disparity") {
      options.scene_disparity = static_cast<int>(parse_integer(flag, value(), 1, 1024));
    } else if (flag == "--seed") {
      options.seed = static_cast<uint32_t>(parse_integer(flag, value(), 0, 2000000000));
    } else if (flag == "--layout") {
      const std::string v = value();
      if (v != "1" && v != "2" && v != "4") {
        throw ViewerUsageError("--layout must be 1, 2 or 4, got \"" + v + "\"");
      }
      options.settings.layout = std::stoi(v);
      layout_given = true;
    } else if (flag == "--view") {
      try {
        options.settings.views[0] = parse_view_kind(value());
      } catch (const InputError& e) {
        throw ViewerUsageError(std::string("--view: ") + e.what());
      }
      view_given = true;
    } else if (flag == "--cloud-view" || flag == "--point-colour") {
      try {
        if (flag == "--cloud-view") {
          options.settings.cloud.preset = parse_cloud_view_preset(value());
        } else {
          options.settings.cloud.colour = parse_cloud_colour(value());
        }
      } catch (const InputError& e) {
        throw ViewerUsageError(flag + ": " + e.what());
      }
    } else if (flag == "--record-cloud") {
      options.record_cloud_dir = value();
    } else if (flag == "--point-size") {
      options.settings.cloud.point_size = static_cast<float>(parse_integer(flag, value(), 1, 10));
    } else if (flag == "--point-min-confidence") {
      options.settings.cloud.min_confidence = parse_fraction(flag, value());
    } else if (flag == "--colormap") {
      try {
        options.settings.colormap = parse_colormap(value());
      } catch (const InputError& e) {
        throw ViewerUsageError(std::string("--colormap: ") + e.what());
      }
    } else if (flag == "--range") {
      options.settings.range = parse_range(value());
    } else if (flag == "--region") {
      options.settings.region = parse_region(flag, value());
    } else if (flag == "--focal-px") {
      options.settings.calibration.focal_px = parse_positive(flag, value());
    } else if (flag == "--baseline-m") {
      options.settings.calibration.baseline_m = parse_positive(flag, value());
    } else if (flag == "--window-size") {
      std::tie(options.window_width, options.window_height) = parse_size(flag, value(), 200, 16384);
    } else if (flag == "--fast") {
      options.fast = true;
    } else if (flag == "--cost-curve") {
      options.cost_curve = true;
    } else if (flag == "--cost-curve-at") {
      options.cost_curve = true;
      options.cost_curve_pin = parse_pixel(flag, value());
    } else if (flag == "--epipolar-lines") {
      options.settings.epipolar_lines = true;
    } else if (flag == "--hide-panel") {
      options.settings.show_panel = false;
    } else if (flag == "--hide-timings") {
      options.settings.show_timings = false;
    } else if (flag == "--shader-dir") {
      options.shader_dir = value();
    } else if (flag == "--preset") {
      preset_path = value();
    } else if (flag == "--compare") {
      compare_preset = value();
      options.compare = true;
    } else if (flag == "--compare-set") {
      const std::string setting = value();
      const size_t eq = setting.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == setting.size()) {
        throw ViewerUsageError("--compare-set needs KEY=VALUE (e.g. p2=200), got \"" + setting + "\"");
      }
      compare_flags.emplace_back(setting.substr(0, eq), setting.substr(eq + 1));
      options.compare = true;
    } else if (flag == "--compare-engine") {
      options.compare_engine = value();
      if (options.compare_engine != "cpu" && options.compare_engine != "reference" &&
          options.compare_engine != "cuda" && options.compare_engine != "auto") {
        throw ViewerUsageError("--compare-engine must be cpu, reference, cuda or auto, got \"" +
                               options.compare_engine + "\"");
      }
      options.compare = true;
    } else if (const ParamDescriptor* d = find_param(key)) {
      if (d->kind == ParamKind::Bool && inline_value.empty() &&
          !(args.next_is_value() && is_bool_word(args.peek()))) {
        param_flags.emplace_back(key, "true");
      } else {
        param_flags.emplace_back(key, value());
      }
    } else if (key.rfind("no-", 0) == 0 && find_param(key.substr(3)) &&
               find_param(key.substr(3))->kind == ParamKind::Bool) {
      param_flags.emplace_back(key.substr(3), "false");
    } else {
      // A source flag (or a mistake, which parse_source_flags names) with its values.
      source_flags.push_back(arg);
      while (args.next_is_value()) source_flags.push_back(args.take());
    }
  }
  try {
    options.source = parse_source_flags(source_flags);
  } catch (const InputError& e) {
    throw ViewerUsageError(e.what());
  }
  options.list_cameras = options.source.command == CliCommand::ListCameras;
  // As in the stereoview CLI: a calibration would be ignored on the (rectified) synthetic scene.
  if (options.source.source == "synthetic" && !options.source.calib_path.empty()) {
    throw ViewerUsageError("--calib applies to cameras and files; the synthetic scene is rectified");
  }
  // With one view and no --view, the disparity is the one worth showing; with --view and no
  // --layout, the user asked for that view alone.
  if (view_given && !layout_given) options.settings.layout = 1;

  if (!preset_path.empty()) {
    try {
      options.params = load_preset_file(resolve_preset_path(preset_path), options.params);
    } catch (const InputError& e) {
      throw ViewerUsageError(std::string("--preset: ") + e.what());
    }
  }
  for (const auto& [param, text] : param_flags) {
    try {
      set_param(options.params, param, text);
    } catch (const InputError& e) {
      // The window size was --window before it was renamed for the block-matching window.
      const bool size_given = param == "window" && text.find('x') != std::string::npos;
      throw ViewerUsageError(std::string(e.what()) +
                             (size_given ? " (the window size is --window-size WxH; --window is "
                                           "the block-matching window)"
                                         : ""));
    }
  }
  if (!options.script_path.empty()) {
    try {
      options.script = load_param_script(options.script_path);
    } catch (const InputError& e) {
      throw ViewerUsageError(std::string("--script: ") + e.what());
    }
  }
  const auto problems = options.params.validate();
  if (!problems.empty()) {
    std::string message;
    for (const auto& p : problems) message += (message.empty() ? "" : "\n") + p;
    throw ViewerUsageError(message);
  }
  // B starts as A, then the --compare preset's keys, then each --compare-set.
  options.compare_params = options.params;
  if (!compare_preset.empty()) {
    try {
      options.compare_params =
          load_preset_file(resolve_preset_path(compare_preset), options.compare_params);
    } catch (const InputError& e) {
      throw ViewerUsageError(std::string("--compare: ") + e.what());
    }
  }
  for (const auto& [param, text] : compare_flags) {
    try {
      if (!find_param(param)) throw InputError("unknown parameter \"" + param + "\"");
      set_param(options.compare_params, param, text);
    } catch (const InputError& e) {
      throw ViewerUsageError(std::string("--compare-set: ") + e.what());
    }
  }
  for (const auto& p : options.compare_params.validate()) {
    throw ViewerUsageError("--compare: B's parameters: " + p);
  }
  // Compared, the views start as A beside B unless the command line chose them.
  if (options.compare && !view_given && !layout_given) show_side_by_side(options.settings);
  if ((options.settings.calibration.focal_px > 0.0) !=
      (options.settings.calibration.baseline_m > 0.0)) {
    throw ViewerUsageError("--focal-px and --baseline-m must be given together");
  }
  return options;
}

}  // namespace sv
