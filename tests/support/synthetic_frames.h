#pragma once

#include <vector>

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

// `count` frames of that scene, every `step`-th frame index (the scene moving between them).
inline std::vector<SyntheticFrame> synthetic_sequence(int count, int width, int height,
                                                      int max_disparity, int step) {
  const SyntheticScene scene(scene_config(width, height, max_disparity));
  std::vector<SyntheticFrame> out;
  for (int i = 0; i < count; ++i) out.push_back(scene.render(i * step));
  return out;
}

}  // namespace sv::test
