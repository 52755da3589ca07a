#pragma once

#include "src/core/synthetic_scene.h"

namespace sv {

// SyntheticScene::render_views(frame_index), bit for bit, with SIMD lanes over a row's pixels:
// the same double operations in the same order on every lane (no fused multiply-adds), the
// stripe region's sine left to the C library as in the reference. What a frame source needs at
// camera rate; the scene's ground truth stays the reference's.
// The views are drawn into blocks of `views_pool` while it has free ones (block_pool.h).
SyntheticFrame fast_synthetic_views(const SyntheticScene& scene, int frame_index,
                                    BlockPool* views_pool = nullptr);

}  // namespace sv
