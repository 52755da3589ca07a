#include "ui/cost_curve_window.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace sv {
namespace {

const ImU32 kCurveColour = IM_COL32(230, 230, 230, 255);
const ImU32 kBestColour = IM_COL32(60, 220, 90, 255);
const ImU32 kSecondColour = IM_COL32(255, 150, 40, 255);
const ImU32 kFitColour = IM_COL32(255, 240, 0, 255);
const ImU32 kNoCostColour = IM_COL32(220, 60, 220, 255);

// The finite range of a curve; [0, 1] when it has no finite value.
void finite_range(const std::vector<double>& curve, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const double c : curve) {
    if (!std::isfinite(c)) continue;
    lo = std::min(lo, c);
    hi = std::max(hi, c);
  }
  if (lo > hi) lo = 0.0, hi = 1.0;
  if (hi == lo) hi = lo + 1.0;
}

// One curve in a box of `size`: cost up, candidate right. `selection` marks the winner and its
// rival; `fit` (the curve the selection ran on) adds the parabola and the chosen disparity.
void draw_curve(const char* title, const std::vector<double>& curve, int base,
                const PixelSelection& selection, bool fit, ImVec2 size) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 corner(origin.x + size.x, origin.y + size.y);
  draw->AddRectFilled(origin, corner, IM_COL32(25, 25, 30, 255));
  draw->AddRect(origin, corner, IM_COL32(90, 90, 90, 255));
  const int count = static_cast<int>(curve.size());
  double lo = 0, hi = 1;
  finite_range(curve, lo, hi);
  const float pad = 4.0f;
  const float plot_w = size.x - 2 * pad, plot_h = size.y - 2 * pad;
  const auto px = [&](double k) {
    return origin.x + pad + static_cast<float>(count > 1 ? k / (count - 1) : 0.5) * plot_w;
  };
  const auto py = [&](double cost) {
    return origin.y + pad + static_cast<float>((hi - cost) / (hi - lo)) * plot_h;
  };
  draw->PushClipRect(origin, corner, true);
  const auto mark = [&](int k, ImU32 colour) {
    if (k < 0 || k >= count) return;
    const float x = std::floor(px(k));  // AddLine adds the half pixel: one crisp column
    draw->AddLine(ImVec2(x, origin.y), ImVec2(x, corner.y), colour, 1.0f);
  };
  mark(selection.second, kSecondColour);
  mark(selection.best, kBestColour);
  for (int k = 0; k < count; ++k) {
    if (!std::isfinite(curve[k])) {  // no real candidate (out of the image): a tick at the top
      draw->AddLine(ImVec2(px(k), origin.y), ImVec2(px(k), origin.y + 6.0f), kNoCostColour, 2.0f);
      continue;
    }
    if (k + 1 < count && std::isfinite(curve[k + 1])) {
      draw->AddLine(ImVec2(px(k), py(curve[k])), ImVec2(px(k + 1), py(curve[k + 1])), kCurveColour,
                    1.5f);
    }
    if (count <= 64) draw->AddCircleFilled(ImVec2(px(k), py(curve[k])), 2.0f, kCurveColour);
  }
  const SubpixelFit& f = selection.fit;
  if (fit && f.fitted) {
    // c(t) = at + (after - before) / 2 * t + (before + after - 2 at) / 2 * t^2 around the winner.
    const double slope = (f.after - f.before) / 2.0, curvature = (f.before + f.after - 2 * f.at) / 2.0;
    ImVec2 previous;
    for (int i = 0; i <= 24; ++i) {
      const double t = -1.5 + 3.0 * i / 24.0;
      const ImVec2 p(px(selection.best + t), py(f.at + slope * t + curvature * t * t));
      if (i > 0) draw->AddLine(previous, p, kFitColour, 1.5f);
      previous = p;
    }
    const double chosen = selection.best + f.offset / static_cast<double>(kDisparityScale);
    draw->AddCircleFilled(ImVec2(px(chosen), py(f.at + slope * (chosen - selection.best) +
                                                  curvature * std::pow(chosen - selection.best, 2))),
                          4.0f, kFitColour);
  }
  draw->PopClipRect();
  char axis[96];
  std::snprintf(axis, sizeof axis, "d %d..%d   cost %.4g..%.4g", base, base + count - 1, lo, hi);
  ImGui::TextDisabled("%s", axis);
  ImGui::EndGroup();
}

}  // namespace

Rect draw_cost_curve_window(CostCurveTarget& target, const std::optional<PixelCosts>& costs,
                            const Rect& slot) {
  if (!target.open()) return {};
  ImGui::SetNextWindowPos(ImVec2(slot.x, slot.y), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(std::max(300.0f, slot.w), std::max(380.0f, slot.h)),
                           ImGuiCond_FirstUseEver);
  bool open = true;
  if (!ImGui::Begin("Cost curve", &open)) {
    ImGui::End();
    target.set_open(open);
    return {};
  }
  const Rect placed{ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                    ImGui::GetWindowSize().y};
  if (target.pinned()) {
    if (ImGui::Button("Follow the cursor")) target.unpin();
    ImGui::SameLine();
    ImGui::TextDisabled("pinned; a click on a view pins another pixel");
  } else {
    ImGui::TextDisabled("follows the cursor over the views; a click pins the pixel");
  }
  const std::string unavailable = cost_curve_unavailable_text(target, costs);
  if (!unavailable.empty()) {
    ImGui::TextWrapped("%s", unavailable.c_str());
  } else {
    const PixelCosts& c = *costs;
    const bool aggregated = !c.aggregated.empty();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 size(aggregated ? (width - spacing) / 2.0f : width, 150.0f);
    const std::string matching_title = "matching cost (" + c.matching_name + ")";
    draw_curve(matching_title.c_str(), c.matching, c.base, c.selection, !aggregated, size);
    if (aggregated) {
      ImGui::SameLine();
      const std::string title = "aggregated (" + c.aggregated_name + ")";
      draw_curve(title.c_str(), c.aggregated, c.base, c.selection, true, size);
    }
    ImGui::TextColored(ImColor(kBestColour), "best");
    ImGui::SameLine();
    ImGui::TextColored(ImColor(kSecondColour), "second");
    ImGui::SameLine();
    ImGui::TextColored(ImColor(kFitColour), "subpixel parabola");
    for (const std::string& line : cost_curve_lines(c)) ImGui::TextWrapped("%s", line.c_str());
  }
  ImGui::End();
  target.set_open(open);
  return open ? placed : Rect{};
}

void draw_probe_marker(const ProbePixel& pixel, const std::vector<Rect>& cells,
                       const std::vector<Rect>& images, int image_width, int image_height) {
  if (image_width <= 0 || image_height <= 0) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (size_t i = 0; i < cells.size() && i < images.size(); ++i) {
    const Rect& cell = cells[i];
    const Rect& image = images[i];
    const float x = image.x + (pixel.x + 0.5f) * image.w / image_width;
    const float y = image.y + (pixel.y + 0.5f) * image.h / image_height;
    draw->PushClipRect(ImVec2(cell.x, cell.y), ImVec2(cell.x + cell.w, cell.y + cell.h), true);
    for (const auto& [colour, thickness] : {std::pair<ImU32, float>{IM_COL32(0, 0, 0, 255), 3.0f},
                                            std::pair<ImU32, float>{kFitColour, 1.0f}}) {
      draw->AddLine(ImVec2(x - 8.0f, y), ImVec2(x - 3.0f, y), colour, thickness);
      draw->AddLine(ImVec2(x + 3.0f, y), ImVec2(x + 8.0f, y), colour, thickness);
      draw->AddLine(ImVec2(x, y - 8.0f), ImVec2(x, y - 3.0f), colour, thickness);
      draw->AddLine(ImVec2(x, y + 3.0f), ImVec2(x, y + 8.0f), colour, thickness);
    }
    draw->PopClipRect();
  }
}

}  // namespace sv
