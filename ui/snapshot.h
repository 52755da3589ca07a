#pragma once

#include <string>
#include <vector>

#include "src/app/processing_thread.h"
#include "src/core/image.h"

namespace sv {

// Writes what the viewer shows of one frame into `folder` (created when missing):
// frame_<index>_disparity.png (colorized as shown), frame_<index>_disparity.pfm (the float
// disparity, +inf where invalid), frame_<index>_left.png and frame_<index>_right.png.
// Returns the paths written; throws RuntimeError naming the file that failed.
std::vector<std::string> write_snapshot(const std::string& folder, const ProcessedFrame& frame,
                                        const ImageRgb8& colorized);

// The whole framebuffer (back buffer, before the swap) as an image, top row first.
ImageRgb8 read_framebuffer(int width, int height);

}  // namespace sv
