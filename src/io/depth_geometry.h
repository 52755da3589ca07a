#pragma once

#include <optional>
#include <string>

#include "src/core/length_unit.h"
#include "src/io/stereo_calibration.h"

namespace sv {

// What depth is computed with, from a calibration: the geometry of the views the engine
// matches (the rectified cameras, whose focal length is P's, not K's) with the baseline in
// metres, so that every depth shown or written (the viewer's colour bar and 3D view, PLY
// clouds, a recording's sidecar, Python's reproject) is the same and in metres.
struct DepthGeometry {
  // nullopt when the unit of T is unknown and metres would give a baseline no rig has.
  std::optional<StereoGeometry> geometry;
  Matrix4 Q{};          // the rectified views' Q, giving metres
  std::string warning;  // a baseline no stereo rig has, with the unit that would fit; or empty
};

// Baselines of real stereo rigs: a millimetre (microscopes) to ten metres (survey rigs).
constexpr double kMinBaselineMetres = 0.001;
constexpr double kMaxBaselineMetres = 10.0;

// The geometry of `rectified_q` (the rectified views' Q, in the units of T) in metres. The unit is
// `stated` (--calib-unit) if given, else the calibration's own translation_unit, else metres;
// a baseline outside kMinBaselineMetres..kMaxBaselineMetres gets a warning naming the units that
// would fit, and when no unit was stated or written the geometry is withheld (never millimetres
// labelled as metres).
DepthGeometry metric_depth_geometry(const Matrix4& rectified_q, const StereoCalibration& calibration,
                                    std::optional<LengthUnit> stated);

// The depth geometry of `calibration` for width x height views rectified as RectifiedSource
// rectifies them (StereoRectifier with `alpha` and `views_swapped`).
DepthGeometry rectified_depth_geometry(const StereoCalibration& calibration,
                                       std::optional<LengthUnit> stated, int width, int height,
                                       double alpha, bool views_swapped);
// The same for the calibration `calibration_spec` names (load_stereo_calibration).
DepthGeometry rectified_depth_geometry(const std::string& calibration_spec,
                                       std::optional<LengthUnit> stated, int width, int height,
                                       double alpha, bool views_swapped);

}  // namespace sv
