#include "ui/snapshot.h"

#include <glad/gl.h>

#include <cstdio>
#include <cstring>

#include "src/core/error.h"
#include "src/io/png_io.h"
#include "src/io/snapshot_files.h"
#include "ui/gl_check.h"

namespace sv {

std::vector<std::string> write_snapshot(const std::string& folder, const ProcessedFrame& frame,
                                        const ImageRgb8& colorized, const StereoGeometry* geometry) {
  SnapshotImages images;
  images.index = frame.pair.index;
  images.left = &frame.pair.left;
  images.right = &frame.pair.right;
  images.disparity = &frame.result.disparity;
  images.colorized = &colorized;
  images.geometry = geometry;
  return write_snapshot_files(folder, images);
}

std::string ab_difference_png_path(const std::string& folder, const AbMatch& match) {
  // Named as write_snapshot_files names the frame's other files.
  char name[64];
  std::snprintf(name, sizeof name, "/frame_%06lld_difference.png",
                static_cast<long long>(match.a.key.index));
  return folder + name;
}

void write_ab_snapshot(const std::string& folder, const AbMatch& match, const ImageRgb8& colorized_b,
                       const ImageRgb8& difference, const StereoGeometry* geometry) {
  if (!colorized_b.same_size(match.b.disparity) || !difference.same_size(match.b.disparity)) {
    throw RuntimeError("A/B: B's view is not drawn yet; try again");
  }
  write_snapshot(folder + "/b", *match.b_frame, colorized_b, geometry);
  write_png(ab_difference_png_path(folder, match), difference);
}

ImageRgb8 read_framebuffer(int width, int height) {
  ImageRgb8 bottom_up(width, height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  check_gl("reading the framebuffer");
  // GL's rows start at the bottom; images start at the top.
  ImageRgb8 image(width, height);
  for (int y = 0; y < height; ++y) {
    std::memcpy(image.row(y), bottom_up.row(height - 1 - y), sizeof(Rgb8) * width);
  }
  return image;
}

}  // namespace sv
