// The SIMD renderer of the synthetic scene's views (src/cpu_fast/fast_synthetic_views) against
// the scalar renderer, byte for byte, on every Highway target this CPU runs: sizes from 1x1 to
// 640x480 (partial vectors at the row ends), several seeds, disparity ranges and frame indices
// (the camera and sphere move), so every surface, the patch and the stripes are drawn.
#include <gtest/gtest.h>

#include <string>

#include "src/app/synthetic_source.h"
#include "src/core/synthetic_scene.h"
#include "src/cpu_fast/fast_synthetic_views.h"
#include "tests/unit/simd_targets.h"

namespace sv {
namespace {

struct Scene {
  int width, height, max_disparity;
  uint32_t seed;
  int frame;
};

std::string describe(const Scene& c) {
  return std::to_string(c.width) + "x" + std::to_string(c.height) + " D" +
         std::to_string(c.max_disparity) + " seed " + std::to_string(c.seed) + " frame " +
         std::to_string(c.frame);
}

void expect_same_views(const Scene& c) {
  SyntheticSceneConfig config;
  config.width = c.width;
  config.height = c.height;
  config.max_disparity = c.max_disparity;
  config.seed = c.seed;
  const SyntheticScene scene(config);
  const SyntheticFrame expected = scene.render_views(c.frame);
  const SyntheticFrame got = fast_synthetic_views(scene, c.frame);
  EXPECT_EQ(got.index, expected.index) << describe(c);
  EXPECT_EQ(got.timestamp_s, expected.timestamp_s) << describe(c);
  EXPECT_EQ(got.left, expected.left) << describe(c) << " left";
  EXPECT_EQ(got.right, expected.right) << describe(c) << " right";
}

TEST(FastSyntheticViews, EqualTheScalarRendererOnEveryTarget) {
  test::for_each_simd_target([](const std::string& target) {
    SCOPED_TRACE(target);
    for (const Scene& c : {Scene{1, 1, 1, 1, 2}, Scene{33, 17, 8, 3, -11}, Scene{97, 31, 20, 9, 5},
                           Scene{160, 120, 64, 1, 75}, Scene{320, 240, 48, 2, 90}}) {
      expect_same_views(c);
    }
  });
}

TEST(FastSyntheticViews, EqualTheScalarRendererAtCameraSize) {
  expect_same_views({640, 480, 64, 1, 0});
  expect_same_views({640, 480, 128, 2, 37});
}

// The viewer's default source draws with it: the scene's own views, frame after frame.
TEST(FastSyntheticViews, TheSyntheticSourceDeliversTheScenesViews) {
  SyntheticSceneConfig config;
  config.width = 97;
  config.height = 45;
  SyntheticSource source(config);
  ASSERT_TRUE(source.seek(40));
  for (int index = 40; index < 43; ++index) {
    const std::optional<StereoPair> pair = source.next();
    ASSERT_TRUE(pair.has_value());
    const SyntheticFrame expected = source.scene().render(index);
    EXPECT_EQ(pair->index, index);
    EXPECT_EQ(pair->left, expected.left) << index;
    EXPECT_EQ(pair->right, expected.right) << index;
  }
}

}  // namespace
}  // namespace sv
