#include "src/core/point_cloud_vertices.h"

#include <cmath>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

CloudProjection metric_projection(double focal_px, double baseline_m, double principal_x,
                                  double principal_y, double disparity_offset_px) {
  // stereoRectify's Q with Tx = -baseline: W = (d - offset) / B, Z = f, so Z/W = f B / (d - offset).
  CloudProjection p;
  const float q[16] = {1, 0, 0, static_cast<float>(-principal_x),
                       0, 1, 0, static_cast<float>(-principal_y),
                       0, 0, 0, static_cast<float>(focal_px),
                       0, 0, static_cast<float>(1.0 / baseline_m),
                       static_cast<float>(-disparity_offset_px / baseline_m)};
  for (int i = 0; i < 16; ++i) p.q[i] = q[i];
  p.metric = true;
  return p;
}

CloudProjection pixel_projection(int width, int height, int num_disparities) {
  CloudProjection p;
  const float q[16] = {1, 0, 0,  -0.5f * static_cast<float>(width - 1),
                       0, 1, 0,  -0.5f * static_cast<float>(height - 1),
                       0, 0, -1, static_cast<float>(num_disparities),
                       0, 0, 0,  1};
  for (int i = 0; i < 16; ++i) p.q[i] = q[i];
  p.metric = false;
  return p;
}

namespace {

// Colour by depth through the colormap costs ten times the rest of a vertex. For a rectified
// pair's Q (no x or y in Z and W) the colour depends on the disparity alone, and an engine's
// disparities lie on the 1/16 px grid: each grid value is coloured once, by cloud_vertex itself,
// so the bytes stay those of cloud_vertex at every pixel.
constexpr int kGridOffset = 32768;  // int16 range of 1/16 px values

bool colour_depends_on_disparity_only(const CloudProjection& p, const CloudStyle& s) {
  return s.colour == CloudColour::Depth && p.q[8] == 0.0f && p.q[9] == 0.0f && p.q[12] == 0.0f &&
         p.q[13] == 0.0f;
}

// The grid index of d, or -1 off the grid (NaN, infinite, between steps, out of range).
int grid_index(float d) {
  const float scaled = d * 16.0f;
  if (!(scaled >= -32768.0f && scaled <= 32767.0f) || scaled != std::floor(scaled)) return -1;
  return static_cast<int>(scaled) + kGridOffset;
}

}  // namespace

void build_cloud_vertices(const ImageF32& disparity, const ImageRgb8& left,
                          const ImageF32& confidence, const CloudProjection& projection,
                          const CloudStyle& style, std::vector<CloudVertex>& vertices) {
  const int width = disparity.width(), height = disparity.height();
  auto check = [&](bool same, const char* what) {
    if (!same) {
      throw InputError(std::string("point cloud: the ") + what + " is not " +
                       std::to_string(width) + "x" + std::to_string(height) +
                       " like the disparity");
    }
  };
  check(left.empty() || left.same_size(disparity), "left view");
  check(confidence.empty() || confidence.same_size(disparity), "confidence");
  vertices.resize(disparity.size());
  const bool has_left = !left.empty(), has_confidence = !confidence.empty();
  // The colours of the grid values present, as cloud_vertex gives them at pixel (0, 0).
  std::vector<Rgb8> grid_colours;
  std::vector<uint8_t> on_grid;
  if (colour_depends_on_disparity_only(projection, style)) {
    on_grid.assign(65536, 0);
    for (const float d : disparity.pixels()) {
      const int i = grid_index(d);
      if (i >= 0) on_grid[static_cast<size_t>(i)] = 1;
    }
    grid_colours.resize(65536);
    for (int i = 0; i < 65536; ++i) {
      if (!on_grid[static_cast<size_t>(i)]) continue;
      const float d = static_cast<float>(i - kGridOffset) / 16.0f;
      const CloudVertex v = cloud_vertex(projection, style, 0, 0, d, nullptr, -1.0f);
      grid_colours[static_cast<size_t>(i)] = Rgb8{v.r, v.g, v.b};
    }
  }
  CloudStyle by_grid_colour = style;
  by_grid_colour.colour = CloudColour::Image;
  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const float d = disparity.at(x, y);
      const float c = has_confidence ? confidence.at(x, y) : -1.0f;
      const int i = grid_colours.empty() ? -1 : grid_index(d);
      CloudVertex& v = vertices[static_cast<size_t>(y) * width + x];
      if (i >= 0) {
        v = cloud_vertex(projection, by_grid_colour, x, y, d, &grid_colours[static_cast<size_t>(i)].r, c);
      } else {
        v = cloud_vertex(projection, style, x, y, d, has_left ? &left.at(x, y).r : nullptr, c);
      }
    }
  });
}

DepthSpan depth_span(const CloudProjection& projection, float d_lo, float d_hi) {
  // Z and W of a rectified pair's Q do not depend on the pixel, so one disparity has one depth.
  auto depth = [&](float d) {
    const float* q = projection.q;
    const float w = q[14] * d + q[15];
    return w > 0.0f ? (q[10] * d + q[11]) / w : 0.0f;
  };
  DepthSpan span;
  const float near_z = depth(d_hi), far_z = depth(d_lo);
  if (near_z > 0.0f && far_z > near_z) {
    span.near_z = near_z;
    span.far_z = far_z;
  } else if (near_z > 0.0f) {
    // The far end at d_lo <= offset is infinitely far: colour over ten times the near depth.
    span.near_z = near_z;
    span.far_z = 10.0f * near_z;
  }
  return span;
}

}  // namespace sv
