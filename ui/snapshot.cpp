#include "ui/snapshot.h"

#include <glad/gl.h>

#include <cstring>

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
