#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/app/bench_command.h"
#include "src/core/error.h"
#include "src/core/length_unit.h"
#include "src/core/stereo_params.h"

namespace sv {

// A malformed command line: the CLI prints the reason and exits with code 2.
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

enum class CliCommand { Run, Eval, Bench, Help, Version, ListAlgorithms, ListCameras, SavePreset };

struct CliOptions {
  CliCommand command = CliCommand::Run;
  bool headless = false;

  // Source: the synthetic scene unless one other source is named. `source` is one of
  // "synthetic", "files" (--left/--right: images, image sequences or videos), "sbs"/"tb" (one
  // packed video), "camera" (V4L2), "uvc", "dataset" (--dataset without eval).
  std::string source = "synthetic";
  std::string left_path;
  std::string right_path;
  std::string packed_video_path;  // --sbs / --tb
  std::vector<int> cameras;       // --camera N [M]
  std::string uvc_device;         // --uvc VID:PID[:SERIAL]
  int width = 640;   // synthetic scene size
  int height = 480;
  unsigned seed = 1;

  // Cameras (V4L2 and UVC): requested size, rate and pixel format (0 / empty: the camera's own).
  int camera_width = 0;
  int camera_height = 0;
  double camera_fps = 0.0;
  std::string camera_format;  // "MJPG" or "YUYV"
  int exposure = -1;          // UVC manual exposure, 100 us units; -1: automatic
  int gain = -1;              // UVC gain; -1: unchanged

  // Rectification: an OpenCV calibration file, and stereoRectify's alpha.
  std::string calib_path;
  double rectify_alpha = 0.0;
  // --calib-unit: the unit of the calibration's T; nullopt: the file's translation_unit, else metres.
  std::optional<LengthUnit> calib_unit;
  // --swap-views: the view named left is used as the right one (a rig mounted the other way).
  bool swap_views = false;

  // Playback: --loop plays a file source again and again; --realtime paces it at its own rate
  // (headless runs go as fast as possible otherwise).
  bool loop = false;
  bool realtime = false;

  std::string engine = "auto";
  int frames = 1;            // with a file source and no --frames: every frame of the file
  bool frames_given = false;  // --frames was on the command line
  std::string out_dir;
  std::string colormap = "turbo";

  // Recording (--record): the file (a folder gets the format's default name), what it holds
  // (color, lossless16, raw, side-by-side) and the FFmpeg encoder (empty: the format's default).
  std::string record_path;
  std::string record_format = "color";
  std::string record_codec;

  // Parameters: defaults, then --preset, then every --<param> flag, in that order of precedence.
  StereoParams params;
  bool disparities_given = false;  // --disparities was on the command line or in the preset

  std::string save_preset_path;  // --save-preset: write the effective parameters and exit

  // bench: its lists, counts and engine; its params are `params` above.
  BenchOptions bench;

  // eval
  std::string dataset_dir;
  bool json = false;
};

// Parses argv (argv[0] is the program). Throws UsageError with a message for the user; loads the
// preset file named by --preset (InputError if it is unreadable or malformed).
CliOptions parse_cli(int argc, const char* const* argv);

// The --help text, generated from the parameter table so every parameter is listed.
std::string usage_text();

}  // namespace sv
