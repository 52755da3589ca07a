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

DisparityRange display_range(const ColorRange& range, const StereoParams& params,
                             const ImageF32& disparity) {
  const DisparityRange search{static_cast<float>(params.min_disparity),
                              static_cast<float>(params.min_disparity + params.num_disparities - 1)};
  if (range.mode == ColorRangeMode::Fixed) return {range.fixed_min, range.fixed_max};
  if (range.mode == ColorRangeMode::SearchRange) return search;
  bool any = false;
  DisparityRange found{0.0f, 0.0f};
  for (float d : disparity.pixels()) {
    if (!is_valid_disparity(d)) continue;
    found.lo = any ? std::min(found.lo, d) : d;
    found.hi = any ? std::max(found.hi, d) : d;
    any = true;
  }
  return any ? found : search;
}

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

void draw_colour_bar(ImDrawList* draw, const Rect& area, Colormap map, DisparityRange range,
                     const DepthCalibration& calibration) {
  const float line = ImGui::GetTextLineHeight();
  const float bar_w = 14.0f;
  const float x0 = area.x + 4.0f;
  const float top = area.y + line;
  const float bottom = area.y + area.h - 3.0f * line;  // room below for the invalid swatch
  if (bottom - top < 2.0f * line) return;
  // The bar in horizontal stripes of at most 2 px, each the colour of its centre value.
  const int stripes = std::max(1, static_cast<int>((bottom - top) / 2.0f));
  for (int i = 0; i < stripes; ++i) {
    const float y0 = top + (bottom - top) * i / stripes;
    const float y1 = top + (bottom - top) * (i + 1) / stripes;
    const float t = 1.0f - (i + 0.5f) / stripes;  // top = high disparity
    draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + bar_w, y1 + 0.5f),
                        to_imgui(colormap_color(map, t)));
  }
  draw->AddRect(ImVec2(x0, top), ImVec2(x0 + bar_w, bottom), IM_COL32(200, 200, 200, 255));
  const ImU32 text = IM_COL32(230, 230, 230, 255);
  const int wanted = std::max(2, static_cast<int>((bottom - top) / (2.5f * line)));
  for (float value : nice_ticks(range.lo, range.hi, wanted)) {
    const float t = range.hi > range.lo ? (value - range.lo) / (range.hi - range.lo) : 0.0f;
    const float y = bottom - t * (bottom - top);
    draw->AddLine(ImVec2(x0 + bar_w, y), ImVec2(x0 + bar_w + 5.0f, y), text);
    char label[64];
    if (calibration.known() && value > 0.0f) {
      std::snprintf(label, sizeof label, "%g px  %.2f m", value, calibration.depth_m(value));
    } else {
      std::snprintf(label, sizeof label, "%g px", value);
    }
    draw->AddText(ImVec2(x0 + bar_w + 8.0f, y - 0.5f * line), text, label);
  }
  const float swatch_y = bottom + 1.2f * line;
  draw->AddRectFilled(ImVec2(x0, swatch_y), ImVec2(x0 + bar_w, swatch_y + line),
                      to_imgui(kInvalidColor));
  draw->AddText(ImVec2(x0 + bar_w + 8.0f, swatch_y), text, "invalid");
}

}  // namespace sv
