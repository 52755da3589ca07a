#include "ui/cloud_guides.h"

#include <algorithm>
#include <cmath>

namespace sv {
namespace {

void segment(std::vector<CloudVertex>& out, Vec3 a, Vec3 b, uint8_t r, uint8_t g, uint8_t bl) {
  out.push_back(CloudVertex{a.x, a.y, a.z, r, g, bl, 255});
  out.push_back(CloudVertex{b.x, b.y, b.z, r, g, bl, 255});
}

}  // namespace

CloudScene cloud_scene_for(const CloudProjection& projection, int width, int height, float d_lo,
                           float d_hi) {
  const DepthSpan span = depth_span(projection, d_lo, d_hi);
  CloudScene scene;
  scene.near_z = span.near_z;
  scene.far_z = span.far_z;
  // Q's Z row is (0 0 0 f) for a metric pair: f is the focal length in pixels.
  const float focal = projection.metric && projection.q[11] > 0.0f
                          ? projection.q[11]
                          : 0.5f * (span.near_z + span.far_z);
  scene.fov_x = 2.0f * std::atan(0.5f * static_cast<float>(width) / focal);
  scene.fov_y = 2.0f * std::atan(0.5f * static_cast<float>(height) / focal);
  scene.pinhole = projection.metric;
  return scene;
}

float grid_step(float far_z) {
  if (!(far_z > 0.0f)) return 1.0f;
  float step = std::pow(10.0f, std::floor(std::log10(far_z / 10.0f)));
  for (const float factor : {1.0f, 2.0f, 5.0f, 10.0f}) {
    if (far_z / (step * factor) <= 25.0f) return step * factor;
  }
  return step * 10.0f;
}

std::vector<CloudVertex> cloud_guides(const CloudScene& scene, const CloudGuideOptions& options) {
  std::vector<CloudVertex> lines;
  const float far_z = scene.far_z;
  const float tan_x = std::tan(0.5f * scene.fov_x), tan_y = std::tan(0.5f * scene.fov_y);
  if (options.grid) {
    const float step = grid_step(far_z);
    const float floor_y = far_z * tan_y;
    const int half_columns = static_cast<int>(std::ceil(far_z * tan_x / step));
    const int rows = static_cast<int>(std::ceil(far_z / step));
    const float x_end = static_cast<float>(half_columns) * step;
    const float z_end = static_cast<float>(rows) * step;
    for (int i = -half_columns; i <= half_columns; ++i) {
      const float x = static_cast<float>(i) * step;
      segment(lines, {x, floor_y, 0.0f}, {x, floor_y, z_end}, 90, 90, 90);
    }
    for (int j = 0; j <= rows; ++j) {
      const float z = static_cast<float>(j) * step;
      segment(lines, {-x_end, floor_y, z}, {x_end, floor_y, z}, 90, 90, 90);
    }
  }
  if (options.axes) {
    const float length = 0.1f * far_z;
    segment(lines, {0, 0, 0}, {length, 0, 0}, 230, 60, 60);
    segment(lines, {0, 0, 0}, {0, -length, 0}, 60, 220, 60);  // up is -y in the camera's frame
    segment(lines, {0, 0, 0}, {0, 0, length}, 70, 110, 255);
  }
  if (options.frustum) {
    const float z = scene.near_z;
    const Vec3 corners[4] = {{-z * tan_x, -z * tan_y, z},
                             {z * tan_x, -z * tan_y, z},
                             {z * tan_x, z * tan_y, z},
                             {-z * tan_x, z * tan_y, z}};
    for (int i = 0; i < 4; ++i) {
      segment(lines, {0, 0, 0}, corners[i], 240, 220, 80);
      segment(lines, corners[i], corners[(i + 1) % 4], 240, 220, 80);
    }
  }
  return lines;
}

}  // namespace sv
