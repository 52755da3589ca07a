#include "ui/window_dock.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>

namespace sv {

void WindowDock::place(const Rect& slot) {
  ImGuiWindow* window = ImGui::FindWindowByName(name_.c_str());
  if (!window) return;
  if (docked_ && placed_ &&
      (std::abs(window->Pos.x - placed_x_) > 0.5f || std::abs(window->Pos.y - placed_y_) > 0.5f)) {
    docked_ = false;  // the user dragged it away
  }
  if (!docked_) {
    placed_ = false;
    return;
  }
  ImGui::SetWindowPos(name_.c_str(), ImVec2(slot.x, slot.y));
  if (slot.w > 0) {
    const float height = slot.h > 0 ? slot.h : window->SizeFull.y;
    if (window->SizeFull.x != slot.w || window->SizeFull.y != height) {
      ImGui::SetWindowSize(name_.c_str(), ImVec2(slot.w, height));
    }
  }
  placed_ = true;
  placed_x_ = slot.x;
  placed_y_ = slot.y;
}

Rect WindowDock::rect() const {
  const ImGuiWindow* window = ImGui::FindWindowByName(name_.c_str());
  if (!window) return {};
  return {window->Pos.x, window->Pos.y, window->Size.x, window->Size.y};
}

bool WindowDock::collapsed() const {
  const ImGuiWindow* window = ImGui::FindWindowByName(name_.c_str());
  return window && window->Collapsed;
}

}  // namespace sv
