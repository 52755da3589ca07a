#pragma once

#include "ui/view_layout.h"
#include "ui/viewer_state.h"
#include "ui/window_dock.h"

namespace sv {

// The Timings window, the viewer's signature: per-stage last / mean / max over the history window
// (from the engine's StageTimings), the frame-time plot, capture / processing / display rates,
// dropped pairs and GPU memory. Docked under the views by default (WindowDock: drag it away to
// float it, View > Dock timings to put it back), shown and hidden with T or its close button.
class TimingsWindow {
 public:
  TimingsWindow() : dock_("Timings") {}

  // Inside an ImGui frame. `slot`: its place while docked (FrameLayout::timings). `shown` is
  // cleared by the window's close button.
  void draw(const ViewerStatus& status, const Rect& slot, bool& shown);

  bool docked() const { return dock_.docked(); }
  void dock() { dock_.dock(); }
  // The height its content needs (window padding and title bar included), measured as it was
  // last drawn; the layout gives the docked window that much.
  float wanted_height() const { return wanted_height_; }
  // The last frame showed all of its content: drawn, and at least as tall as it needs.
  bool content_fits() const { return drawn_ && rect_.h + 0.5f >= wanted_height_; }
  Rect rect() const { return rect_; }

 private:
  WindowDock dock_;
  float wanted_height_ = 0.0f;
  bool drawn_ = false;
  Rect rect_;
};

}  // namespace sv
