#pragma once

#include "src/core/synthetic_scene.h"

namespace sv::test {

// The synthetic scene at width x height, its nearest surface at max_disparity.
inline SyntheticSceneConfig scene_config(int width, int height, int max_disparity) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = max_disparity;
  return config;
}

// Frame `index` of that scene.
inline SyntheticFrame render_synthetic(int width, int height, int max_disparity, int index) {
  return SyntheticScene(scene_config(width, height, max_disparity)).render(index);
}

}  // namespace sv::test
