#pragma once

#include <memory>
#include <optional>
#include <string>

#include "src/app/cli_options.h"
#include "src/core/frame_source.h"
#include "src/core/synthetic_scene.h"
#include "src/io/notice_sink.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// The kinds the source panel offers. Image pairs, two videos and image sequences are all
// --left/--right to source_factory (it tells them apart by the paths); the panel keeps them
// apart only to say what to type.
enum class SourceKind {
  Synthetic,
  ImagePair,
  TwoVideos,
  SideBySideVideo,
  TopBottomVideo,
  ImageSequence,
  Dataset,
  Camera,
  Uvc,
};
constexpr int kSourceKindCount = 9;
const char* source_kind_name(SourceKind kind);

// A source as the viewer names it: the stereoview CLI's source options (what --left, --sbs,
// --camera, --calib... set, see parse_source_flags), the panel's kind, and whether a loaded
// calibration rectifies (off: the raw views, while its Q still gives depth).
struct SourceChoice {
  SourceKind kind = SourceKind::Synthetic;
  CliOptions options;
  bool rectify = true;
};

// The choice the command line or a script's "source" command names.
SourceChoice source_choice_from_cli(const CliOptions& options);
// What make_frame_source() gets for `choice` (source set from the kind, --calib dropped when
// not rectifying).
CliOptions cli_options_for(const SourceChoice& choice);

// A source opened and checked: its first pair was read, so a missing, unreadable or mismatched
// input fails here, on the GL thread, before the viewer gives up the source it runs.
struct OpenedSource {
  std::unique_ptr<FrameSource> source;
  std::optional<StereoPair> first;
  // From the rectified views' Q at the source's size, baseline in metres (depth_geometry.h);
  // nullopt when the calibration's unit is unknown and metres do not fit (a notice says so).
  std::optional<StereoGeometry> geometry;
  std::string calibration_summary;  // e.g. "f 700.0 px, baseline 0.12 m from calib.yaml"
};

// Opens `choice` through make_frame_source (the synthetic scene from `scene`, the viewer's own
// settings). Throws InputError / RuntimeError with the reason.
OpenedSource open_source(const SourceChoice& choice, const SyntheticSceneConfig& scene,
                         const NoticeSink& notices);

}  // namespace sv
