#include "ui/cost_curve.h"

#include <cmath>
#include <cstdio>

namespace sv {
namespace {

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char text[160];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

// A cost as the curves hold it: integers without decimals, "none" for no real candidate.
std::string cost_text(double cost) {
  if (!std::isfinite(cost)) return "none";
  if (cost == std::floor(cost)) return format("%.0f", cost);
  return format("%.4g", cost);
}

}  // namespace

void CostCurveTarget::hover(std::optional<ProbePixel> pixel) {
  if (pixel) hovered_ = pixel;
}

void CostCurveTarget::pin(ProbePixel pixel) { pinned_ = pixel; }

std::optional<ProbePixel> CostCurveTarget::wanted() const {
  if (!open_) return std::nullopt;
  return pinned_ ? pinned_ : hovered_;
}

std::vector<std::string> cost_curve_lines(const PixelCosts& c) {
  std::vector<std::string> lines;
  const int count = static_cast<int>(c.matching.size());
  lines.push_back("pixel (" + std::to_string(c.pixel.x) + ", " + std::to_string(c.pixel.y) +
                  "), disparities " + std::to_string(c.base) + ".." +
                  std::to_string(c.base + count - 1));
  const PixelSelection& s = c.selection;
  if (s.best < 0) {
    lines.push_back("no candidate");
  } else {
    const double chosen = c.base + s.best + s.fit.offset / static_cast<double>(kDisparityScale);
    std::string line = "best d " + std::to_string(c.base + s.best) + " cost " + cost_text(s.best_cost);
    if (is_valid_fixed_disparity(s.disparity)) line += format(" -> %.4g px", chosen);
    lines.push_back(line);
    if (s.fit.fitted) {
      lines.push_back("subpixel: parabola through " + cost_text(s.fit.before) + ", " +
                      cost_text(s.fit.at) + ", " + cost_text(s.fit.after) +
                      format(": vertex %+.3f px, offset %+.0f/16", s.fit.vertex, s.fit.offset));
    } else if (is_valid_fixed_disparity(s.disparity)) {
      lines.push_back("subpixel: no fit (off, or the winner at the range's end)");
    }
    if (s.second >= 0) {
      std::string rival = "second d " + std::to_string(c.base + s.second) + " cost " +
                          cost_text(s.second_cost) + format(", ratio %.3f", s.uniqueness_ratio);
      if (c.uniqueness > 0) rival += format(" (limit %.2f)", (100 - c.uniqueness) / 100.0);
      lines.push_back(rival);
    }
  }
  if (s.reason != InvalidReason::None) {
    lines.push_back(std::string("selection rejected it: ") + invalid_reason_name(s.reason));
  }
  if (is_valid_fixed_disparity(c.final_disparity)) {
    std::string line = format("result %.4g px", fixed_to_float_disparity(c.final_disparity));
    if (!is_valid_fixed_disparity(s.disparity)) line += " (filled in after the rejection)";
    lines.push_back(line);
  } else {
    lines.push_back(std::string("result invalid: ") + invalid_reason_name(c.reason));
  }
  return lines;
}

std::string cost_curve_unavailable_text(const CostCurveTarget& target,
                                        const std::optional<PixelCosts>& costs) {
  if (!target.wanted()) return "no pixel yet: point at a view (a click pins the pixel)";
  if (!costs) return "no curve: the engine returned none for this frame";
  if (!costs->available()) return "no curve: " + costs->unavailable;
  return "";
}

}  // namespace sv
