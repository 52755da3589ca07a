#include "ui/source_choice.h"

#include <cstdio>
#include <filesystem>

#include "src/app/source_factory.h"
#include "src/app/synthetic_source.h"
#include "src/core/error.h"
#include "src/io/image_sequence_source.h"
#include "src/io/depth_geometry.h"
#include "src/io/video_file_reader.h"

namespace sv {

const char* source_kind_name(SourceKind kind) {
  switch (kind) {
    case SourceKind::Synthetic: return "synthetic scene";
    case SourceKind::ImagePair: return "image pair";
    case SourceKind::TwoVideos: return "two videos";
    case SourceKind::SideBySideVideo: return "side-by-side video";
    case SourceKind::TopBottomVideo: return "top-bottom video";
    case SourceKind::ImageSequence: return "image sequences";
    case SourceKind::Dataset: return "dataset folder";
    case SourceKind::Camera: return "V4L2 camera(s)";
    case SourceKind::Uvc: return "UVC camera";
  }
  return "?";
}

SourceChoice source_choice_from_cli(const CliOptions& options) {
  SourceChoice choice;
  choice.options = options;
  const std::string& s = options.source;
  if (s == "files") {
    std::error_code ec;
    if (is_sequence_pattern(options.left_path) ||
        std::filesystem::is_directory(options.left_path, ec)) {
      choice.kind = SourceKind::ImageSequence;
    } else if (has_video_extension(options.left_path)) {
      choice.kind = SourceKind::TwoVideos;
    } else {
      choice.kind = SourceKind::ImagePair;
    }
  } else if (s == "sbs") {
    choice.kind = SourceKind::SideBySideVideo;
  } else if (s == "tb") {
    choice.kind = SourceKind::TopBottomVideo;
  } else if (s == "dataset") {
    choice.kind = SourceKind::Dataset;
  } else if (s == "camera") {
    choice.kind = SourceKind::Camera;
  } else if (s == "uvc") {
    choice.kind = SourceKind::Uvc;
  }
  return choice;
}

CliOptions cli_options_for(const SourceChoice& choice) {
  CliOptions options = choice.options;
  switch (choice.kind) {
    case SourceKind::Synthetic: options.source = "synthetic"; break;
    case SourceKind::ImagePair:
    case SourceKind::TwoVideos:
    case SourceKind::ImageSequence: options.source = "files"; break;
    case SourceKind::SideBySideVideo: options.source = "sbs"; break;
    case SourceKind::TopBottomVideo: options.source = "tb"; break;
    case SourceKind::Dataset: options.source = "dataset"; break;
    case SourceKind::Camera: options.source = "camera"; break;
    case SourceKind::Uvc: options.source = "uvc"; break;
  }
  if (!choice.rectify) options.calib_path.clear();
  options.loop = false;  // the viewer loops through its PlaybackSource, switchable while playing
  return options;
}

namespace {

// What the panel would otherwise pass on as an empty path, said the way the user sees it.
void require_fields(const SourceChoice& choice, const CliOptions& o) {
  auto need = [](const std::string& value, const char* what) {
    if (value.empty()) throw InputError(std::string("no ") + what + " given");
  };
  switch (choice.kind) {
    case SourceKind::ImagePair:
    case SourceKind::TwoVideos:
    case SourceKind::ImageSequence:
      need(o.left_path, "left path");
      need(o.right_path, "right path");
      break;
    case SourceKind::SideBySideVideo:
    case SourceKind::TopBottomVideo: need(o.packed_video_path, "video file"); break;
    case SourceKind::Dataset: need(o.dataset_dir, "dataset folder"); break;
    case SourceKind::Camera:
      if (o.cameras.empty()) throw InputError("no camera number given");
      break;
    case SourceKind::Uvc: need(o.uvc_device, "UVC device (VID:PID)"); break;
    case SourceKind::Synthetic: break;
  }
}

}  // namespace

OpenedSource open_source(const SourceChoice& choice, const SyntheticSceneConfig& scene,
                         const NoticeSink& notices) {
  OpenedSource opened;
  const CliOptions options = cli_options_for(choice);
  if (choice.kind == SourceKind::Synthetic) {
    opened.source = std::make_unique<SyntheticSource>(scene);
  } else {
    require_fields(choice, options);
    opened.source = make_frame_source(options, notices);
  }
  opened.first = opened.source->next();
  if (!opened.first) throw InputError(opened.source->describe() + ": holds no frames");
  const std::string& calib = choice.options.calib_path;
  if (choice.kind != SourceKind::Synthetic && !calib.empty()) {
    // Q at this size, as the rectifying source built it (the raw view uses it for depth too).
    const DepthGeometry depth = rectified_depth_geometry(
        calib, choice.options.calib_unit, opened.first->left.width(), opened.first->left.height(),
        choice.options.rectify_alpha, choice.options.swap_views);
    if (!depth.warning.empty()) post_notice(notices, depth.warning);
    opened.geometry = depth.geometry;
    if (opened.geometry) {
      char text[160];
      std::snprintf(text, sizeof text, "f %.1f px, baseline %.4g m from %s",
                    opened.geometry->focal_length_px, opened.geometry->baseline, calib.c_str());
      opened.calibration_summary = text;
    }
  }
  return opened;
}

}  // namespace sv
