#include "ui/histogram_widget.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sv {

namespace {

Rect g_last_rect;

}  // namespace

Rect last_histogram_rect() { return g_last_rect; }

bool draw_histogram(const Histogram& histogram, ValueRange shown, Colormap map, ColorRange& edit) {
  const float scale = ImGui::GetIO().FontGlobalScale;
  const float width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const float height = 70.0f * scale;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##histogram", ImVec2(width, height));
  g_last_rect = {origin.x, origin.y, width, height};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(20, 20, 20, 255));
  const ValueRange axis = histogram.range;
  const float span = axis.hi - axis.lo;
  if (histogram.counts.empty() || !(span > 0.0f)) return false;
  auto x_of = [&](float v) { return origin.x + (v - axis.lo) / span * width; };
  auto value_at = [&](float x) { return axis.lo + std::clamp((x - origin.x) / width, 0.0f, 1.0f) * span; };

  // Square-root heights: the wall's peak would flatten every other surface on a linear axis.
  const uint64_t peak = *std::max_element(histogram.counts.begin(), histogram.counts.end());
  const float inverse = colorize_inverse_range(shown.lo, shown.hi);
  const size_t bins = histogram.counts.size();
  for (size_t i = 0; i < bins; ++i) {
    if (histogram.counts[i] == 0 || peak == 0) continue;
    const float v = axis.lo + (i + 0.5f) * span / bins;
    const float h = height * std::sqrt(static_cast<float>(histogram.counts[i]) / peak);
    const Rgb8 c = colormap_color(map, (v - shown.lo) * inverse);
    draw->AddRectFilled(ImVec2(origin.x + width * i / bins, origin.y + height - h),
                        ImVec2(origin.x + width * (i + 1) / bins, origin.y + height),
                        IM_COL32(c.r, c.g, c.b, 255));
  }
  // Outside the colour range the colours saturate: dim it, and mark the ends.
  const float lo_x = std::clamp(x_of(shown.lo), origin.x, origin.x + width);
  const float hi_x = std::clamp(x_of(shown.hi), origin.x, origin.x + width);
  draw->AddRectFilled(origin, ImVec2(lo_x, origin.y + height), IM_COL32(0, 0, 0, 150));
  draw->AddRectFilled(ImVec2(hi_x, origin.y), ImVec2(origin.x + width, origin.y + height),
                      IM_COL32(0, 0, 0, 150));
  draw->AddLine(ImVec2(lo_x, origin.y), ImVec2(lo_x, origin.y + height), IM_COL32(255, 255, 255, 255), 2.0f);
  draw->AddLine(ImVec2(hi_x, origin.y), ImVec2(hi_x, origin.y + height), IM_COL32(255, 255, 255, 255), 2.0f);

  bool changed = false;
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(0, 2.0f)) {
    const float x0 = io.MouseClickedPos[0].x, x1 = io.MousePos.x;
    draw->AddRectFilled(ImVec2(std::min(x0, x1), origin.y), ImVec2(std::max(x0, x1), origin.y + height),
                        IM_COL32(255, 255, 255, 60));
  }
  if (ImGui::IsItemDeactivated()) {
    const float a = value_at(io.MouseClickedPos[0].x), b = value_at(io.MousePos.x);
    if (std::fabs(b - a) >= span / bins) {
      edit.mode = ColorRangeMode::Fixed;
      edit.fixed_min = std::min(a, b);
      edit.fixed_max = std::max(a, b);
      changed = true;
    }
  }
  if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) {
    edit.mode = ColorRangeMode::Smoothed;
    changed = true;
  }
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
    ImGui::SetTooltip("%.2f px\ndrag: colour range over the span, double click: smoothed auto",
                      value_at(io.MousePos.x));
  }
  const uint64_t all = histogram.valid() + histogram.invalid;
  ImGui::Text("%.0f .. %.0f px, range %.2f .. %.2f, invalid %.1f %%", axis.lo, axis.hi, shown.lo,
              shown.hi, all ? 100.0 * histogram.invalid / all : 0.0);
  return changed;
}

}  // namespace sv
