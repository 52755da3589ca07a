#include "src/app/recording_setup.h"

#include <filesystem>

#include "src/io/point_cloud_ply.h"
#include "src/io/recording_format.h"
#include "src/io/stereo_rectifier.h"

namespace sv {

std::optional<StereoGeometry> stereo_geometry_for(bool synthetic, const std::string& calibration_path,
                                                  double rectify_alpha, int width, int height,
                                                  const StereoParams& params) {
  if (synthetic) {
    return synthetic_scene_geometry(width, height, params.min_disparity + params.num_disparities);
  }
  if (calibration_path.empty()) return std::nullopt;
  // The same rectification the source applies, so Q describes the images the engine matched.
  const StereoRectifier rectifier(load_stereo_calibration(calibration_path), width, height,
                                  rectify_alpha);
  return rectifier.geometry();
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
