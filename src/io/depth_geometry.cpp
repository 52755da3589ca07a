#include "src/io/depth_geometry.h"

#include <cstdio>

#include "src/io/stereo_rectifier.h"

namespace sv {
namespace {

bool plausible_baseline(double metres) {
  return metres >= kMinBaselineMetres && metres <= kMaxBaselineMetres;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// "millimetres (0.09206 m) or centimetres (0.9206 m)": the units that make `baseline` a rig's.
std::string fitting_units(double baseline) {
  std::string units;
  for (LengthUnit unit : {LengthUnit::kMillimetre, LengthUnit::kCentimetre, LengthUnit::kMetre}) {
    const double metres = baseline * metres_per_unit(unit);
    if (!plausible_baseline(metres)) continue;
    units += std::string(units.empty() ? "" : " or ") + length_unit_plural(unit) + " (" +
             number_text(metres) + " m)";
  }
  return units;
}

}  // namespace

DepthGeometry metric_depth_geometry(const Matrix4& rectified_q, const StereoCalibration& calibration,
                                    std::optional<LengthUnit> stated) {
  const std::optional<LengthUnit> known = stated ? stated : calibration.translation_unit;
  const LengthUnit unit = known.value_or(LengthUnit::kMetre);
  const double scale = metres_per_unit(unit);
  DepthGeometry depth;
  // W = (-d + offset) / Tx: Tx in metres divides the last row by the unit's metres.
  depth.Q = rectified_q;
  for (int c = 0; c < 4; ++c) depth.Q[12 + c] /= scale;
  StereoGeometry geometry = geometry_from_q(depth.Q);
  const double baseline_in_t = geometry.baseline / scale;
  if (!plausible_baseline(geometry.baseline)) {
    const std::string fits = fitting_units(baseline_in_t);
    const std::string read_as =
        known ? std::string("read in ") + length_unit_plural(unit) +
                    (stated ? " (--calib-unit)" : " (its translation_unit)")
              : std::string("which states no unit, read in metres");
    depth.warning = "calibration '" + calibration.path + "' (" + read_as + ") gives a baseline of " +
                    number_text(geometry.baseline) + " m, which no stereo rig has" +
                    (fits.empty() ? "" : ": is its T in " + fits + "?") +
                    " State the unit: --calib-unit mm|cm|m (Python: calib_unit=)";
    if (!known) {
      depth.warning += "; depth is not shown in metres until the unit is given";
      return depth;
    }
  }
  depth.geometry = geometry;
  return depth;
}

DepthGeometry rectified_depth_geometry(const StereoCalibration& calibration,
                                       std::optional<LengthUnit> stated, int width, int height,
                                       double alpha, bool views_swapped) {
  const StereoRectifier rectifier(calibration, width, height, alpha, views_swapped);
  return metric_depth_geometry(rectifier.Q(), calibration, stated);
}

DepthGeometry rectified_depth_geometry(const std::string& calibration_spec,
                                       std::optional<LengthUnit> stated, int width, int height,
                                       double alpha, bool views_swapped) {
  return rectified_depth_geometry(load_stereo_calibration(calibration_spec), stated, width, height,
                                  alpha, views_swapped);
}

}  // namespace sv
