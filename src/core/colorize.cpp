#include "src/core/colorize.h"

// The colormaps themselves are defined in colormap_math.h (shared with the CUDA kernel).
//
// colorize_disparity: t = (d - min) / (max - min) (a reversed range flips the map); when
// max == min every valid pixel gets t = 0; non-finite disparities get the invalid colour.

#include <cmath>

#include "src/core/colormap_math.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
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
  uint8_t rgb[3];
  colormap_math::color(static_cast<int>(map), t, rgb);
  return Rgb8{rgb[0], rgb[1], rgb[2]};
}

float colorize_inverse_range(float min_value, float max_value) {
  const float range = max_value - min_value;
  return (range != 0.0f && std::isfinite(range)) ? 1.0f / range : 0.0f;
}

ImageRgb8 colorize_disparity(const ImageF32& disparity, float min_value, float max_value,
                             Colormap map, Rgb8 invalid_color) {
  ImageRgb8 out(disparity.width(), disparity.height());
  const float inverse_range = colorize_inverse_range(min_value, max_value);
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
