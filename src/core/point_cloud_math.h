#pragma once

// The 3D view's point cloud, one vertex per disparity pixel, as plain arithmetic shared by the
// host vertex builder (point_cloud_vertices.cpp) and the CUDA vertex kernel
// (cuda/point_cloud_vertices.cu), so both write the same bytes. Definitions:
//   position: [X Y Z W] = Q [x y d 1] with Q of stereoRectify's form (row-major), the point is
//             (X/W, Y/W, Z/W) in the rectified left camera's frame (x right, y down, z forward),
//             x, y the pixel's column and row. Units: those of the baseline (metres) for a
//             metric Q; pixels for pixel_projection (no geometry known).
//   visible:  the disparity is valid (finite), W > 0 and Z/W > 0 (in front of the camera),
//             and the confidence, when there is one, is at least min_confidence.
//   colour:   Image: the left view's pixel. Depth: the colormap at
//             t = (depth_far - Z) / (depth_far - depth_near), near warm as in the disparity view.
//             Confidence: inferno at the confidence (0..1), dark grey without one.
//   A hidden vertex is all zero (alpha 0), so the renderer drops it and a buffer compares whole.
// The CUDA file that includes this compiles with -fmad=false, so positions round as here.

#include <cstdint>

#include "src/core/colormap_math.h"
#include "src/core/host_device.h"

namespace sv {

// 16 bytes: three floats and RGBA8, the layout of the GL vertex buffer.
struct CloudVertex {
  float x, y, z;
  uint8_t r, g, b, a;  // a: 255 shown, 0 hidden
};
static_assert(sizeof(CloudVertex) == 16, "the GL vertex layout");

enum class CloudColour : int { Image = 0, Depth = 1, Confidence = 2 };

// Q, row-major: [X Y Z W] = Q [x y d 1]. `metric`: the units are the baseline's.
struct CloudProjection {
  float q[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  bool metric = false;
};

// Q of a rectified pair: focal length and principal point of the left camera in pixels, the
// baseline in metres, the principal points' difference cx1 - cx2 (0 after ZERO_DISPARITY).
// Z = focal * baseline / (d - disparity_offset), X = (x - cx) Z / focal, Y = (y - cy) Z / focal.
CloudProjection metric_projection(double focal_px, double baseline_m, double principal_x,
                                  double principal_y, double disparity_offset_px);

// Without geometry: the disparity space itself, in pixels: X = x - cx, Y = y - cy and
// Z = num_disparities - d (nearer is smaller, as depth), about the image centre.
CloudProjection pixel_projection(int width, int height, int num_disparities);

struct CloudStyle {
  CloudColour colour = CloudColour::Image;
  int colormap = colormap_math::kTurbo;  // for Depth
  float depth_near = 0.0f;               // Z at the warm end of the colormap
  float depth_far = 1.0f;                // Z at the cold end
  float min_confidence = 0.0f;           // points below it are hidden; 0 hides none
};

// The vertex of pixel (x, y) with disparity d (px; +inf or NaN invalid), its left-view colour
// `rgb` (may be null when the style does not colour by image) and its confidence (negative:
// the result has none).
SV_HOST_DEVICE inline CloudVertex cloud_vertex(const CloudProjection& p, const CloudStyle& s,
                                               int x, int y, float d, const uint8_t* rgb,
                                               float confidence) {
  CloudVertex v{0.0f, 0.0f, 0.0f, 0, 0, 0, 0};
  // Finite: not NaN, not +-inf (the CPU's invalid mark).
  if (!(d - d == 0.0f)) return v;
  if (confidence >= 0.0f && confidence < s.min_confidence) return v;
  const float px = static_cast<float>(x), py = static_cast<float>(y);
  const float* q = p.q;
  const float w = q[12] * px + q[13] * py + q[14] * d + q[15];
  if (!(w > 0.0f)) return v;
  const float z = (q[8] * px + q[9] * py + q[10] * d + q[11]) / w;
  if (!(z > 0.0f)) return v;
  v.x = (q[0] * px + q[1] * py + q[2] * d + q[3]) / w;
  v.y = (q[4] * px + q[5] * py + q[6] * d + q[7]) / w;
  v.z = z;
  uint8_t c[3] = {64, 64, 64};
  if (s.colour == CloudColour::Image) {
    if (rgb) {
      c[0] = rgb[0];
      c[1] = rgb[1];
      c[2] = rgb[2];
    }
  } else if (s.colour == CloudColour::Depth) {
    const float span = s.depth_far - s.depth_near;
    colormap_math::color(s.colormap, span != 0.0f ? (s.depth_far - z) / span : 0.0f, c);
  } else if (confidence >= 0.0f) {
    colormap_math::color(colormap_math::kInferno, confidence, c);
  }
  v.r = c[0];
  v.g = c[1];
  v.b = c[2];
  v.a = 255;
  return v;
}

}  // namespace sv
