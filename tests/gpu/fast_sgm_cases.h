#pragma once

// The cases of the fast census-SGM's GPU tests (fast_sgm_test.cpp), their view pairs and their
// CPU reference.
#include <algorithm>
#include <ostream>

#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/lr_check.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/synthetic_scene.h"
#include "src/core/winner_takes_all.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv::test {

struct FastCase {
  int width, height;
  int base, count;
  int paths;
  CensusWindow window;
  bool adaptive_p2;
  int p2;
  int uniqueness;
  bool subpixel;
  bool lr;
  // How the path walks run (the same results either way): clocked by default, so
  // that the small cases cover the clocks that only full-size frames get automatically.
  cuda::PathSchedule schedule = cuda::PathSchedule::kClocked;

  SgmSettings sgm() const {
    SgmSettings s;
    s.paths = paths;
    s.p1 = 10;
    s.p2 = p2;
    s.adaptive_p2 = adaptive_p2;
    s.p2_edge_scale = 12;
    return s;
  }
  WtaSettings wta() const {
    WtaSettings w;
    w.uniqueness = uniqueness;
    w.subpixel = subpixel;
    return w;
  }
  int window_bits() const { return census_window_width(window) * census_window_height(window) - 1; }
};

inline std::ostream& operator<<(std::ostream& os, const FastCase& c) {
  return os << c.width << "x" << c.height << " d[" << c.base << ", +" << c.count << ") paths "
            << c.paths << " window " << census_window_name(c.window)
            << (c.adaptive_p2 ? " adaptive" : "")
            << " P2 " << c.p2 << " u " << c.uniqueness << (c.subpixel ? " subpixel" : "")
            << (c.lr ? " lr" : "")
            << (c.schedule == cuda::PathSchedule::kFree ? " free" : c.schedule == cuda::PathSchedule::kAuto ? " auto" : " clocked");
}

// A synthetic view pair (real disparities, occlusions) for the larger cases, random texture
// shifted by 3 px for the small ones.
inline void make_pair(const FastCase& c, ImageU8& left, ImageU8& right) {
  if (c.width < 64 || c.height < 16) {
    const ShiftedPair pair = shifted_pair(c.width, c.height, 3, 7);
    left = pair.left;
    right = pair.right;
    return;
  }
  const SyntheticFrame frame = render_synthetic(c.width, c.height, std::max(8, c.base + c.count), 2);
  left = to_gray(frame.left);
  right = to_gray(frame.right);
}

// The CPU reference of a case: the census costs, S, and the selection with and without the LR check.
struct FastReference {
  CostVolume<uint8_t> costs;
  CostVolume<uint16_t> sums;
  ImageI16 right_view;
  ImageI16 expected;  // winner_takes_all, then lr_check where the case asks for it

  FastReference(const FastCase& c, const ImageU8& left, const ImageU8& right)
      : costs(census_cost_volume(census_transform(left, c.window), census_transform(right, c.window),
                                 SearchRange(c.base, c.count))),
        sums(sgm_aggregate(costs, left, c.sgm())),
        right_view(right_view_disparity(sums)),
        expected(winner_takes_all(sums, c.wta())) {
    if (c.lr) lr_check(expected, right_view, 1);
  }
};

}  // namespace sv::test
