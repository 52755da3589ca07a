#include "src/app/recording_setup.h"

#include <filesystem>

#include "src/io/point_cloud_ply.h"
#include "src/io/recording_format.h"
#include "src/io/depth_geometry.h"

namespace sv {

std::optional<StereoGeometry> stereo_geometry_for(const CliOptions& options, int width, int height,
                                                  const NoticeSink& notices) {
  const StereoParams& params = options.params;
  if (options.source == "synthetic") {
    return synthetic_scene_geometry(width, height, params.min_disparity + params.num_disparities);
  }
  if (options.calib_path.empty()) return std::nullopt;
  // The same rectification the source applies, so Q describes the images the engine matched.
  const DepthGeometry depth =
      rectified_depth_geometry(options.calib_path, options.calib_unit, width, height,
                               options.rectify_alpha, options.swap_views);
  if (!depth.warning.empty() && notices) notices(depth.warning);
  return depth.geometry;
}

RecorderSettings make_recorder_settings(const RecordingRequest& request) {
  RecorderSettings settings;
  RecordingEncoderSettings& e = settings.encoder;
  e.format = parse_recording_format(request.format);
  e.path = request.path;
  std::error_code ignored;
  if (!e.path.empty() && e.path.back() != '/' && std::filesystem::is_directory(e.path, ignored)) {
    e.path += '/';
  }
  if (e.path.empty() || e.path.back() == '/') e.path += default_recording_file_name(e.format);
  e.codec = request.codec;
  e.frames_per_second = request.frames_per_second > 0 ? request.frames_per_second : 30.0;
  e.colormap = request.colormap;
  e.color_min = static_cast<float>(request.params.min_disparity);
  e.color_max = e.color_min + static_cast<float>(request.params.num_disparities - 1);
  e.u16_encoding = DisparityU16Encoding::for_min_disparity(request.params.min_disparity);
  settings.source = request.source;
  settings.engine = request.engine;
  settings.params = request.params;
  settings.calibration_file = request.calibration_file;
  settings.geometry = request.geometry;
  settings.difference_scale = request.difference_scale;
  return settings;
}

}  // namespace sv
