#pragma once

#include <cstdint>

#include "src/core/image.h"

namespace sv {

class BlockPool;  // block_pool.h

struct SyntheticSceneConfig {
  int width = 640;
  int height = 480;
  // The nearest surface has a disparity just below max_disparity; the farthest about a tenth of it.
  int max_disparity = 64;
  uint32_t seed = 1;  // texture and layout; the same seed gives the same frames, bit for bit
};

// One rectified stereo pair with its exact ground truth (left view).
struct SyntheticFrame {
  int index = 0;
  double timestamp_s = 0.0;
  ImageRgb8 left;
  ImageRgb8 right;
  ImageF32 ground_truth;      // disparity of each left pixel (x_left - x_right), always finite
  ImageU8 nonoccluded_mask;   // 255 where the left pixel is visible in the right view, else 0
  ImageU8 discontinuity_mask; // 255 near depth discontinuities (non-occluded only), else 0
};

// A procedurally textured 3D scene ray-cast through two rectified pinhole cameras:
// a fronto-parallel back wall, a slanted ground plane, a sphere, occluding boxes, a low-texture
// patch and a repetitive stripe texture; the camera and objects move with the frame index.
// Geometry, textures, the mask rules and the motion are defined exactly at the top of
// synthetic_scene.cpp. The constructor throws InputError for a size below 1x1 or max_disparity < 1.
class SyntheticScene {
 public:
  explicit SyntheticScene(SyntheticSceneConfig config = {});
  const SyntheticSceneConfig& config() const { return config_; }
  // Frame `frame_index` (any int; timestamp_s = frame_index / 30). Deterministic and thread-safe.
  // The views are drawn into blocks of `views_pool` while it has free ones (block_pool.h).
  SyntheticFrame render(int frame_index, BlockPool* views_pool = nullptr) const;
  // The same frame's two views alone (ground truth and masks left empty): what a frame source
  // needs, without the ground truth's extra rays.
  SyntheticFrame render_views(int frame_index, BlockPool* views_pool = nullptr) const;

 private:
  SyntheticSceneConfig config_;
};

}  // namespace sv
