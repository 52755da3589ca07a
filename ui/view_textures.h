#pragma once

#include <glad/gl.h>

#include <cstdint>

#include "src/core/image.h"

namespace sv {

// The images behind the views, as GL textures owned by the GL thread.
// Colorized ones; the last two are the A/B comparison's B side and difference (host path only).
enum class ViewImage {
  Left = 0, Right = 1, Disparity = 2, Confidence = 3, DisparityB = 4, Difference = 5
};

// How the textures get their pixels (shared/ARCHITECTURE.md, "CUDA-GL interop"), for the
// disparity and for the views each: the UI names both, e.g. "display path: host upload".
enum class DisplayPath { HostUpload, Interop };
const char* display_path_name(DisplayPath path);

// RGBA8 textures of one size (RGBA8 rather than RGB8 because CUDA can register only
// four-channel 8-bit textures). Two ways fill them:
//  - the host path, here: upload_*_from_host() copies CPU images in with glTexSubImage2D;
//  - the interop path (cuda/gl_interop.*): the CUDA pipeline registers texture(...) once per
//    storage_generation() and writes the same textures from the GPU, then calls
//    set_display_path(DisplayPath::Interop) for the disparity, set_views_display_path(...) for
//    the views. Nothing else in the viewer changes between them.
class ViewTextures {
 public:
  ViewTextures();
  ~ViewTextures();
  ViewTextures(const ViewTextures&) = delete;
  ViewTextures& operator=(const ViewTextures&) = delete;

  // (Re)allocates the storage of all four when the size changes; true when it did.
  bool ensure_size(int width, int height);

  // Host path: the colour views and the colorized disparity, each width() x height() after
  // ensure_size() (a size mismatch throws RuntimeError, a GL error too).
  void upload_views_from_host(const ImageRgb8& left, const ImageRgb8& right);
  void upload_disparity_from_host(const ImageRgb8& colorized);
  void upload_confidence_from_host(const ImageRgb8& colorized);
  void upload_ab_from_host(const ImageRgb8& disparity_b, const ImageRgb8& difference);

  GLuint texture(ViewImage image) const { return textures_[static_cast<int>(image)]; }
  int width() const { return width_; }
  int height() const { return height_; }
  bool has_content() const { return has_content_; }
  // Changes whenever ensure_size() reallocates, so a registration with CUDA knows to renew.
  uint64_t storage_generation() const { return storage_generation_; }
  // The disparity's path.
  DisplayPath display_path() const { return path_; }
  void set_display_path(DisplayPath path) { path_ = path; }
  // The left and right views' path: interop only where the engine rectified them on the GPU.
  DisplayPath views_display_path() const { return views_path_; }
  void set_views_display_path(DisplayPath path) { views_path_ = path; }

 private:
  void upload(ViewImage image, const ImageRgb8& pixels, const char* what);

  static constexpr int kCount = 6;
  GLuint textures_[kCount] = {0, 0, 0, 0, 0, 0};
  int width_ = 0;
  int height_ = 0;
  bool has_content_ = false;
  uint64_t storage_generation_ = 0;
  DisplayPath path_ = DisplayPath::HostUpload;
  DisplayPath views_path_ = DisplayPath::HostUpload;
};

}  // namespace sv
