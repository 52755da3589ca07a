#include "src/app/calibrate_command.h"

#include <glob.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "src/app/cli_options.h"
#include "src/app/image_loading.h"
#include "src/app/source_factory.h"
#include "src/app/stop_signals.h"
#include "src/core/error.h"
#include "src/io/calibration_writer.h"
#include "src/io/stereo_calibrator.h"
#include "src/io/video_file_reader.h"

namespace sv {
namespace {

constexpr int kExitRuntimeError = 1;
constexpr int kExitUsageError = 2;

struct CalibrateOptions {
  std::string board = "chessboard:9x6";
  double square = 0.025;
  double marker = 0.0;
  LengthUnit unit = LengthUnit::kMetre;  // of --square and --marker, and so of T
  std::string model = "pinhole";
  int distortion_terms = 0;  // 0: the model's default
  int every = 0;             // 0: 1 for images, 10 for videos
  int views = 20;            // live sources: stop after this many views
  std::string output = "stereo_calibration.yaml";
  bool force = false;
  bool swap_views = false;  // the view named left is the right camera's
  std::vector<std::string> source_flags;  // handed to parse_source_flags
  std::string left, right;                // globs (or the source's own --left/--right)
};

bool has_glob_characters(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

double parse_positive(const std::string& flag, const std::string& value) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(v > 0.0) || !std::isfinite(v)) {
    throw UsageError(flag + " expects a number above 0, got \"" + value + "\"");
  }
  return v;
}

int parse_whole(const std::string& flag, const std::string& value, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < lo || v > hi) {
    throw UsageError(flag + " expects a whole number in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got \"" + value + "\"");
  }
  return static_cast<int>(v);
}

CalibrateOptions parse_calibrate_args(const std::vector<std::string>& args) {
  CalibrateOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string inline_value;
    bool has_inline = false;
    if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_inline = true;
    }
    const auto value = [&]() -> std::string {
      if (has_inline) return inline_value;
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--board") {
      o.board = value();
    } else if (flag == "--square") {
      o.square = parse_positive(flag, value());
    } else if (flag == "--marker") {
      o.marker = parse_positive(flag, value());
    } else if (flag == "--calib-unit") {
      const std::string symbol = value();
      const std::optional<LengthUnit> unit = parse_length_unit(symbol);
      if (!unit) throw UsageError("--calib-unit must be mm, cm or m, got \"" + symbol + "\"");
      o.unit = *unit;
    } else if (flag == "--model") {
      o.model = value();
    } else if (flag == "--distortion-terms") {
      o.distortion_terms = parse_whole(flag, value(), 4, 8);
    } else if (flag == "--every") {
      o.every = parse_whole(flag, value(), 1, 100000);
    } else if (flag == "--views") {
      o.views = parse_whole(flag, value(), 1, 10000);
    } else if (flag == "--output") {
      o.output = value();
    } else if (flag == "--force") {
      o.force = true;
    } else if (flag == "--swap-views") {
      o.swap_views = true;
    } else if (flag == "--left" || flag == "--right") {
      (flag == "--left" ? o.left : o.right) = value();
    } else if (flag == "--calib") {
      throw UsageError("calibrate makes a calibration: it takes raw views, not --calib");
    } else if (flag.rfind("--", 0) == 0) {
      // A source flag (or an unknown one, which parse_source_flags refuses by name).
      o.source_flags.push_back(flag);
      if (has_inline) {
        o.source_flags.back() += "=" + inline_value;
      } else {
        while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) o.source_flags.push_back(args[++i]);
      }
    } else {
      throw UsageError("unexpected argument \"" + flag + "\"");
    }
  }
  if (o.left.empty() != o.right.empty()) throw UsageError("--left and --right must be given together");
  if (o.output.empty()) throw UsageError("--output needs a file name");
  return o;
}

// The files a glob names, sorted. InputError when it names none.
std::vector<std::string> glob_files(const std::string& pattern) {
  glob_t found{};
  const int status = ::glob(pattern.c_str(), 0, nullptr, &found);
  std::vector<std::string> files;
  if (status == 0) files.assign(found.gl_pathv, found.gl_pathv + found.gl_pathc);
  globfree(&found);
  if (files.empty()) throw InputError("no file matches '" + pattern + "'");
  std::sort(files.begin(), files.end());
  return files;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

void print_check(const ViewCheck& check, std::ostream& out) {
  out << check.view.name << ": " << (check.usable ? "board found in both views" : check.reason)
      << "\n";
}

void collect_from_globs(const CalibrateOptions& o, StereoCalibrator& calibrator, std::ostream& out) {
  auto left = glob_files(o.left);
  auto right = glob_files(o.right);
  if (o.swap_views) std::swap(left, right);
  if (left.size() != right.size()) {
    throw InputError("--left '" + o.left + "' names " + std::to_string(left.size()) +
                     " files but --right '" + o.right + "' names " + std::to_string(right.size()) +
                     ": the views are paired in name order");
  }
  for (size_t i = 0; i < left.size(); i += static_cast<size_t>(std::max(o.every, 1))) {
    const ImageU8 l = load_gray_image(left[i]);
    const ImageU8 r = load_gray_image(right[i]);
    print_check(calibrator.add_view(l, r, file_name(left[i]) + " / " + file_name(right[i])), out);
  }
}

void collect_from_source(const CalibrateOptions& o, StereoCalibrator& calibrator, std::ostream& out,
                         std::ostream& err) {
  std::vector<std::string> flags = o.source_flags;
  if (!o.left.empty()) flags.insert(flags.end(), {"--left", o.left, "--right", o.right});
  if (o.swap_views) flags.push_back("--swap-views");
  if (flags.empty()) {
    throw UsageError("calibrate needs views: --left 'L*.png' --right 'R*.png', two folders, a "
                     "stereo video (two files, --sbs, --tb) or a camera (--camera, --uvc)");
  }
  CliOptions source_options = parse_source_flags(flags);
  if (source_options.source == "synthetic" || source_options.source == "dataset") {
    throw UsageError("calibrate takes image files, videos or a camera, not --" +
                     source_options.source);
  }
  // The calibration itself tells which camera is left (T x); the check of the views' order
  // matches disparities, which a flat board does not have. It stays quiet below zero.
  source_options.params.min_disparity = -1;
  auto source = make_frame_source(source_options, [&err](const std::string& notice) {
    err << "note: " << notice << "\n";
  });
  const bool video = o.source_flags.size() > 0 || has_video_extension(o.left);
  const int every = o.every > 0 ? o.every : (video && !source->is_live() ? 10 : 1);
  if (source->is_live()) {
    out << "calibrating from " << source->describe() << ": hold the board in view of both "
        << "cameras and move it between views (" << o.views << " views; Ctrl-C stops)\n";
  }
  install_stop_signal_handlers();
  BoardCorners last_left;
  for (int64_t index = 0; stop_signal() == 0; ++index) {
    if (source->is_live() && calibrator.view_count() >= o.views) break;
    auto pair = source->next();
    if (!pair) break;
    if (!source->is_live() && index % every != 0) continue;
    const std::string name = "frame " + std::to_string(pair->index);
    const ImageU8 left = to_gray(pair->left);
    const ImageU8 right = to_gray(pair->right);
    ViewCheck check = calibrator.check_view(left, right, name);
    if (source->is_live()) {
      // A live view counts once the board sits somewhere new: a twentieth of the image away.
      const double min_motion = std::hypot(left.width(), left.height()) / 20.0;
      if (!check.usable || board_motion_px(check.view.left, last_left) < min_motion) continue;
      last_left = check.view.left;
    }
    calibrator.add(check, left.width(), left.height());
    print_check(check, out);
  }
  if (stop_signal() != 0) out << "stopped: calibrating from the views so far\n";
}

std::string report_path(const std::string& output) {
  std::filesystem::path p(output);
  return (p.parent_path() / (p.stem().string() + ".report.txt")).string();
}

int calibrate(const CalibrateOptions& o, std::ostream& out, std::ostream& err) {
  CalibrationSettings settings;
  settings.board = parse_board_spec(o.board, o.square, o.marker);
  settings.board.unit = o.unit;
  settings.model = parse_lens_model(o.model, o.distortion_terms);
  // Before any work: a calibration is never written over without --force.
  refuse_existing_file(o.output, o.force);
  StereoCalibrator calibrator(settings);
  if (!o.left.empty() && has_glob_characters(o.left + o.right) && o.source_flags.empty()) {
    collect_from_globs(o, calibrator, out);
  } else {
    collect_from_source(o, calibrator, out, err);
  }
  if (calibrator.view_count() + calibrator.rejected().size() == 0) {
    throw InputError("the source delivered no views");
  }
  const CalibrationResult result = calibrator.calibrate([&out](double fraction, const std::string& stage) {
    out << "calibrating: " << static_cast<int>(std::lround(100.0 * fraction)) << " % (" << stage << ")\n";
  });
  const std::string report = format_calibration_report(result.report);
  const auto folder = std::filesystem::path(o.output).parent_path();
  std::error_code ec;
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);  // a failure: the write says why
  write_calibration_file(o.output, stereo_calibration_yaml(result.calibration), o.force);
  write_calibration_file(report_path(o.output), report, true);
  out << report << "calibration written to " << o.output << " (report: " << report_path(o.output)
      << ")\n";
  return 0;
}

}  // namespace

std::string calibrate_usage_text() {
  return "Usage:\n"
         "  stereoview calibrate --left 'L*.png' --right 'R*.png' --board chessboard:9x6 --square 0.025\n"
         "  stereoview calibrate --sbs stereo.mp4 --every 15 --board charuco:11x8:DICT_5X5_100 \\\n"
         "      --square 0.03 --marker 0.022 --output rig.yaml\n"
         "  stereoview calibrate --camera 0 --board chessboard:9x6 --square 0.025 --views 20\n\n"
         "Views: --left/--right as globs, printf patterns, folders or two videos; --sbs FILE, --tb\n"
         "FILE; --camera N [M], --uvc VID:PID (with the camera settings of stereoview --help);\n"
         "--swap-views when the view named left is the right camera's.\n"
         "  --board chessboard:COLSxROWS     inner corners (a board of 10x7 squares is 9x6)\n"
         "  --board charuco:COLSxROWS:DICT   ChArUco squares and ArUco dictionary (5X5_100, ...)\n"
         "  --square S                       side of a square in metres (default 0.025)\n"
         "  --marker M                       ChArUco marker side in metres\n"
         "  --calib-unit mm|cm|m             the unit of --square and --marker (default m), written\n"
         "                                   into FILE as the unit of its translation\n"
         "  --model pinhole|fisheye          lens model (default pinhole)\n"
         "  --distortion-terms 5|8           pinhole distortion terms (default 5; 8: rational)\n"
         "  --every N                        use every Nth frame of a video (default 10) or image\n"
         "  --views N                        views to take from a live camera (default 20)\n"
         "  --output FILE                    the calibration (default stereo_calibration.yaml); the\n"
         "                                   report goes beside it: NAME.report.txt for NAME.yaml\n"
         "  --force                          replace an existing FILE\n";
}

int run_calibrate_command(const std::vector<std::string>& args, std::ostream& out,
                          std::ostream& err) {
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    out << calibrate_usage_text();
    return 0;
  }
  CalibrateOptions options;
  try {
    options = parse_calibrate_args(args);
  } catch (const UsageError& e) {
    err << "error: " << e.what() << "\n(run stereoview calibrate --help for usage)\n";
    return kExitUsageError;
  }
  try {
    return calibrate(options, out, err);
  } catch (const UsageError& e) {
    err << "error: " << e.what() << "\n(run stereoview calibrate --help for usage)\n";
    return kExitUsageError;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << "\n";
    return kExitRuntimeError;
  }
}

}  // namespace sv
