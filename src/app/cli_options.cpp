#include "src/app/cli_options.h"

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <utility>

#include "src/app/data_files.h"
#include "src/app/help_table.h"
#include "src/core/algorithm_registry.h"
#include "src/core/param_table.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/uvc_source.h"
#endif

namespace sv {
namespace {

bool is_bool_word(const std::string& s) {
  return s == "true" || s == "false" || s == "on" || s == "off" || s == "1" || s == "0" ||
         s == "yes" || s == "no";
}

int parse_count(const std::string& flag, const std::string& value, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < lo || v > hi) {
    throw UsageError(flag + " expects a whole number in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got \"" + value + "\"");
  }
  return static_cast<int>(v);
}

double parse_number(const std::string& flag, const std::string& value, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(v >= lo && v <= hi)) {
    std::ostringstream range;
    range << lo << ".." << hi;
    throw UsageError(flag + " expects a number in " + range.str() + ", got \"" + value + "\"");
  }
  return v;
}

bool is_whole_number(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::pair<int, int> parse_size(const std::string& flag, const std::string& v) {
  const auto x = v.find('x');
  if (x == std::string::npos) throw UsageError(flag + " expects WxH, e.g. 640x480, got \"" + v + "\"");
  return {parse_count(flag + " width", v.substr(0, x), 16, 8192),
          parse_count(flag + " height", v.substr(x + 1), 16, 8192)};
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  if (items.empty()) throw UsageError("expected a comma-separated list, got \"" + list + "\"");
  return items;
}

// Walks argv, handing out flag values ("--key value" or "--key=value").
class ArgCursor {
 public:
  ArgCursor(int argc, const char* const* argv) : args_(argv + 1, argv + argc) {}
  bool done() const { return index_ >= args_.size(); }
  std::string next() { return args_[index_++]; }
  bool peek_is_value() const { return index_ < args_.size() && args_[index_].rfind("--", 0) != 0; }
  const std::string& peek() const { return args_[index_]; }

  std::string value_for(const std::string& flag, std::string& inline_value) {
    if (!inline_value.empty()) return std::exchange(inline_value, "");
    if (done()) throw UsageError(flag + " needs a value");
    return next();
  }

 private:
  std::vector<std::string> args_;
  size_t index_ = 0;
};

}  // namespace

std::string usage_text() {
  std::ostringstream out;
  out << "stereoview: real-time stereo matching\n\n"
         "Usage:\n"
         "  stereoview [--headless] [source] [--algorithm NAME] [parameters] [--out DIR]\n"
         "  stereoview eval --dataset DIR [--algorithm NAME] [parameters] [--json] [--out DIR]\n"
         "  stereoview bench [--algorithms A,B] [--sizes WxH,...] [--disparity-counts 64,128]\n"
         "                   [--runs N] [--warmup N] [--engine E] [parameters] [--json]\n"
         "                   [--host-to-host [--staged-input] [--rectify] | --device | --viewer-loop]\n"
         "  stereoview calibrate [views] --board chessboard:9x6 --square 0.025 [--output FILE]\n"
         "                       (stereoview calibrate --help)\n"
         "  stereoview --list-algorithms | --list-cameras | --help | --version\n\n"
         "Source (default: the built-in synthetic scene):\n"
         "  --source synthetic        procedurally rendered scene with ground truth\n"
         "  --size WxH                synthetic scene size (default 640x480)\n"
         "  --seed N                  synthetic scene seed (default 1)\n"
         "  --left L --right R        two views, each a single image (PNG, JPEG, PGM, PPM...),\n"
         "                            an image sequence (a printf pattern like left_%04d.png, or a\n"
         "                            folder of images) or a video file (avi, mp4, mkv...)\n"
         "  --sbs FILE | --tb FILE    one video holding both views side by side / top-bottom\n"
         "  --camera N [M]            V4L2 camera N (a side-by-side stereo webcam), or N and M as\n"
         "                            left and right cameras paired by timestamp\n"
         "  --uvc VID:PID[:SERIAL]    a stereo UVC camera through libuvc (ids in hex)\n"
         "  --dataset DIR             the pairs of a Middlebury or KITTI folder\n"
         "  --list-cameras            list the attached cameras and exit\n"
         "  --camera-size WxH         camera frame size (the packed frame for a stereo webcam)\n"
         "  --camera-fps N            camera frame rate\n"
         "  --camera-format F         MJPG or YUYV\n"
         "  --exposure N | --gain N   UVC manual exposure (100 us units) and gain\n"
         "  --calib FILE[,FILE]       rectify the input with a calibration: OpenCV YAML/XML (one\n"
         "                            file, intrinsics.yml,extrinsics.yml or their folder), a ROS\n"
         "                            camera_info pair (left.yaml,right.yaml), a Kalibr camchain,\n"
         "                            an ASL pair (cam0/sensor.yaml,cam1/sensor.yaml) or a ZED .conf\n"
         "  --calib-unit mm|cm|m      the unit of the calibration's translation (default: the\n"
         "                            file's translation_unit, else m); depth is shown in metres\n"
         "  --rectify-alpha A         0 keeps only valid pixels (default), 1 every source pixel\n"
         "  --swap-views              use the view named left as the right one and vice versa\n"
         "  --loop                    play a file source again and again\n"
         "  --realtime                play a file at its own frame rate (default: as fast as\n"
         "                            possible)\n\n"
         "Running:\n"
         "  --headless                no window (this binary is always headless; the window is\n"
         "                            stereoview-viewer, which takes the same flags)\n"
         "  --engine cpu|cuda|auto    stereo engine (default auto: CUDA when a device is present);\n"
         "                            cpu is the SIMD CPU engine, --engine reference the plain\n"
         "                            CPU reference it is tested against\n"
         "  --frames N                frames to process (default: every frame of a file source,\n"
         "                            1 of the synthetic scene or a camera)\n"
         "  --out DIR                 write each disparity as PFM and a colorized PNG into DIR\n"
         "  --colormap NAME           turbo, jet, inferno or gray (default turbo)\n"
         "  --record FILE             record the run into FILE (plus FILE.json, the sidecar); with\n"
         "                            a file source and --headless: a batch run with a progress bar\n"
         "  --record-format F         color (colorized disparity, H.264 MP4; default), lossless16\n"
         "                            (exact 16-bit disparity: FFV1 .mkv or a .png sequence), raw\n"
         "                            (the input pair side by side, replayable with --sbs) or\n"
         "                            side-by-side (left view | colorized disparity)\n"
         "  --record-codec NAME       FFmpeg encoder: libx264 (default), mpeg4, mjpeg, ffv1, ...;\n"
         "                            the container follows FILE's extension (.mp4, .mkv, .avi)\n"
         "  --preset FILE|NAME        load parameters (key = value lines) from FILE or a shipped\n"
         "                            preset by NAME (default, fast); flags override it\n"
         "  --save-preset FILE        write the effective parameters as a preset and exit\n\n"
         "Evaluation:\n"
         "  --dataset DIR             Middlebury 2001/2003/2014 or KITTI folder, or a folder of them\n"
         "  --json                    print the results as JSON\n"
         "  --out DIR                 eval: also write each pair's disparity beside its ground\n"
         "                            truth, an error map and summary.md with the table\n\n"
         "Parameters (--key VALUE or --key=VALUE; booleans also --key / --no-key):\n";
  out << format_help_rows(parameter_help_rows());
  return out.str();
}

CliOptions parse_cli(int argc, const char* const* argv) {
  CliOptions options;
  ArgCursor args(argc, argv);
  std::vector<std::pair<std::string, std::string>> param_flags;
  std::string preset_path;
  std::vector<std::string> sources_named;  // source flags, to refuse two sources at once

  if (!args.done() && args.peek() == "eval") {
    args.next();
    options.command = CliCommand::Eval;
  } else if (!args.done() && args.peek() == "bench") {
    args.next();
    options.command = CliCommand::Bench;
  }

  while (!args.done()) {
    std::string arg = args.next();
    if (arg.rfind("--", 0) != 0) throw UsageError("unexpected argument \"" + arg + "\"");
    std::string flag = arg;
    std::string inline_value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      flag = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
      if (inline_value.empty()) throw UsageError(flag + " needs a value after '='");
    }
    const std::string key = flag.substr(2);

    if (flag == "--help") {
      options.command = CliCommand::Help;
    } else if (flag == "--version") {
      options.command = CliCommand::Version;
    } else if (flag == "--list-algorithms") {
      options.command = CliCommand::ListAlgorithms;
    } else if (flag == "--headless") {
      options.headless = true;
    } else if (flag == "--source") {
      options.source = args.value_for(flag, inline_value);
      if (options.source != "synthetic") {
        throw UsageError("--source: unknown source \"" + options.source +
                         "\" (available: synthetic; or give --left and --right, --sbs, --tb, "
                         "--camera, --uvc or --dataset)");
      }
    } else if (flag == "--list-cameras") {
      options.command = CliCommand::ListCameras;
    } else if (flag == "--sbs" || flag == "--tb") {
      sources_named.push_back(flag);
      options.source = key;
      options.packed_video_path = args.value_for(flag, inline_value);
    } else if (flag == "--camera") {
      sources_named.push_back(flag);
      options.source = "camera";
      std::string value = args.value_for(flag, inline_value);
      if (inline_value.empty() && args.peek_is_value() && is_whole_number(args.peek())) {
        value += "," + args.next();
      }
      options.cameras.clear();
      for (const auto& item : split_list(value)) {
        options.cameras.push_back(parse_count(flag, item, 0, 255));
      }
      if (options.cameras.size() > 2) throw UsageError("--camera takes one or two device numbers");
    } else if (flag == "--uvc") {
      sources_named.push_back(flag);
      options.source = "uvc";
      options.uvc_device = args.value_for(flag, inline_value);
#ifdef STEREOVIEW_HAS_OPENCV  // a build without the io layer has no UVC source to name
      try {
        parse_uvc_device_id(options.uvc_device);  // a malformed id is a usage error
      } catch (const InputError& e) {
        throw UsageError(e.what());
      }
#endif
    } else if (flag == "--camera-size") {
      std::tie(options.camera_width, options.camera_height) =
          parse_size(flag, args.value_for(flag, inline_value));
    } else if (flag == "--camera-fps") {
      options.camera_fps = parse_number(flag, args.value_for(flag, inline_value), 1, 1000);
    } else if (flag == "--camera-format") {
      options.camera_format = args.value_for(flag, inline_value);
      for (char& c : options.camera_format) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (options.camera_format == "MJPEG") options.camera_format = "MJPG";
      if (options.camera_format == "YUY2") options.camera_format = "YUYV";
      if (options.camera_format != "MJPG" && options.camera_format != "YUYV") {
        throw UsageError("--camera-format must be MJPG or YUYV, got \"" + options.camera_format + "\"");
      }
    } else if (flag == "--exposure") {
      options.exposure = parse_count(flag, args.value_for(flag, inline_value), 0, 1000000);
    } else if (flag == "--gain") {
      options.gain = parse_count(flag, args.value_for(flag, inline_value), 0, 65535);
    } else if (flag == "--calib") {
      options.calib_path = args.value_for(flag, inline_value);
    } else if (flag == "--calib-unit") {
      const std::string symbol = args.value_for(flag, inline_value);
      options.calib_unit = parse_length_unit(symbol);
      if (!options.calib_unit) throw UsageError("--calib-unit must be mm, cm or m, got \"" + symbol + "\"");
    } else if (flag == "--rectify-alpha") {
      options.rectify_alpha = parse_number(flag, args.value_for(flag, inline_value), -1, 1);
      if (options.rectify_alpha < 0 && options.rectify_alpha != -1) {
        throw UsageError("--rectify-alpha must be in 0..1, or -1 for OpenCV's default");
      }
    } else if (flag == "--swap-views") {
      options.swap_views = true;
    } else if (flag == "--loop") {
      options.loop = true;
    } else if (flag == "--realtime") {
      options.realtime = true;
    } else if (flag == "--left") {
      options.left_path = args.value_for(flag, inline_value);
    } else if (flag == "--right") {
      options.right_path = args.value_for(flag, inline_value);
    } else if (flag == "--size") {
      std::tie(options.width, options.height) = parse_size(flag, args.value_for(flag, inline_value));
    } else if (flag == "--seed") {
      options.seed = static_cast<unsigned>(parse_count(flag, args.value_for(flag, inline_value), 0, 2000000000));
    } else if (flag == "--engine") {
      options.engine = args.value_for(flag, inline_value);
      if (options.engine != "cpu" && options.engine != "reference" && options.engine != "cuda" &&
          options.engine != "auto") {
        throw UsageError("--engine must be cpu, reference, cuda or auto, got \"" + options.engine + "\"");
      }
    } else if (flag == "--frames") {
      options.frames = parse_count(flag, args.value_for(flag, inline_value), 1, 1000000);
      options.frames_given = true;
    } else if (flag == "--out") {
      options.out_dir = args.value_for(flag, inline_value);
    } else if (flag == "--colormap") {
      options.colormap = args.value_for(flag, inline_value);
    } else if (flag == "--record") {
      options.record_path = args.value_for(flag, inline_value);
    } else if (flag == "--record-format") {
      options.record_format = args.value_for(flag, inline_value);
      if (options.record_format != "color" && options.record_format != "lossless16" &&
          options.record_format != "raw" && options.record_format != "side-by-side") {
        throw UsageError("--record-format must be color, lossless16, raw or side-by-side, got \"" +
                         options.record_format + "\"");
      }
    } else if (flag == "--record-codec") {
      options.record_codec = args.value_for(flag, inline_value);
    } else if (flag == "--preset") {
      preset_path = args.value_for(flag, inline_value);
    } else if (flag == "--sizes") {
      options.bench.sizes.clear();
      for (const auto& item : split_list(args.value_for(flag, inline_value))) {
        options.bench.sizes.push_back(parse_size(flag, item));
      }
    } else if (flag == "--disparity-counts") {
      options.bench.disparity_counts.clear();
      for (const auto& item : split_list(args.value_for(flag, inline_value))) {
        options.bench.disparity_counts.push_back(parse_count(flag, item, 1, 256));
      }
    } else if (flag == "--algorithms") {
      options.bench.algorithms.clear();
      for (const auto& item : split_list(args.value_for(flag, inline_value))) {
        if (!find_algorithm(item)) {
          throw UsageError("--algorithms: unknown algorithm \"" + item + "\" (known: " +
                           algorithm_names() + ")");
        }
        options.bench.algorithms.push_back(item);
      }
    } else if (flag == "--host-to-host" || flag == "--device" || flag == "--viewer-loop") {
      const BenchMode mode = flag == "--device"        ? BenchMode::Device
                             : flag == "--viewer-loop" ? BenchMode::ViewerLoop
                                                       : BenchMode::HostToHost;
      if (options.bench.mode != BenchMode::Stages && options.bench.mode != mode) {
        throw UsageError("bench takes one of --host-to-host, --device and --viewer-loop");
      }
      options.bench.mode = mode;
    } else if (flag == "--staged-input") {
      options.bench.staged_input = true;
    } else if (flag == "--rectify") {
      options.bench.rectify = true;
    } else if (flag == "--runs") {
      options.bench.runs = parse_count(flag, args.value_for(flag, inline_value), 1, 100000);
    } else if (flag == "--warmup") {
      options.bench.warmup = parse_count(flag, args.value_for(flag, inline_value), 0, 100000);
    } else if (flag == "--save-preset") {
      options.save_preset_path = args.value_for(flag, inline_value);
      options.command = CliCommand::SavePreset;
    } else if (flag == "--dataset") {
      options.dataset_dir = args.value_for(flag, inline_value);
    } else if (flag == "--json") {
      options.json = true;
    } else if (const ParamDescriptor* d = find_param(key)) {
      if (d->kind == ParamKind::Bool && inline_value.empty() &&
          !(args.peek_is_value() && is_bool_word(args.peek()))) {
        param_flags.emplace_back(key, "true");
      } else {
        param_flags.emplace_back(key, args.value_for(flag, inline_value));
      }
    } else if (key.rfind("no-", 0) == 0 && find_param(key.substr(3)) &&
               find_param(key.substr(3))->kind == ParamKind::Bool) {
      param_flags.emplace_back(key.substr(3), "false");
    } else {
      throw UsageError("unknown option " + flag + " (see --help)");
    }
  }

  if (!preset_path.empty()) {
    options.params = load_preset_file(resolve_preset_path(preset_path), options.params);
    options.disparities_given = true;
  }
  for (const auto& [key, value] : param_flags) {
    try {
      set_param(options.params, key, value);
    } catch (const InputError& e) {
      throw UsageError(e.what());
    }
    if (key == "disparities") options.disparities_given = true;
  }

  if (options.command == CliCommand::Run) {
    if (options.left_path.empty() != options.right_path.empty()) {
      throw UsageError("--left and --right must be given together");
    }
    if (!options.left_path.empty()) {
      options.source = "files";
      sources_named.push_back("--left/--right");
    }
    if (!options.dataset_dir.empty()) {
      options.source = "dataset";
      sources_named.push_back("--dataset");
    }
    if (sources_named.size() > 1) {
      std::string names;
      for (const auto& n : sources_named) names += (names.empty() ? "" : ", ") + n;
      throw UsageError("one source at a time: got " + names);
    }
    if (options.swap_views && options.source == "synthetic") {
      throw UsageError("--swap-views applies to files, datasets and cameras; the synthetic "
                       "scene's views are in order");
    }
  } else if (options.swap_views &&
             (options.command == CliCommand::Eval || options.command == CliCommand::Bench)) {
    throw UsageError("--swap-views applies to a source to run, not to eval or bench");
  }
  if ((options.record_format != "color" || !options.record_codec.empty()) &&
      options.record_path.empty() && options.command == CliCommand::Run) {
    throw UsageError("--record-format and --record-codec need --record FILE");
  }
  if (options.command == CliCommand::Eval && options.dataset_dir.empty()) {
    throw UsageError("eval needs --dataset DIR");
  }
  if (options.bench.mode != BenchMode::Stages && options.command != CliCommand::Bench) {
    throw UsageError("--host-to-host, --device and --viewer-loop are bench modes: stereoview bench "
                     "--host-to-host");
  }
  if (options.bench.staged_input && options.bench.mode != BenchMode::HostToHost) {
    throw UsageError("--staged-input is an option of bench --host-to-host: stereoview bench "
                     "--host-to-host --staged-input");
  }
  if (options.bench.rectify && options.bench.mode != BenchMode::HostToHost) {
    throw UsageError("--rectify is an option of bench --host-to-host: stereoview bench "
                     "--host-to-host --rectify");
  }
  options.bench.engine = options.engine;
  options.bench.params = options.params;
  options.bench.json = options.json;
  const auto problems = options.params.validate();
  if (!problems.empty()) {
    std::string message = "invalid parameters:";
    for (const auto& p : problems) message += "\n  " + p;
    throw UsageError(message);
  }
  return options;
}

}  // namespace sv
