#include "ui/view_layout.h"

#include <algorithm>

namespace sv {
namespace {

float fit_scale(const Rect& cell, int image_w, int image_h) {
  if (image_w <= 0 || image_h <= 0) return 1.0f;
  return std::min(cell.w / static_cast<float>(image_w), cell.h / static_cast<float>(image_h));
}

}  // namespace

std::vector<Rect> layout_cells(const Rect& area, int layout, float gap) {
  if (layout <= 1) return {area};
  if (layout == 2) {
    if (area.w >= area.h) {
      const float w = (area.w - gap) * 0.5f;
      return {{area.x, area.y, w, area.h}, {area.x + w + gap, area.y, w, area.h}};
    }
    const float h = (area.h - gap) * 0.5f;
    return {{area.x, area.y, area.w, h}, {area.x, area.y + h + gap, area.w, h}};
  }
  const float w = (area.w - gap) * 0.5f;
  const float h = (area.h - gap) * 0.5f;
  return {{area.x, area.y, w, h},
          {area.x + w + gap, area.y, w, h},
          {area.x, area.y + h + gap, w, h},
          {area.x + w + gap, area.y + h + gap, w, h}};
}

Rect image_rect(const Rect& cell, int image_w, int image_h, const ViewTransform& transform) {
  const float scale = fit_scale(cell, image_w, image_h) * transform.zoom;
  const float centre_x = 0.5f * static_cast<float>(image_w) + transform.pan_x;
  const float centre_y = 0.5f * static_cast<float>(image_h) + transform.pan_y;
  return {cell.center_x() - centre_x * scale, cell.center_y() - centre_y * scale,
          static_cast<float>(image_w) * scale, static_cast<float>(image_h) * scale};
}

void window_to_image(const Rect& image, int image_w, int image_h, float wx, float wy, float& ix,
                     float& iy) {
  ix = image.w > 0 ? (wx - image.x) * static_cast<float>(image_w) / image.w : 0.0f;
  iy = image.h > 0 ? (wy - image.y) * static_cast<float>(image_h) / image.h : 0.0f;
}

void zoom_about(ViewTransform& transform, const Rect& cell, int image_w, int image_h, float factor,
                float wx, float wy) {
  float ix = 0, iy = 0;
  window_to_image(image_rect(cell, image_w, image_h, transform), image_w, image_h, wx, wy, ix, iy);
  transform.zoom = std::clamp(transform.zoom * factor, kMinZoom, kMaxZoom);
  const float scale = fit_scale(cell, image_w, image_h) * transform.zoom;
  // Solve cell_centre + (image_point - centre) * scale = window_point for the new centre.
  transform.pan_x = ix - (wx - cell.center_x()) / scale - 0.5f * static_cast<float>(image_w);
  transform.pan_y = iy - (wy - cell.center_y()) / scale - 0.5f * static_cast<float>(image_h);
}

void pan_by(ViewTransform& transform, const Rect& cell, int image_w, int image_h, float dx,
            float dy) {
  const float scale = fit_scale(cell, image_w, image_h) * transform.zoom;
  if (scale <= 0.0f) return;
  transform.pan_x -= dx / scale;
  transform.pan_y -= dy / scale;
}

}  // namespace sv
