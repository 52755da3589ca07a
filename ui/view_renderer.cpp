#include "ui/view_renderer.h"

#include <cmath>

#include "ui/gl_check.h"

namespace sv {

ViewRenderer::ViewRenderer(const std::string& shader_dir)
    : program_(shader_dir + "/view.vert", shader_dir + "/view.frag") {
  glGenVertexArrays(1, &vertex_array_);
  rect_location_ = program_.uniform("u_rect");
  base_location_ = program_.uniform("u_base");
  overlay_location_ = program_.uniform("u_overlay");
  alpha_location_ = program_.uniform("u_overlay_alpha");
  check_gl("setting up the view renderer");
}

ViewRenderer::~ViewRenderer() { glDeleteVertexArrays(1, &vertex_array_); }

void ViewRenderer::draw(const ViewTextures& textures, ViewKind kind, const Rect& cell,
                        const Rect& image, float blend_alpha, const Framebuffer& fb) {
  if (fb.width <= 0 || fb.height <= 0 || !textures.has_content()) return;
  // Window coordinates (y down) to framebuffer pixels (y up) for the scissor box.
  const int x0 = static_cast<int>(std::lround(cell.x * fb.scale_x));
  const int x1 = static_cast<int>(std::lround((cell.x + cell.w) * fb.scale_x));
  const int y0 = static_cast<int>(std::lround(cell.y * fb.scale_y));
  const int y1 = static_cast<int>(std::lround((cell.y + cell.h) * fb.scale_y));
  glViewport(0, 0, fb.width, fb.height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(x0, fb.height - y1, x1 - x0, y1 - y0);

  // The image rectangle in normalized device coordinates (left, bottom, right, top).
  const float to_ndc_x = 2.0f * fb.scale_x / static_cast<float>(fb.width);
  const float to_ndc_y = 2.0f * fb.scale_y / static_cast<float>(fb.height);
  const float left = image.x * to_ndc_x - 1.0f;
  const float right = (image.x + image.w) * to_ndc_x - 1.0f;
  const float top = 1.0f - image.y * to_ndc_y;
  const float bottom = 1.0f - (image.y + image.h) * to_ndc_y;

  ViewImage base = ViewImage::Disparity;
  float alpha = 0.0f;
  if (kind == ViewKind::Left) base = ViewImage::Left;
  if (kind == ViewKind::Right) base = ViewImage::Right;
  if (kind == ViewKind::Confidence) base = ViewImage::Confidence;
  if (kind == ViewKind::DisparityB) base = ViewImage::DisparityB;
  if (kind == ViewKind::Difference) base = ViewImage::Difference;
  if (kind == ViewKind::Blend) {
    base = ViewImage::Left;
    alpha = blend_alpha;
  }

  glUseProgram(program_.id());
  glUniform4f(rect_location_, left, bottom, right, top);
  glUniform1i(base_location_, 0);
  glUniform1i(overlay_location_, 1);
  glUniform1f(alpha_location_, alpha);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, textures.texture(base));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, textures.texture(ViewImage::Disparity));
  glBindVertexArray(vertex_array_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  check_gl("drawing a view");
}

}  // namespace sv
