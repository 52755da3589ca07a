#pragma once

#include <string>

#include "src/core/image.h"

namespace sv {

enum class Colormap { Turbo, Jet, Inferno, Gray };  // order = colormap_math::Map

// Parses "turbo", "jet", "inferno", "gray"; throws InputError otherwise.
Colormap parse_colormap(const std::string& name);
const char* colormap_name(Colormap map);

// Colour of t in [0, 1] (clamped) under `map`.
Rgb8 colormap_color(Colormap map, float t);

// 1 / (max - min), or 0 when the range is empty or not finite: the scale colorize_disparity
// applies to (d - min_value), shared with the CUDA colorize kernel.
float colorize_inverse_range(float min_value, float max_value);

// Maps [min_value, max_value] onto the colormap; invalid disparities (disparity.h) get
// `invalid_color`. min_value == max_value maps everything valid to the low end.
ImageRgb8 colorize_disparity(const ImageF32& disparity, float min_value, float max_value,
                             Colormap map = Colormap::Turbo, Rgb8 invalid_color = Rgb8{0, 0, 0});

}  // namespace sv
