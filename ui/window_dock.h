#pragma once

#include <string>

#include "ui/view_layout.h"

namespace sv {

// Dear ImGui 1.86 (Debian's) has no docking branch; this is the viewer's stand-in: while docked,
// the layout places and sizes the window each frame; dragging it by its title undocks it (it
// floats where it was dropped, and the layout gives its place back to the views), dock() puts it
// back. Works on the window by name, so it also places windows whose Begin is elsewhere.
class WindowDock {
 public:
  explicit WindowDock(std::string name) : name_(std::move(name)) {}

  bool docked() const { return docked_; }
  void dock() { docked_ = true; }

  // Inside an ImGui frame, before the window's Begin: notices a drag away (undocking), else
  // moves the window to `slot`'s corner and, where `slot.w` > 0, to its width (and its height
  // where `slot.h` > 0). A window not made yet is left to its own first-use placement.
  void place(const Rect& slot);
  // The window's rect and whether it is collapsed now (zero before it was first made).
  Rect rect() const;
  bool collapsed() const;

 private:
  std::string name_;
  bool docked_ = true;
  bool placed_ = false;
  float placed_x_ = 0, placed_y_ = 0;
};

}  // namespace sv
