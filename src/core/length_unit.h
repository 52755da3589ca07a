#pragma once

#include <optional>
#include <string>

namespace sv {

// The unit a calibration's translation (T, and so its baseline) is written in. Depth is shown
// and written in metres, so the unit must be known: calibration files rarely say it
// (OpenCV's stereo_calib measures in board squares, many rigs in millimetres).
enum class LengthUnit { kMillimetre, kCentimetre, kMetre };

// "mm", "cm" or "m"; nullopt for anything else.
std::optional<LengthUnit> parse_length_unit(const std::string& symbol);
// "mm", "cm", "m".
const char* length_unit_symbol(LengthUnit unit);
// "millimetres", "centimetres", "metres".
const char* length_unit_plural(LengthUnit unit);
double metres_per_unit(LengthUnit unit);

}  // namespace sv
