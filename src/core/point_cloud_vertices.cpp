#include "src/core/point_cloud_vertices.h"

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
  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const uint8_t* rgb = has_left ? &left.at(x, y).r : nullptr;
      const float c = has_confidence ? confidence.at(x, y) : -1.0f;
      vertices[static_cast<size_t>(y) * width + x] =
          cloud_vertex(projection, style, x, y, disparity.at(x, y), rgb, c);
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
