#pragma once

#include "src/core/synthetic_scene.h"

namespace sv::test {

// Frame `index` of the synthetic scene at width x height, its nearest surface at max_disparity.
inline SyntheticFrame render_synthetic(int width, int height, int max_disparity, int index) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = max_disparity;
  return SyntheticScene(config).render(index);
}

}  // namespace sv::test
