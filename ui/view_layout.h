#pragma once

#include <vector>

namespace sv {

// A rectangle in window coordinates (logical pixels, origin top left, y down), as ImGui and
// GLFW's cursor use them; the renderer scales them to framebuffer pixels for high-DPI screens.
struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
  float center_x() const { return x + 0.5f * w; }
  float center_y() const { return y + 0.5f * h; }
};

// Zoom and pan shared by every view (all show the same pixels). zoom 1 fits the whole image
// into its cell; pan moves the image point shown at the cell centre, in image pixels.
struct ViewTransform {
  float zoom = 1.0f;
  float pan_x = 0.0f;
  float pan_y = 0.0f;
};

constexpr float kMinZoom = 0.1f;
constexpr float kMaxZoom = 64.0f;

// The cells of a layout of 1, 2 or 4 views inside `area`, separated by `gap`: two views sit side
// by side when the area is wider than tall, else one above the other; four make a 2x2 grid.
std::vector<Rect> layout_cells(const Rect& area, int layout, float gap);

// Where an image of image_w x image_h lands in `cell` under `transform` (may reach past the
// cell; the renderer clips to it).
Rect image_rect(const Rect& cell, int image_w, int image_h, const ViewTransform& transform);

// The image coordinates (pixel units, pixel (x, y) covers [x, x+1)) of a window point.
void window_to_image(const Rect& image, int image_w, int image_h, float wx, float wy, float& ix,
                     float& iy);

// Zooms by `factor` keeping the image point under (wx, wy) where it is.
void zoom_about(ViewTransform& transform, const Rect& cell, int image_w, int image_h, float factor,
                float wx, float wy);

// Moves the image with the mouse by (dx, dy) window pixels.
void pan_by(ViewTransform& transform, const Rect& cell, int image_w, int image_h, float dx,
            float dy);

}  // namespace sv
