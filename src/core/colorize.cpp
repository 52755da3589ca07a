#include "src/core/colorize.h"

// Colormap definitions (t is clamped to [0, 1] first; NaN counts as 0):
//   gray:    every channel = round(255 t).
//   jet:     r = clamp(1.5 - |4t - 3|), g = clamp(1.5 - |4t - 2|), b = clamp(1.5 - |4t - 1|),
//            i.e. dark blue -> blue -> cyan -> yellow -> red -> dark red.
//   turbo:   piecewise-linear through 17 key colours taken every 1/16 along Google's Turbo
//            (dark purple-blue -> blue -> cyan -> green -> yellow -> orange -> dark red); an
//            approximation within a few levels of the published map, good enough for display.
//   inferno: piecewise-linear through 11 key colours every 1/10 along matplotlib's inferno
//            (black -> purple -> red -> orange -> pale yellow).
// Each channel is a float in [0, 1] converted to 8 bits as floor(255 v + 0.5).
//
// colorize_disparity: t = (d - min) / (max - min) (a reversed range flips the map); when
// max == min every valid pixel gets t = 0; non-finite disparities get the invalid colour.

#include <cmath>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

struct KeyColor {
  unsigned char r, g, b;
};

// Turbo sampled at t = i / 16.
constexpr KeyColor kTurboKeys[] = {
    {48, 18, 59},   {66, 64, 155},  {70, 107, 227}, {61, 149, 253}, {40, 188, 235}, {24, 220, 196},
    {50, 242, 152}, {110, 254, 98}, {164, 252, 60}, {205, 235, 53}, {237, 208, 58}, {254, 170, 50},
    {251, 128, 34}, {234, 86, 14},  {208, 52, 5},   {168, 22, 2},   {122, 4, 3},
};

// Inferno sampled at t = i / 10.
constexpr KeyColor kInfernoKeys[] = {
    {0, 0, 4},     {22, 11, 57},   {66, 10, 104},  {106, 23, 110}, {147, 38, 103},  {188, 55, 84},
    {221, 81, 58}, {243, 120, 25}, {252, 165, 10}, {246, 215, 70}, {252, 255, 164},
};

uint8_t to_byte(float v) {
  v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  return static_cast<uint8_t>(std::floor(v * 255.0f + 0.5f));
}

template <size_t N>
Rgb8 interpolate_keys(const KeyColor (&keys)[N], float t) {
  const float position = t * static_cast<float>(N - 1);
  int index = static_cast<int>(position);
  if (index >= static_cast<int>(N) - 1) index = static_cast<int>(N) - 2;
  const float w = position - static_cast<float>(index);
  const KeyColor& a = keys[index];
  const KeyColor& b = keys[index + 1];
  const auto mix = [w](unsigned char lo, unsigned char hi) {
    return to_byte((static_cast<float>(lo) + w * (static_cast<float>(hi) - lo)) / 255.0f);
  };
  return Rgb8{mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

Rgb8 jet_color(float t) {
  const auto ramp = [t](float centre) { return to_byte(1.5f - std::fabs(4.0f * t - centre)); };
  return Rgb8{ramp(3.0f), ramp(2.0f), ramp(1.0f)};
}

}  // namespace

Colormap parse_colormap(const std::string& name) {
  if (name == "turbo") return Colormap::Turbo;
  if (name == "jet") return Colormap::Jet;
  if (name == "inferno") return Colormap::Inferno;
  if (name == "gray") return Colormap::Gray;
  throw InputError("unknown colormap '" + name + "' (expected turbo, jet, inferno or gray)");
}

const char* colormap_name(Colormap map) {
  switch (map) {
    case Colormap::Turbo:
      return "turbo";
    case Colormap::Jet:
      return "jet";
    case Colormap::Inferno:
      return "inferno";
    case Colormap::Gray:
      return "gray";
  }
  return "unknown";
}

Rgb8 colormap_color(Colormap map, float t) {
  t = std::isnan(t) ? 0.0f : clamp01(t);
  switch (map) {
    case Colormap::Turbo:
      return interpolate_keys(kTurboKeys, t);
    case Colormap::Jet:
      return jet_color(t);
    case Colormap::Inferno:
      return interpolate_keys(kInfernoKeys, t);
    case Colormap::Gray: {
      const uint8_t v = to_byte(t);
      return Rgb8{v, v, v};
    }
  }
  return Rgb8{};
}

ImageRgb8 colorize_disparity(const ImageF32& disparity, float min_value, float max_value,
                             Colormap map, Rgb8 invalid_color) {
  ImageRgb8 out(disparity.width(), disparity.height());
  const float range = max_value - min_value;
  const float inverse_range = (range != 0.0f && std::isfinite(range)) ? 1.0f / range : 0.0f;
  parallel_for(0, disparity.height(), [&](int y) {
    const float* in = disparity.row(y);
    Rgb8* row = out.row(y);
    for (int x = 0; x < disparity.width(); ++x) {
      row[x] = is_valid_disparity(in[x]) ? colormap_color(map, (in[x] - min_value) * inverse_range)
                                         : invalid_color;
    }
  });
  return out;
}

}  // namespace sv
