#pragma once

#include <glad/gl.h>

#include <string>

#include "ui/shader_program.h"
#include "ui/view_layout.h"
#include "ui/view_textures.h"
#include "ui/viewer_settings.h"

namespace sv {

// The framebuffer the views are drawn into: its size in pixels and how many of them make one
// window (logical) pixel, which differs from 1 on high-DPI screens.
struct Framebuffer {
  int width = 0;
  int height = 0;
  float scale_x = 1.0f;
  float scale_y = 1.0f;
};

// Draws view cells with the shaders of shaders/ (view.vert, view.frag). GL thread only.
class ViewRenderer {
 public:
  explicit ViewRenderer(const std::string& shader_dir);
  ~ViewRenderer();
  ViewRenderer(const ViewRenderer&) = delete;
  ViewRenderer& operator=(const ViewRenderer&) = delete;

  // `kind` of `textures`, placed at `image` and clipped to `cell` (window coordinates).
  void draw(const ViewTextures& textures, ViewKind kind, const Rect& cell, const Rect& image,
            float blend_alpha, const Framebuffer& framebuffer);

 private:
  ShaderProgram program_;
  GLuint vertex_array_ = 0;  // core profile needs one bound even without vertex buffers
  GLint rect_location_ = -1;
  GLint base_location_ = -1;
  GLint overlay_location_ = -1;
  GLint alpha_location_ = -1;
};

}  // namespace sv
