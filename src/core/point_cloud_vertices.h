#pragma once

#include <vector>

#include "src/core/image.h"
#include "src/core/point_cloud_math.h"

namespace sv {

// The host path of the 3D view: one CloudVertex per pixel, row by row (index y * width + x),
// by cloud_vertex() of point_cloud_math.h, the function the CUDA kernel runs. `left` colours
// by image and may be empty otherwise; `confidence` may be empty (no confidence). InputError when
// a non-empty image differs from the disparity in size. Multi-threaded over rows.
void build_cloud_vertices(const ImageF32& disparity, const ImageRgb8& left,
                          const ImageF32& confidence, const CloudProjection& projection,
                          const CloudStyle& style, std::vector<CloudVertex>& vertices);

// The depths (Z of the projection, at the principal point) of the disparities d_lo < d_hi,
// as the colour by depth's far and near ends; a range without depth gives (0, 1).
struct DepthSpan {
  float near_z = 0.0f;
  float far_z = 1.0f;
};
DepthSpan depth_span(const CloudProjection& projection, float d_lo, float d_hi);

}  // namespace sv
