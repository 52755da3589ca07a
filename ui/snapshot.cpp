#include "ui/snapshot.h"

#include <glad/gl.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/io/png_io.h"
#include "ui/gl_check.h"

namespace sv {

std::vector<std::string> write_snapshot(const std::string& folder, const ProcessedFrame& frame,
                                        const ImageRgb8& colorized) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw RuntimeError("snapshot folder " + folder + ": " + error.message());
  char stem[64];
  std::snprintf(stem, sizeof stem, "/frame_%06lld_", static_cast<long long>(frame.pair.index));
  const std::string base = folder + stem;
  std::vector<std::string> written = {base + "disparity.png", base + "disparity.pfm",
                                      base + "left.png", base + "right.png"};
  write_png(written[0], colorized);
  write_pfm(written[1], frame.result.disparity);
  write_png(written[2], frame.pair.left);
  write_png(written[3], frame.pair.right);
  return written;
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
