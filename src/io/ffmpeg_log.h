#pragma once

namespace sv {

// Keeps FFmpeg's own log lines off stderr, for every FFmpeg user in the process: our readers and
// writers, and OpenCV's FFmpeg backend, which sets the log level to AV_LOG_ERROR when it first
// opens a file (so setting a level ourselves lasted only until then) but leaves the callback
// alone. What matters reaches the user through our own messages: the readers turn a damaged or
// truncated file into an error or a notice, the writers a failure into an exception.
// OPENCV_FFMPEG_DEBUG (OpenCV's switch for its FFmpeg log) still shows FFmpeg's lines.
void silence_ffmpeg_log();

}  // namespace sv
