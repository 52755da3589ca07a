#pragma once

#include <memory>

#include "src/app/cli_options.h"
#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// The source the command line names (CliOptions::source), wrapped for --calib (rectified on the
// calling thread) and --loop. For --left/--right: two videos (by extension), two image sequences
// (a printf pattern or a folder each) or a single image pair. The synthetic scene gets the size,
// seed and a disparity range fitting the parameters. Notices (a shorter video, a camera that
// delivers another size) go to `notices`.
// Throws InputError / RuntimeError with a message for the user: missing or unreadable files,
// unplugged or busy cameras, a calibration for another size, a source this build cannot read.
std::unique_ptr<FrameSource> make_frame_source(const CliOptions& options, NoticeSink notices = {});

// The text of --list-cameras: V4L2 cameras and UVC devices, or why there are none.
std::string describe_attached_cameras();

}  // namespace sv
