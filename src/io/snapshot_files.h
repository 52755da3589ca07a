#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/image.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// One frame's snapshot, everything a user may want to take elsewhere, into `folder` (created
// when missing), each file named frame_<index>_<what>:
//   disparity.png                the colorized disparity as shown
//   disparity.pfm                float disparity, +inf where invalid (Middlebury)
//   left.png, right.png          the input views
//   disparity16.png              round(256 d), 0 where invalid or d <= 0 (KITTI)
//   points.ply                   a coloured point cloud, only when `geometry` is given
// Returns the paths written, in that order; RuntimeError naming the file that failed.
struct SnapshotImages {
  int64_t index = 0;
  const ImageRgb8* left = nullptr;
  const ImageRgb8* right = nullptr;
  const ImageF32* disparity = nullptr;
  const ImageRgb8* colorized = nullptr;
  const StereoGeometry* geometry = nullptr;  // nullptr: no calibration, no point cloud
};
std::vector<std::string> write_snapshot_files(const std::string& folder, const SnapshotImages& images);

// KITTI's 16-bit disparity encoding (see above).
ImageU16 kitti_disparity_u16(const ImageF32& disparity);

}  // namespace sv
