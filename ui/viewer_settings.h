#pragma once

#include <array>
#include <string>

#include "src/core/colorize.h"
#include "src/core/image.h"
#include "src/core/point_cloud_math.h"
#include "src/core/region_statistics.h"
#include "ui/orbit_camera.h"

namespace sv {

// What a view cell shows; names as --view and param scripts spell them (script_view_names()).
// disparity-b and difference show the A/B comparison's second side and |A - B| (ab_comparison.h);
// Cloud: the 3D view, the disparity as a point cloud (--view 3d).
enum class ViewKind {
  Left = 0, Right = 1, Disparity = 2, Blend = 3, Confidence = 4, DisparityB = 5, Difference = 6,
  Cloud = 7
};

ViewKind parse_view_kind(const std::string& name);  // throws InputError
const char* view_kind_name(ViewKind kind);
bool shows_disparity(ViewKind kind);

// How disparities map onto the colormap: the engine's search range (stable while tuning),
// the frame's own valid minimum and maximum, a fixed range the user typed or dragged on the
// histogram, or the frame's 1st..99th percentile smoothed over time (colour_range_tracker.h).
enum class ColorRangeMode { SearchRange, Auto, Fixed, Smoothed };

struct ColorRange {
  ColorRangeMode mode = ColorRangeMode::SearchRange;
  float fixed_min = 0.0f;
  float fixed_max = 64.0f;
};

// Depth Z = focal_px * baseline_m / disparity, when both are known (> 0).
struct DepthCalibration {
  double focal_px = 0.0;
  double baseline_m = 0.0;
  bool known() const { return focal_px > 0.0 && baseline_m > 0.0; }
  double depth_m(float disparity) const {
    return disparity > 0.0f ? focal_px * baseline_m / disparity : 0.0;
  }
};

// Invalid disparities are drawn in magenta: no colormap here has it, so a hole never reads as
// a near or far surface.
constexpr Rgb8 kInvalidColor{255, 0, 255};

// The 3D view's look (its camera is the app's OrbitCamera).
struct CloudSettings {
  CloudColour colour = CloudColour::Image;
  float point_size = 2.0f;       // pixels
  float min_confidence = 0.0f;   // points of a lower confidence are hidden
  bool grid = true;              // a ground grid under the scene
  bool axes = true;              // the camera's x (red), up (green) and z (blue) axes
  bool frustum = true;           // the stereo camera's field of view
  CloudViewPreset preset = CloudViewPreset::Camera;  // the view it starts in (--cloud-view)
};

CloudColour parse_cloud_colour(const std::string& name);  // throws InputError
const char* cloud_colour_name(CloudColour colour);

// Everything about how the viewer draws, changed by the panel, the keyboard and param scripts.
struct ViewerSettings {
  int layout = 2;  // 1, 2 or 4 view cells
  // Cell i shows views[i]; layout 1 uses views[0], layout 2 views[0..1].
  std::array<ViewKind, 4> views = {ViewKind::Disparity, ViewKind::Left, ViewKind::Right,
                                   ViewKind::Blend};
  Colormap colormap = Colormap::Turbo;
  ColorRange range;
  float blend_alpha = 0.5f;  // share of the disparity colour in the blended view
  DepthCalibration calibration;
  bool show_panel = true;
  bool show_timings = true;  // the Timings window (T), docked under the views unless moved away
  // Horizontal lines at the same rows across the left, right and blended views: on a rectified
  // pair a point lies on the same line in both views.
  bool epipolar_lines = false;
  // The rectangle of the region statistics, in image pixels (a right-button drag on a view,
  // --region); empty = none.
  RegionRect region;
  CloudSettings cloud;
};

}  // namespace sv
