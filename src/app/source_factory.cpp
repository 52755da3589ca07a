#include "src/app/source_factory.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "src/app/looping_source.h"
#include "src/app/still_pair_source.h"
#include "src/app/swapped_views_source.h"
#include "src/app/synthetic_source.h"
#include "src/app/view_order_checking_source.h"
#include "src/core/error.h"
#include "src/io/stereo_calibration.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/camera_listing.h"
#include "src/io/camera_source.h"
#include "src/io/dataset_source.h"
#include "src/io/image_sequence_source.h"
#include "src/io/packed_video_source.h"
#include "src/io/rectified_source.h"
#include "src/io/stereo_rectifier.h"
#include "src/io/uvc_source.h"
#include "src/io/video_file_reader.h"
#include "src/io/video_pair_source.h"
#endif

namespace sv {
namespace {

std::unique_ptr<FrameSource> make_synthetic(const CliOptions& options) {
  SyntheticSceneConfig config;
  config.width = options.width;
  config.height = options.height;
  config.seed = options.seed;
  config.max_disparity = options.params.min_disparity + options.params.num_disparities;
  return std::make_unique<SyntheticSource>(config);
}

#ifdef STEREOVIEW_HAS_OPENCV

// What one of --left / --right names.
enum class ViewKind { Image, Sequence, Video };

ViewKind view_kind(const std::string& path) {
  std::error_code ec;
  if (is_sequence_pattern(path) || std::filesystem::is_directory(path, ec)) return ViewKind::Sequence;
  if (has_video_extension(path)) return ViewKind::Video;
  return ViewKind::Image;
}

std::unique_ptr<FrameSource> make_file_pair(const CliOptions& options, const NoticeSink& notices) {
  const ViewKind left = view_kind(options.left_path);
  const ViewKind right = view_kind(options.right_path);
  if (left != right) {
    throw InputError("--left '" + options.left_path + "' and --right '" + options.right_path +
                     "' must be of one kind: two videos, two image sequences (patterns or "
                     "folders) or two images");
  }
  switch (left) {
    case ViewKind::Video:
      return std::make_unique<VideoPairSource>(options.left_path, options.right_path, notices);
    case ViewKind::Sequence:
      return std::make_unique<ImageSequenceSource>(options.left_path, options.right_path, notices);
    case ViewKind::Image:
      break;
  }
  return std::make_unique<StillPairSource>(options.left_path, options.right_path);
}

std::unique_ptr<FrameSource> make_camera(const CliOptions& options, const NoticeSink& notices) {
  CameraOptions camera;
  camera.devices = options.cameras;
  camera.width = options.camera_width;
  camera.height = options.camera_height;
  camera.fps = options.camera_fps;
  camera.pixel_format = options.camera_format;
  return std::make_unique<CameraSource>(camera, notices);
}

std::unique_ptr<FrameSource> make_uvc(const CliOptions& options, const NoticeSink& notices) {
  UvcOptions uvc;
  uvc.device = parse_uvc_device_id(options.uvc_device);
  uvc.width = options.camera_width;
  uvc.height = options.camera_height;
  uvc.fps = options.camera_fps;
  uvc.pixel_format = options.camera_format;
  uvc.exposure = options.exposure;
  uvc.gain = options.gain;
  return std::make_unique<UvcSource>(uvc, notices);
}

std::unique_ptr<FrameSource> make_raw_source(const CliOptions& options, const NoticeSink& notices) {
  const std::string& s = options.source;
  if (s == "synthetic") return make_synthetic(options);
  if (s == "files") return make_file_pair(options, notices);
  if (s == "sbs" || s == "tb") {
    return std::make_unique<PackedVideoSource>(
        options.packed_video_path, s == "sbs" ? PackedLayout::SideBySide : PackedLayout::TopBottom,
        notices);
  }
  if (s == "camera") return make_camera(options, notices);
  if (s == "uvc") return make_uvc(options, notices);
  if (s == "dataset") return std::make_unique<DatasetSource>(options.dataset_dir);
  throw InputError("unknown source \"" + s + "\"");
}

// "two videos" when the options name two cameras' separate raw views (two videos, two image
// sequences, two cameras), else empty: a pair from one file or a dataset may be rectified already.
std::string separate_raw_views(const CliOptions& options) {
  if (options.source == "camera" && options.cameras.size() >= 2) return "two cameras";
  if (options.source != "files") return "";
  switch (view_kind(options.left_path)) {
    case ViewKind::Video: return "two videos";
    case ViewKind::Sequence: return "two image sequences";
    case ViewKind::Image: break;
  }
  return "";
}

#else  // a core-only build: the synthetic scene and PGM/PPM pairs

std::string separate_raw_views(const CliOptions&) { return ""; }

std::unique_ptr<FrameSource> make_raw_source(const CliOptions& options, const NoticeSink&) {
  if (options.source == "synthetic") return make_synthetic(options);
  if (options.source == "files") {
    return std::make_unique<StillPairSource>(options.left_path, options.right_path);
  }
  throw InputError("this build has no OpenCV: videos, image sequences, cameras and datasets "
                   "need it (only the synthetic scene and PGM/PPM pairs work here)");
}

#endif

#ifdef STEREOVIEW_HAS_OPENCV

// The rectification a calibration gives the views, for the check of their order.
ViewPreparation view_preparation(const std::optional<StereoCalibration>& calibration, double alpha) {
  if (!calibration) return {};
  return [calibration = *calibration, alpha](ImageRgb8& left, ImageRgb8& right, bool swapped) {
    StereoRectifier(calibration, left.width(), left.height(), alpha, swapped).rectify(left, right);
  };
}

#else

ViewPreparation view_preparation(const std::optional<StereoCalibration>&, double) { return {}; }

#endif

}  // namespace

std::unique_ptr<FrameSource> make_frame_source(const CliOptions& options, NoticeSink notices) {
  std::unique_ptr<FrameSource> source = make_raw_source(options, notices);
  const std::string separate = separate_raw_views(options);
  if (options.calib_path.empty() && !separate.empty()) {
    post_notice(notices, separate + " without --calib: unless their views are rectified already, "
                         "the disparity is noise; rectify with --calib FILE[,FILE] (OpenCV, ROS, "
                         "Kalibr, EuRoC sensor.yaml, ZED .conf) or make one: stereoview calibrate");
  }
  if (options.swap_views) source = std::make_unique<SwappedViewsSource>(std::move(source));
  std::optional<StereoCalibration> calibration;
  if (!options.calib_path.empty()) {
#ifdef STEREOVIEW_HAS_OPENCV
    calibration = load_stereo_calibration(options.calib_path);
#else
    throw InputError("--calib needs OpenCV, which this build does not have");
#endif
  }
  // A dataset's own views are in order (unwrapped, its ground truth stays reachable); a search
  // range reaching below zero expects negative disparities.
  const bool dataset_as_is = options.source == "dataset" && !options.swap_views;
  if (options.source != "synthetic" && !dataset_as_is && options.params.min_disparity >= 0) {
    source = std::make_unique<ViewOrderCheckingSource>(
        std::move(source), options.params.min_disparity + options.params.num_disparities,
        options.swap_views, notices, view_preparation(calibration, options.rectify_alpha));
  }
#ifdef STEREOVIEW_HAS_OPENCV
  if (calibration) {
    source = std::make_unique<RectifiedSource>(std::move(source), std::move(*calibration),
                                               options.rectify_alpha, notices,
                                               options.swap_views);
  }
#endif
  if (options.loop && !source->is_live() && source->frame_count() >= 0) {
    source = std::make_unique<LoopingSource>(std::move(source));
  }
  return source;
}

CliOptions parse_source_flags(const std::vector<std::string>& flags) {
  static const char* const kSourceFlags[] = {
      "--source", "--left", "--right", "--sbs", "--tb", "--camera", "--uvc", "--dataset",
      "--list-cameras", "--camera-size", "--camera-fps", "--camera-format", "--exposure", "--gain",
      "--calib", "--calib-unit", "--rectify-alpha", "--swap-views", "--loop", "--realtime"};
  std::vector<const char*> argv = {"stereoview"};
  for (const std::string& arg : flags) {
    if (arg.rfind("--", 0) == 0) {
      const std::string flag = arg.substr(0, arg.find('='));
      const auto known = std::find_if(std::begin(kSourceFlags), std::end(kSourceFlags),
                                      [&](const char* name) { return flag == name; });
      if (known == std::end(kSourceFlags)) {
        throw UsageError("unknown option " + flag + " (see --help)");
      }
    }
    argv.push_back(arg.c_str());
  }
  return parse_cli(static_cast<int>(argv.size()), argv.data());
}

std::string describe_attached_cameras() {
#ifdef STEREOVIEW_HAS_OPENCV
  return describe_cameras(list_cameras()) + describe_uvc_devices() + "\n";
#else
  return "this build has no OpenCV: cameras are not supported\n";
#endif
}

}  // namespace sv
