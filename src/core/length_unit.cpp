#include "src/core/length_unit.h"

namespace sv {
namespace {

struct UnitNames {
  LengthUnit unit;
  const char* symbol;
  const char* plural;
  double metres;
};

constexpr UnitNames kUnits[] = {
    {LengthUnit::kMillimetre, "mm", "millimetres", 0.001},
    {LengthUnit::kCentimetre, "cm", "centimetres", 0.01},
    {LengthUnit::kMetre, "m", "metres", 1.0},
};

const UnitNames& names_of(LengthUnit unit) {
  for (const UnitNames& names : kUnits) {
    if (names.unit == unit) return names;
  }
  return kUnits[2];
}

}  // namespace

std::optional<LengthUnit> parse_length_unit(const std::string& symbol) {
  for (const UnitNames& names : kUnits) {
    if (symbol == names.symbol) return names.unit;
  }
  return std::nullopt;
}

const char* length_unit_symbol(LengthUnit unit) { return names_of(unit).symbol; }
const char* length_unit_plural(LengthUnit unit) { return names_of(unit).plural; }
double metres_per_unit(LengthUnit unit) { return names_of(unit).metres; }

}  // namespace sv
