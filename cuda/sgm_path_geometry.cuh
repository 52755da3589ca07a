#pragma once

// The paths of SGM's directions, enumerated exactly like sgm_aggregation.cpp's path_starts: for
// direction r, the paths start at the pixels whose predecessor p - r lies outside the image,
// those of the first row (when r has a vertical component) before those of the first column.
#include <climits>

namespace sv::cuda {

struct SgmDirection {
  int dx;
  int dy;
};

// Direction i in the reference's order: 4 paths use the first four.
__host__ __device__ inline SgmDirection sgm_direction(int i) {
  constexpr int kDx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
  constexpr int kDy[8] = {0, 0, 1, -1, 1, 1, -1, -1};
  return {kDx[i], kDy[i]};
}

__host__ __device__ inline int sgm_path_count(SgmDirection r, int width, int height) {
  return (r.dy != 0 ? width : 0) + (r.dx != 0 ? (r.dy != 0 ? height - 1 : height) : 0);
}

struct SgmPath {
  int x0, y0;  // first pixel
  int length;  // pixels until the path leaves the image
};

// Path `index` (< sgm_path_count) of direction r.
__host__ __device__ inline SgmPath sgm_path(SgmDirection r, int index, int width, int height) {
  const int starts_from_row = r.dy != 0 ? width : 0;
  SgmPath p;
  if (index < starts_from_row) {
    p.x0 = index;
    p.y0 = r.dy > 0 ? 0 : height - 1;
  } else {
    const int i = index - starts_from_row;
    p.x0 = r.dx > 0 ? 0 : width - 1;
    p.y0 = r.dy > 0 ? i + 1 : i;  // skip the row a vertical component already started from
  }
  p.length = INT_MAX;
  if (r.dx > 0) p.length = min(p.length, width - p.x0);
  if (r.dx < 0) p.length = min(p.length, p.x0 + 1);
  if (r.dy > 0) p.length = min(p.length, height - p.y0);
  if (r.dy < 0) p.length = min(p.length, p.y0 + 1);
  return p;
}

}  // namespace sv::cuda
