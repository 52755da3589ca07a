#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/app/cli_options.h"
#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// The source the command line names (CliOptions::source), wrapped, in this order, for
// --swap-views, the check for swapped views (view_order_checking_source.h, rectifying its copy
// as --calib does: every source but the synthetic scene and an unswapped dataset, unless the
// search range reaches below zero), --calib (rectified on the calling thread) and --loop. For
// --left/--right: two videos (by extension), two image sequences (a printf pattern or a folder
// each) or a single image pair. The synthetic scene gets the size, seed and a disparity range
// fitting the parameters. Notices (a shorter video, a camera that delivers another size, views
// that look swapped, two cameras' separate views without --calib) go to `notices`.
// Throws InputError / RuntimeError with a message for the user: missing or unreadable files,
// unplugged or busy cameras, a calibration for another size, a source this build cannot read.
std::unique_ptr<FrameSource> make_frame_source(const CliOptions& options, NoticeSink notices = {});

// The source that command-line flags alone name, e.g. {"--sbs", "pair.avi", "--calib", "c.yaml"}
// or {"--source", "synthetic"}: parsed by parse_cli itself, so the viewer's command line, its
// scripts and the stereoview CLI read source flags the same way. Only the source flags (those
// of the "Source" part of usage_text(), e.g. --left --right --sbs --tb --camera --uvc --dataset
// --calib --swap-views --loop --realtime --list-cameras and the camera settings) are accepted;
// anything else is a UsageError ("unknown option --x (see --help)").
CliOptions parse_source_flags(const std::vector<std::string>& flags);

// The text of --list-cameras: V4L2 cameras and UVC devices, or why there are none.
std::string describe_attached_cameras();

}  // namespace sv
