#include "src/io/snapshot_files.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/io/png_io.h"
#include "src/io/point_cloud_ply.h"

namespace sv {

ImageU16 kitti_disparity_u16(const ImageF32& disparity) {
  ImageU16 out(disparity.width(), disparity.height());
  for (size_t i = 0; i < disparity.size(); ++i) {
    const float d = disparity.data()[i];
    if (!is_valid_disparity(d) || d <= 0.0f) continue;
    out.data()[i] = static_cast<uint16_t>(std::min(65535.0, std::round(256.0 * d)));
  }
  return out;
}

std::vector<std::string> write_snapshot_files(const std::string& folder, const SnapshotImages& images) {
  if (!images.left || !images.right || !images.disparity || !images.colorized) {
    throw RuntimeError("snapshot: no frame to write yet");
  }
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw RuntimeError("snapshot folder " + folder + ": " + error.message());
  char stem[64];
  std::snprintf(stem, sizeof stem, "/frame_%06lld_", static_cast<long long>(images.index));
  const std::string base = folder + stem;
  std::vector<std::string> written;
  auto next = [&](const char* what) { return written.emplace_back(base + what); };
  write_png(next("disparity.png"), *images.colorized);
  write_pfm(next("disparity.pfm"), *images.disparity);
  write_png(next("left.png"), *images.left);
  write_png(next("right.png"), *images.right);
  write_png(next("disparity16.png"), kitti_disparity_u16(*images.disparity));
  if (images.geometry) {
    write_point_cloud_ply(next("points.ply"), *images.disparity, *images.left, *images.geometry);
  }
  return written;
}

}  // namespace sv
