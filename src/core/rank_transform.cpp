// Rank transform and rank matching cost, the CPU reference.
//
// EXACT DEFINITION (the CUDA engine reproduces this bit for bit)
//   rank_transform: r = M / 2. R(x, y) = the number of (dx, dy) in [-r, r]^2 whose pixel
//     (x + dx, y + dy) lies inside the image and has I < I(x, y) (strict). Window positions
//     outside the image are not counted (no replication: a border pixel simply has fewer
//     neighbours, as census has fewer valid bits there).
//   rank_cost_volume: for left pixel (x, y) and k in [0, count), d = base(x, y) + k, xr = x - d:
//     cost = kMaxMatchCost (64) when xr is outside [0, width), otherwise
//     rank_cost(R_l(x, y), R_r(xr, y), M) = (|R_l - R_r| * 64 + n / 2) / n with n = M*M - 1, in
//     integer arithmetic: the raw difference (0..n) rounded half up onto 0..64.
#include "src/core/rank_transform.h"

#include <string>

#include "src/core/census_cost.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/core/pixel_cost_volume.h"

namespace sv {
namespace {

void check_window(int window) {
  if (window < 3 || window > 15 || window % 2 == 0) {
    throw InputError("rank window must be odd and in 3..15, got " + std::to_string(window));
  }
}

}  // namespace

ImageU8 rank_transform(const ImageU8& image, int window) {
  check_window(window);
  const int r = window / 2;
  const int width = image.width();
  const int height = image.height();
  ImageU8 ranks(width, height);
  parallel_for(0, height, [&](int y) {
    const int y0 = y - r < 0 ? 0 : y - r;
    const int y1 = y + r >= height ? height - 1 : y + r;
    for (int x = 0; x < width; ++x) {
      const int x0 = x - r < 0 ? 0 : x - r;
      const int x1 = x + r >= width ? width - 1 : x + r;
      const int centre = image.at(x, y);
      int count = 0;
      for (int yy = y0; yy <= y1; ++yy) {
        const uint8_t* row = image.row(yy);
        for (int xx = x0; xx <= x1; ++xx) count += row[xx] < centre;
      }
      ranks.at(x, y) = static_cast<uint8_t>(count);
    }
  });
  return ranks;
}

CostVolume<uint8_t> rank_cost_volume(const ImageU8& left_ranks, const ImageU8& right_ranks,
                                     int window, const SearchRange& range) {
  check_window(window);
  return pixel_cost_volume("rank cost", left_ranks, right_ranks, range,
                           static_cast<uint8_t>(kMaxMatchCost), [&](int x, int xr, int y) {
                             return rank_cost(left_ranks.at(x, y), right_ranks.at(xr, y), window);
                           });
}

}  // namespace sv
