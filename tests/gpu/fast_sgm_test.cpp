// The fast census-SGM of the CUDA engine (sgm_path_costs.cu + disparity_selection.cu) against
// the CPU reference stages, bit for bit: the sum of the 8-bit path volumes equals sgm_aggregate's
// S, and the fused selection equals winner_takes_all + right_view_disparity + lr_check, on the
// padded census cost volume (also checked against the reference volume); awkward sizes, counts
// that are and are not multiples of 32, negative and positive minimum disparities, 4 and 8
// paths, constant and adaptive P2; every device buffer guarded against stray writes.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/disparity.h"
#include "src/core/lr_check.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/synthetic_scene.h"
#include "src/core/winner_takes_all.h"
#include "tests/gpu/fast_sgm_cases.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::FastCase;
using test::GuardedDeviceArray;

class FastSgmEqualsCpu : public ::testing::TestWithParam<FastCase> {};

TEST_P(FastSgmEqualsCpu, PathSumsAndDisparitiesMatchTheReference) {
  SV_REQUIRE_CUDA_DEVICE();
  const FastCase c = GetParam();
  ImageU8 left, right;
  test::make_pair(c, left, right);
  const int w = c.width, h = c.height;
  const size_t pixels = static_cast<size_t>(w) * h;
  const SgmSettings sgm = c.sgm();
  ASSERT_TRUE(cuda::sgm_path_costs_supported(c.count, sgm));
  const WtaSettings wta = c.wta();
  const test::FastReference reference(c, left, right);
  const CostVolume<uint16_t>& sums = reference.sums;
  const ImageI16& expected = reference.expected;

  // GPU.
  GuardedDeviceArray<uint8_t> d_left(pixels, left.data()), d_right(pixels, right.data());
  GuardedDeviceArray<CensusCode> codes_l(pixels), codes_r(pixels);
  cuda::census_transform(d_left.data(), w, h, c.window, -1, codes_l.data(), nullptr);
  cuda::census_transform(d_right.data(), w, h, c.window, -1, codes_r.data(), nullptr);
  const int padded = 32 * cuda::sgm_path_cells_per_lane(c.count);
  GuardedDeviceArray<uint8_t> volume(pixels * padded);
  cuda::census_cost_volume_strided(codes_l.data(), codes_r.data(), w, h, c.base, c.count, padded,
                                   c.window_bits(), volume.data(), nullptr);
  GuardedDeviceArray<uint8_t> path_costs(pixels * padded * c.paths);
  GuardedDeviceArray<unsigned> clocks(cuda::sgm_path_costs_clock_words(h));
  cuda::SideStream side;
  cuda::PathBlockOrder order;
  cuda::sgm_path_costs(volume.data(), d_left.data(), w, h, c.base, c.count, sgm, path_costs.data(),
                       nullptr, cuda::PathScheduling{c.schedule, clocks.data(), &side, &order});
  GuardedDeviceArray<int16_t> disparity(pixels);
  GuardedDeviceArray<uint32_t> keys(pixels);
  // The bound on L_r lets the selection add volumes two at a time when P2 <= 63 (most cases).
  cuda::select_disparity_from_path_costs(path_costs.data(), c.paths, w, h, c.base, c.count, wta,
                                         c.lr, 1, keys.data(), disparity.data(), nullptr, nullptr,
                                         kMaxMatchCost + c.p2);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(path_costs.guards_intact() && disparity.guards_intact() && volume.guards_intact() &&
              keys.guards_intact() && clocks.guards_intact())
      << c;

  // The padded volume holds the reference costs, and kMaxMatchCost in the padding.
  const CostVolume<uint8_t>& reference_costs = reference.costs;
  const std::vector<uint8_t> padded_costs = volume.download();
  int cost_mismatches = 0;
  for (size_t p = 0; p < pixels; ++p) {
    for (int k = 0; k < padded; ++k) {
      const int want = k < c.count ? reference_costs.costs()[p * c.count + k] : kMaxMatchCost;
      cost_mismatches += padded_costs[p * padded + k] != want;
    }
  }
  EXPECT_EQ(cost_mismatches, 0) << c;

  // S = sum of the path volumes over the real candidates.
  const std::vector<uint8_t> paths = path_costs.download();
  size_t first_diff = SIZE_MAX;
  for (size_t p = 0; p < pixels && first_diff == SIZE_MAX; ++p) {
    for (int k = 0; k < c.count; ++k) {
      int s = 0;
      for (int r = 0; r < c.paths; ++r) s += paths[(r * pixels + p) * padded + k];
      if (s != sums.costs()[p * c.count + k]) {
        first_diff = p * c.count + k;
        break;
      }
    }
  }
  EXPECT_EQ(first_diff, SIZE_MAX) << c << ": S differs at pixel " << first_diff / c.count
                                  << " candidate " << first_diff % c.count;

  const std::vector<int16_t> actual = disparity.download();
  int valid = 0, mismatches = 0;
  for (size_t i = 0; i < pixels; ++i) {
    valid += is_valid_fixed_disparity(expected.data()[i]);
    mismatches += actual[i] != expected.data()[i];
  }
  EXPECT_EQ(mismatches, 0) << c;
  EXPECT_GT(valid, static_cast<int>(pixels / 4)) << c << ": the case should produce real matches";
}

constexpr CensusWindow k97 = CensusWindow::W9x7;

INSTANTIATE_TEST_SUITE_P(
    Cases, FastSgmEqualsCpu,
    ::testing::Values(
        FastCase{33, 17, 0, 16, 8, k97, false, 40, 10, true, true},
        FastCase{33, 17, -5, 37, 4, CensusWindow::W5x5, false, 40, 0, true, true},
        FastCase{33, 17, 2, 16, 8, CensusWindow::W9x9, true, 40, 10, false, true},
        // Taller than wide: the diagonal walks cross the sides several times.
        FastCase{17, 45, 0, 16, 8, k97, false, 40, 10, true, true},
        FastCase{23, 70, -2, 40, 8, CensusWindow::W5x5, true, 60, 0, true, false, cuda::PathSchedule::kFree},
        FastCase{641, 479, 0, 64, 8, k97, false, 40, 10, true, true, cuda::PathSchedule::kFree},
        FastCase{641, 479, -4, 64, 4, CensusWindow::W5x5, false, 40, 0, true, false},
        FastCase{641, 479, 0, 128, 8, k97, false, 40, 10, true, true},
        FastCase{641, 479, 0, 128, 4, k97, true, 120, 0, false, false},
        FastCase{641, 479, 3, 96, 8, CensusWindow::W7x7, false, 191, 25, true, true},
        FastCase{641, 479, -7, 100, 8, CensusWindow::W9x9, true, 60, 10, true, true},
        // 11x11: 120 bits in both words; the same cost scale, so P2 up to 191 still fits a byte.
        FastCase{33, 17, -3, 21, 8, CensusWindow::W11x11, false, 40, 10, true, true},
        FastCase{641, 479, 2, 128, 8, CensusWindow::W11x11, true, 191, 10, true, true},
        FastCase{641, 479, 0, 256, 8, k97, false, 40, 10, true, true},
        FastCase{641, 479, 1, 200, 4, k97, false, 40, 10, true, false},
        // The clocked walks of 256 candidates in each of their kernels (one cursor a walk): padded,
        // with the adaptive P2, both.
        FastCase{641, 479, 1, 200, 8, k97, false, 40, 10, true, false},
        FastCase{642, 479, 0, 256, 8, k97, true, 60, 10, true, true},
        FastCase{641, 479, -3, 180, 8, CensusWindow::W5x5, true, 40, 0, true, true},
        // Even widths, clocked and adaptive too (the cases above are all odd but 1920).
        FastCase{34, 17, 0, 16, 8, k97, false, 40, 10, true, true},
        FastCase{18, 45, 0, 16, 8, k97, true, 40, 10, true, true},
        FastCase{642, 479, 0, 128, 8, k97, false, 40, 10, true, true},
        FastCase{642, 479, -4, 64, 8, CensusWindow::W5x5, false, 40, 0, true, false},
        FastCase{640, 479, 2, 100, 8, CensusWindow::W9x9, true, 60, 10, true, true},
        FastCase{1920, 1080, 0, 128, 8, k97, false, 40, 10, true, true, cuda::PathSchedule::kAuto}));

// A 16-bit cost volume in the fused selection's layout: candidates padded to `padded` a pixel,
// the padding filled with `filler` (which the selection must ignore).
std::vector<uint16_t> padded_layout(const CostVolume<uint16_t>& costs, int padded, uint16_t filler) {
  const int count = costs.range().count();
  std::vector<uint16_t> layout(static_cast<size_t>(costs.width()) * costs.height() * padded, filler);
  for (size_t p = 0; p < static_cast<size_t>(costs.width()) * costs.height(); ++p) {
    std::copy_n(costs.costs().begin() + p * count, count, layout.begin() + p * padded);
  }
  return layout;
}

// The 16-bit form of the fused selection (block matching SAD) on random costs with "no match"
// entries, against winner_takes_all + right_view_disparity + lr_check on the same volume. The
// widths give one segment a row with idle warps (97) and several segments, the last one cut
// (700), so right pixels collect offers from two blocks.
TEST(FusedSelection, Costs16EqualTheReference) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const int w : {97, 700}) {
    for (const int count : {20, 64, 130}) {
      const int h = 13, base = -2;
      const int padded = 32 * cuda::sgm_path_cells_per_lane(count);
      CostVolume<uint16_t> costs(w, h, SearchRange(base, count));
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          for (int k = 0; k < count; ++k) {
            // Small values so ties and near-ties happen; some "no match" entries.
            const uint8_t r = test::hash_value(x * 7 + k, y, 5);
            costs.at(x, y, k) = r < 8 ? 0xFFFF : static_cast<uint16_t>(r % 40 + (k == (x + y) % count ? 0 : 20));
          }
        }
      }
      const std::vector<uint16_t> device_layout = padded_layout(costs, padded, 0x5A5A);
      const ImageI16 right_view = right_view_disparity(costs);
      for (const int uniqueness : {0, 15}) {
        for (const bool lr : {false, true}) {
          WtaSettings wta;
          wta.uniqueness = uniqueness;
          wta.subpixel = true;
          wta.max_cost = 55.0;
          ImageI16 expected = winner_takes_all(costs, wta);
          if (lr) lr_check(expected, right_view, 1);
          GuardedDeviceArray<uint16_t> d_costs(device_layout.size(), device_layout.data());
          GuardedDeviceArray<int16_t> disparity(static_cast<size_t>(w) * h);
          GuardedDeviceArray<uint32_t> keys(static_cast<size_t>(w) * h);
          cuda::select_disparity_from_costs16(d_costs.data(), w, h, base, count, wta, lr, 1,
                                              keys.data(), disparity.data(), nullptr);
          SV_CUDA_CHECK(cudaDeviceSynchronize());
          const std::string what = "width " + std::to_string(w) + " count " + std::to_string(count) +
                                   " uniqueness " + std::to_string(uniqueness) + " lr " + std::to_string(lr);
          EXPECT_EQ(disparity.download(), expected.pixels()) << what;
          EXPECT_TRUE(disparity.guards_intact() && keys.guards_intact()) << what;
          if (!lr) continue;
          // The keys written out are the right view (cost << 8 | k, all ones: nothing offered).
          const std::vector<uint32_t> got = keys.download();
          int mismatches = 0;
          for (size_t i = 0; i < got.size(); ++i) {
            const int16_t d = got[i] == 0xFFFFFFFFu ? kInvalidFixedDisparity
                                                    : static_cast<int16_t>((base + static_cast<int>(got[i] & 0xFFu)) * kDisparityScale);
            mismatches += d != right_view.data()[i];
          }
          EXPECT_EQ(mismatches, 0) << what << ": right view";
        }
      }
    }
  }
}

// Cost limits as the reference compares them (best > max_cost as double): fractional, negative,
// NaN and huge limits, on 16-bit costs of one winner per pixel.
TEST(FusedSelection, CostLimitAsTheReference) {
  SV_REQUIRE_CUDA_DEVICE();
  const int w = 45, h = 3, count = 10, base = 0;
  const int padded = 32 * cuda::sgm_path_cells_per_lane(count);
  CostVolume<uint16_t> costs(w, h, SearchRange(base, count));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int k = 0; k < count; ++k) costs.at(x, y, k) = static_cast<uint16_t>(k == x % count ? x : 1000 + k);
    }
  }
  const std::vector<uint16_t> device_layout = padded_layout(costs, padded, 0x7777);
  for (const double limit : {20.0, 20.5, 0.0, -0.5, std::nan(""), 1e12}) {
    WtaSettings wta;
    wta.max_cost = limit;
    GuardedDeviceArray<uint16_t> d_costs(device_layout.size(), device_layout.data());
    GuardedDeviceArray<int16_t> disparity(static_cast<size_t>(w) * h);
    cuda::select_disparity_from_costs16(d_costs.data(), w, h, base, count, wta, false, 1, nullptr,
                                        disparity.data(), nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(disparity.download(), winner_takes_all(costs, wta).pixels()) << "max_cost " << limit;
  }
}

TEST(FastSgm, RejectsWhatItCannotHold) {
  SgmSettings sgm;
  sgm.p2 = 192;  // 64 + 192 > 255: path costs would not fit a byte
  EXPECT_FALSE(cuda::sgm_path_costs_supported(128, sgm));
  sgm.p2 = 191;
  EXPECT_TRUE(cuda::sgm_path_costs_supported(128, sgm));
  EXPECT_FALSE(cuda::sgm_path_costs_supported(257, sgm));
  EXPECT_FALSE(cuda::sgm_path_costs_supported(0, sgm));
  sgm.paths = 6;
  EXPECT_FALSE(cuda::sgm_path_costs_supported(128, sgm));
}

}  // namespace
}  // namespace sv
