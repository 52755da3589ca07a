#pragma once

#include <array>
#include <vector>

#include "ui/view_layout.h"
#include "ui/viewer_settings.h"

namespace sv {

// What decides where everything goes in the window (window coordinates, logical pixels).
struct LayoutInputs {
  float window_w = 0, window_h = 0;
  float menu_height = 0;
  float ui_scale = 1.0f;
  bool show_panel = true;
  int layout = 2;
  std::array<ViewKind, 4> views{};
  float disparity_bar_w = 0;   // the widths the colour bars' labels need
  float confidence_bar_w = 0;
  // The Timings window docked under the views (shown and not dragged away), and the height its
  // content wants.
  bool timings_docked = false;
  float timings_height = 0;
  // The Recording window docked at the bottom of the panel column (or of the window when the
  // panel is hidden), and its height now (its title bar while collapsed).
  bool recording_docked = true;
  float recording_height = 0;
  // A column at the right edge for the windows that explain the views (Calibrate, Cost curve)
  // while they are open and docked; 0: none.
  float side_w = 0;
  int image_w = 0, image_h = 0;
  ViewTransform transform;
};

// Where everything goes this frame. Nothing overlaps: the panel column (the control panel over
// the docked Recording window) on the left, the views with their colour bars right of it, the
// side column at the right edge, the docked Timings window under them. A rect with w == 0 is not
// shown.
struct FrameLayout {
  Rect panel;
  Rect recording;  // the docked Recording window's place (its height: the one it has now)
  Rect timings;
  Rect views;      // the area the view cells share
  Rect disparity_bar;   // w == 0 when no view shows disparities
  Rect confidence_bar;  // w == 0 when no view shows the confidence
  Rect side;            // the side column (LayoutInputs::side_w)
  std::vector<Rect> cells;
  std::vector<Rect> images;  // the image inside each cell, after zoom and pan
};

// The width the Recording window gets where the panel column does not set it.
constexpr float kRecordingWidth = 340.0f;
// The side column's width (times the UI scale): the Calibrate window's content and a readable
// Cost curve.
constexpr float kSideColumnWidth = 400.0f;

FrameLayout compute_frame_layout(const LayoutInputs& in);

// Whether two rectangles share any area (touching edges do not count).
bool overlaps(const Rect& a, const Rect& b);

}  // namespace sv
