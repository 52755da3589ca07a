#pragma once

#include <optional>
#include <string>

#include "src/app/cli_options.h"
#include "src/app/recorder.h"
#include "src/core/colorize.h"
#include "src/core/stereo_params.h"
#include "src/io/notice_sink.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// Depth geometry for point clouds and sidecars: the synthetic scene's own cameras (its
// max_disparity is min_disparity + num_disparities, as the sources build it), or the rectified
// cameras of --calib fitted to width x height, in metres (rectified_depth_geometry, with
// --calib-unit; its warning goes to `notices`). nullopt when neither is known. InputError when
// the calibration cannot be read or does not fit the size.
std::optional<StereoGeometry> stereo_geometry_for(const CliOptions& options, int width, int height,
                                                  const NoticeSink& notices);

// What a recording needs besides the frames, gathered in one place for the CLI and the viewer.
struct RecordingRequest {
  std::string path;                  // the file; a folder (ending in '/') gets the format's default name
  std::string format = "color";      // color | lossless16 | raw | side-by-side
  std::string codec;                 // FFmpeg encoder name; empty: the format's default
  double frames_per_second = 30.0;   // the source's rate, or 30
  Colormap colormap = Colormap::Turbo;
  StereoParams params;               // the disparity range sets the colormap span and u16 offset
  std::string source;                // descriptions for the sidecar
  std::string engine;
  std::string calibration_file;
  std::optional<StereoGeometry> geometry;
  // Set when the frames are the viewer's A/B difference view, not a disparity: its |A - B| at
  // the brightest colour, px (the sidecar says how to read the file).
  std::optional<float> difference_scale;
};

// InputError for an unknown format or a PNG name for a video format.
RecorderSettings make_recorder_settings(const RecordingRequest& request);

}  // namespace sv
