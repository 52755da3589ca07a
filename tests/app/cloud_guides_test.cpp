// The 3D view's guides (ui/cloud_guides.h): the grid lies under the whole cloud, the frustum's
// corners are the image's corners, the scene's depths come from the colour range.
#include "ui/cloud_guides.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/core/point_cloud_vertices.h"
#include "src/core/synthetic_scene.h"

namespace sv {
namespace {

TEST(CloudGuides, GridStepsAreRoundNumbers) {
  EXPECT_FLOAT_EQ(grid_step(10.0f), 1.0f);
  EXPECT_FLOAT_EQ(grid_step(64.0f), 5.0f);
  EXPECT_NEAR(grid_step(0.3f), 0.02f, 1e-7);
  EXPECT_FLOAT_EQ(grid_step(0.0f), 1.0f);
}

TEST(CloudGuides, GridUnderTheSyntheticSceneAndFrustumThroughTheImageCorners) {
  SyntheticSceneConfig config;
  config.width = 160;
  config.height = 120;
  config.max_disparity = 32;
  const SyntheticFrame f = SyntheticScene(config).render(0);
  const float focal = 0.9f * config.width;
  const float cx = (config.width - 1) * 0.5f, cy = (config.height - 1) * 0.5f;
  const CloudProjection p = metric_projection(focal, config.max_disparity / focal, cx, cy, 0.0);
  const CloudScene scene = cloud_scene_for(p, config.width, config.height, 0.0f, 31.0f);
  EXPECT_NEAR(scene.near_z, 32.0f / 31.0f, 1e-5);  // Z = f B / d = 32 / d
  EXPECT_NEAR(scene.far_z, 10.0f * 32.0f / 31.0f, 1e-4);  // d = 0 is at infinity: ten times
  EXPECT_NEAR(scene.fov_x, 2.0f * std::atan(80.0f / focal), 1e-6);

  std::vector<CloudVertex> cloud;
  build_cloud_vertices(f.ground_truth, f.left, ImageF32(), p, CloudStyle{}, cloud);
  CloudGuideOptions only_grid{true, false, false};
  const std::vector<CloudVertex> grid = cloud_guides(scene, only_grid);
  ASSERT_FALSE(grid.empty());
  const float floor_y = grid[0].y;
  for (const CloudVertex& v : grid) EXPECT_FLOAT_EQ(v.y, floor_y);
  int points = 0;
  for (const CloudVertex& v : cloud) {
    if (v.a == 0) continue;
    ++points;
    EXPECT_LE(v.y, floor_y + 1e-4f);
  }
  EXPECT_GT(points, 10000);

  const std::vector<CloudVertex> frustum = cloud_guides(scene, {false, false, true});
  ASSERT_EQ(frustum.size(), 16u);  // 4 edges from the centre, 4 around the image
  for (size_t i = 0; i < frustum.size(); i += 4) {
    EXPECT_FLOAT_EQ(frustum[i].x, 0.0f);
    EXPECT_FLOAT_EQ(frustum[i].z, 0.0f);
    const CloudVertex& corner = frustum[i + 1];
    // Back through the pinhole: the image's edges, half a pixel past the outer pixel centres.
    const float x = focal * corner.x / corner.z + 0.5f * config.width;
    const float y = focal * corner.y / corner.z + 0.5f * config.height;
    EXPECT_NEAR(std::min(std::abs(x), std::abs(x - config.width)), 0.0f, 1e-3) << i;
    EXPECT_NEAR(std::min(std::abs(y), std::abs(y - config.height)), 0.0f, 1e-3) << i;
  }
  EXPECT_EQ(cloud_guides(scene, {false, true, false}).size(), 6u);
  EXPECT_TRUE(cloud_guides(scene, {false, false, false}).empty());
}

}  // namespace
}  // namespace sv
