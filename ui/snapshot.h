#pragma once

#include <string>
#include <vector>

#include "src/app/processing_thread.h"
#include "src/core/image.h"
#include "src/io/stereo_calibration.h"
#include "ui/ab_comparison.h"

namespace sv {

// Writes what the viewer shows of one frame into `folder` (created when missing), through
// write_snapshot_files (src/io/snapshot_files.h): frame_<index>_disparity.png (colorized as
// shown) first, then the PFM, both views, the KITTI 16-bit PNG and, when `geometry` is given
// (a calibration's Q or the synthetic scene's cameras), the point cloud PLY.
// Returns the paths written; throws RuntimeError naming the file that failed.
std::vector<std::string> write_snapshot(const std::string& folder, const ProcessedFrame& frame,
                                        const ImageRgb8& colorized,
                                        const StereoGeometry* geometry = nullptr);

// With A/B on, what a snapshot adds for B: B's files as write_snapshot writes them, in
// `folder`/b (`colorized_b`: B's disparity as shown), and the difference view as shown
// (`difference`) in `folder`/frame_<index>_difference.png. RuntimeError naming what failed.
void write_ab_snapshot(const std::string& folder, const AbMatch& match, const ImageRgb8& colorized_b,
                       const ImageRgb8& difference, const StereoGeometry* geometry = nullptr);
std::string ab_difference_png_path(const std::string& folder, const AbMatch& match);

// The whole framebuffer (back buffer, before the swap) as an image, top row first.
ImageRgb8 read_framebuffer(int width, int height);

}  // namespace sv
