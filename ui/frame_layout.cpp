#include "ui/frame_layout.h"

#include <algorithm>

namespace sv {

bool overlaps(const Rect& a, const Rect& b) {
  return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w &&
         a.y < b.y + b.h && b.y < a.y + a.h;
}

FrameLayout compute_frame_layout(const LayoutInputs& in) {
  FrameLayout layout;
  const float w = in.window_w, h = in.window_h, top = in.menu_height;
  const float gap = 4.0f * in.ui_scale;
  const float panel_w = in.show_panel ? std::min(430.0f * in.ui_scale, 0.5f * w) : 0.0f;
  const float recording_h = in.recording_docked ? std::min(in.recording_height, h - top) : 0.0f;
  // The timings never take more than a good part of the height: the views come first.
  const float timings_h =
      in.timings_docked ? std::min(in.timings_height, 0.45f * (h - top)) : 0.0f;

  float bottom = h;  // where the views' column ends
  if (in.show_panel) {
    layout.panel = {0.0f, top, panel_w, h - top - recording_h};
    if (recording_h > 0) layout.recording = {0.0f, h - recording_h, panel_w, recording_h};
    if (timings_h > 0) layout.timings = {panel_w, h - timings_h, w - panel_w, timings_h};
    bottom = h - timings_h;
  } else if (recording_h >= timings_h) {
    // No panel column: the Recording window starts the strip under the views, the Timings as
    // tall beside it.
    const float recording_w = recording_h > 0 ? kRecordingWidth * in.ui_scale : 0.0f;
    if (recording_h > 0) layout.recording = {0.0f, h - recording_h, recording_w, recording_h};
    if (timings_h > 0) layout.timings = {recording_w, h - recording_h, w - recording_w, recording_h};
    bottom = h - recording_h;
  } else {
    // A Recording window lower than the Timings (collapsed: its title bar) goes above them, which
    // take the whole width: beside them it would leave an empty column under it.
    layout.timings = {0.0f, h - timings_h, w, timings_h};
    if (recording_h > 0) {
      layout.recording = {0.0f, h - timings_h - recording_h, kRecordingWidth * in.ui_scale, recording_h};
    }
    bottom = h - timings_h - recording_h;
  }

  bool any_disparity = false, any_confidence = false;
  for (int i = 0; i < in.layout; ++i) {
    any_disparity = any_disparity || shows_disparity(in.views[i]);
    any_confidence = any_confidence || in.views[i] == ViewKind::Confidence;
  }
  const float disparity_w = any_disparity ? in.disparity_bar_w : 0.0f;
  const float confidence_w = any_confidence ? in.confidence_bar_w : 0.0f;
  const float side_w = std::min(in.side_w, 0.5f * (w - panel_w));
  const float bars_h = std::max(1.0f, bottom - top);
  const float bars_right = w - side_w;
  if (side_w > 0) layout.side = {bars_right, top, side_w, bars_h};
  if (disparity_w > 0) layout.disparity_bar = {bars_right - confidence_w - disparity_w, top, disparity_w, bars_h};
  if (confidence_w > 0) layout.confidence_bar = {bars_right - confidence_w, top, confidence_w, bars_h};

  layout.views = {panel_w + gap, top + gap,
                  std::max(1.0f, bars_right - panel_w - disparity_w - confidence_w - 2 * gap),
                  std::max(1.0f, bottom - top - 2 * gap)};
  layout.cells = layout_cells(layout.views, in.layout, gap);
  for (const Rect& cell : layout.cells) {
    layout.images.push_back(image_rect(cell, in.image_w, in.image_h, in.transform));
  }
  return layout;
}

}  // namespace sv
