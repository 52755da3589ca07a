#include "ui/colour_bar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/core/colorize.h"
#include "src/core/disparity.h"

namespace sv {
namespace {

ImU32 to_imgui(Rgb8 c) { return IM_COL32(c.r, c.g, c.b, 255); }

}  // namespace

std::vector<float> nice_ticks(float lo, float hi, int count) {
  std::vector<float> ticks;
  if (!(hi > lo) || count < 1) {
    ticks.push_back(lo);
    return ticks;
  }
  const double raw = (hi - lo) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-6 * step; v += step) {
    ticks.push_back(static_cast<float>(std::abs(v) < 1e-9 ? 0.0 : v));
  }
  return ticks;
}

float colour_bar_width(const DepthCalibration& calibration) {
  return ImGui::CalcTextSize(calibration.known() ? "0000 px  000.00 m" : "0000 px").x + 30.0f;
}

float confidence_bar_width() { return ImGui::CalcTextSize("confidence").x + 8.0f; }

Rect colour_bar_stripes(const Rect& area, float line_height) {
  constexpr float kBarWidth = 14.0f;
  const float top = area.y + 1.5f * line_height;
  const float bottom = area.y + area.h - 3.0f * line_height;  // room for the invalid swatch
  return {area.x + 4.0f, top, kBarWidth, std::max(0.0f, bottom - top)};
}

namespace {

constexpr ImU32 kLabelColour = IM_COL32(230, 230, 230, 255);

// The stripes of `bar` over the colormap (at most 2 px each, the colour of its centre value,
// the top the high end), its frame and its title above it; false when there is no room.
bool draw_bar(ImDrawList* draw, const Rect& area, const Rect& bar, Colormap map, const char* title) {
  const float line = ImGui::GetTextLineHeight();
  if (bar.h < 2.0f * line) return false;
  const int stripes = std::max(1, static_cast<int>(bar.h / 2.0f));
  for (int i = 0; i < stripes; ++i) {
    const float y0 = bar.y + bar.h * i / stripes;
    const float y1 = bar.y + bar.h * (i + 1) / stripes;
    const float t = 1.0f - (i + 0.5f) / stripes;
    draw->AddRectFilled(ImVec2(bar.x, y0), ImVec2(bar.x + bar.w, y1 + 0.5f),
                        to_imgui(colormap_color(map, t)));
  }
  draw->AddRect(ImVec2(bar.x - 1.0f, bar.y - 1.0f), ImVec2(bar.x + bar.w + 1.0f, bar.y + bar.h + 1.0f),
                IM_COL32(200, 200, 200, 255));
  draw->AddText(ImVec2(area.x + 2.0f, area.y + 0.2f * line), kLabelColour, title);
  return true;
}

// A tick at `t` (0 = bottom, 1 = top) with its label right of the bar.
void draw_tick(ImDrawList* draw, const Rect& bar, float t, const char* label) {
  const float line = ImGui::GetTextLineHeight();
  const float y = bar.y + bar.h - t * bar.h;
  draw->AddLine(ImVec2(bar.x + bar.w, y), ImVec2(bar.x + bar.w + 5.0f, y), kLabelColour);
  draw->AddText(ImVec2(bar.x + bar.w + 8.0f, y - 0.5f * line), kLabelColour, label);
}

}  // namespace

void draw_colour_bar(ImDrawList* draw, const Rect& area, Colormap map, DisparityRange range,
                     const DepthCalibration& calibration) {
  const float line = ImGui::GetTextLineHeight();
  const Rect bar = colour_bar_stripes(area, line);
  if (!draw_bar(draw, area, bar, map, "disparity")) return;
  const int wanted = std::max(2, static_cast<int>(bar.h / (2.5f * line)));
  for (float value : nice_ticks(range.lo, range.hi, wanted)) {
    const float t = range.hi > range.lo ? (value - range.lo) / (range.hi - range.lo) : 0.0f;
    char label[64];
    if (calibration.known() && value > 0.0f) {
      std::snprintf(label, sizeof label, "%g px  %.2f m", value, calibration.depth_m(value));
    } else {
      std::snprintf(label, sizeof label, "%g px", value);
    }
    draw_tick(draw, bar, t, label);
  }
  const float swatch_y = bar.y + bar.h + 1.2f * line;
  draw->AddRectFilled(ImVec2(bar.x, swatch_y), ImVec2(bar.x + bar.w, swatch_y + line),
                      to_imgui(kInvalidColor));
  draw->AddText(ImVec2(bar.x + bar.w + 8.0f, swatch_y), kLabelColour, "invalid");
}

void draw_confidence_bar(ImDrawList* draw, const Rect& area) {
  const float line = ImGui::GetTextLineHeight();
  const Rect bar = colour_bar_stripes(area, line);
  if (!draw_bar(draw, area, bar, Colormap::Inferno, "confidence")) return;
  const int wanted = std::max(2, static_cast<int>(bar.h / (2.5f * line)));
  for (float value : nice_ticks(0.0f, 1.0f, std::min(wanted, 10))) {
    char label[16];
    std::snprintf(label, sizeof label, "%g", value);
    draw_tick(draw, bar, value, label);
  }
}

}  // namespace sv
