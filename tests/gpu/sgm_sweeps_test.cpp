// The sweeps form of the fast census-SGM (sgm_sweeps.cu) against the CPU reference, bit for bit:
// its S equals sgm_aggregate's, its disparities winner_takes_all + lr_check's, its right-view keys
// right_view_disparity's and its cost peaks cost_peaks'. The cases take what the strips and tiles
// find hard: widths and heights that are not multiples of a strip or a tile, 1 x N and N x 1
// frames, a strip narrower than its halo, 16 and 256 disparities, counts that are and are not
// multiples of a lane's 16 candidates, negative minimum disparities, 4 and 8 paths, constant and
// adaptive P2; every device buffer guarded against stray writes.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cuda/fast_sgm.h"
#include "cuda/stage_events.h"
#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/confidence.h"
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

using test::GuardedDeviceArray;
using SweepCase = test::FastCase;

class SgmSweepsEqualCpu : public ::testing::TestWithParam<SweepCase> {};

TEST_P(SgmSweepsEqualCpu, SumsDisparitiesRightViewAndPeaksMatchTheReference) {
  SV_REQUIRE_CUDA_DEVICE();
  const SweepCase c = GetParam();
  ImageU8 left, right;
  test::make_pair(c, left, right);
  const int w = c.width, h = c.height;
  const size_t pixels = static_cast<size_t>(w) * h;
  const SgmSettings sgm = c.sgm();
  ASSERT_TRUE(cuda::sgm_sweeps_supported(w, h, c.count, sgm)) << c;
  const WtaSettings wta = c.wta();
  const test::FastReference reference(c, left, right);
  const CostVolume<uint16_t>& sums = reference.sums;
  const ImageI16& expected = reference.expected;
  const ImageI16& right_view = reference.right_view;
  const CostPeaks peaks = cost_peaks(sums);

  // GPU.
  GuardedDeviceArray<uint8_t> d_left(pixels, left.data()), d_right(pixels, right.data());
  GuardedDeviceArray<CensusCode> codes_l(pixels), codes_r(pixels);
  cuda::census_transform(d_left.data(), w, h, c.window, -1, codes_l.data(), nullptr);
  cuda::census_transform(d_right.data(), w, h, c.window, -1, codes_r.data(), nullptr);
  const int padded = 32 * cuda::sgm_path_cells_per_lane(c.count);
  GuardedDeviceArray<uint8_t> costs(pixels * padded);
  cuda::census_cost_volume_strided(codes_l.data(), codes_r.data(), w, h, c.base, c.count, padded,
                                   c.window_bits(), costs.data(), nullptr);
  GuardedDeviceArray<uint8_t> volumes(cuda::sgm_sweeps_volume_bytes(w, h, c.count));
  GuardedDeviceArray<uint8_t> scratch(cuda::sgm_sweeps_scratch_bytes(w, c.count, sgm));
  GuardedDeviceArray<int16_t> disparity(pixels);
  GuardedDeviceArray<uint32_t> keys(pixels);
  GuardedDeviceArray<float2> d_peaks(pixels);
  GuardedDeviceArray<uint16_t> d_sums(pixels * padded);
  cuda::clear_right_view_keys(keys.data(), pixels, nullptr);
  const cuda::SgmSweepFrame frame{costs.data(), d_left.data(), w, h, c.base, c.count, sgm, wta,
                                  c.lr, 1, keys.data(), disparity.data(), d_peaks.data(),
                                  d_sums.data(), volumes.data(), scratch.data()};
  cuda::sgm_sweep_horizontal(frame, nullptr);
  cuda::sgm_sweep_down(frame, nullptr);
  cuda::sgm_sweep_up(frame, nullptr);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(costs.guards_intact() && volumes.guards_intact() && scratch.guards_intact() &&
              disparity.guards_intact() && keys.guards_intact() && d_peaks.guards_intact() &&
              d_sums.guards_intact())
      << c;

  const std::vector<uint16_t> got_sums = d_sums.download();
  size_t first_diff = SIZE_MAX;
  for (size_t p = 0; p < pixels && first_diff == SIZE_MAX; ++p) {
    for (int k = 0; k < c.count; ++k) {
      if (got_sums[p * padded + k] != sums.costs()[p * c.count + k]) {
        first_diff = p * c.count + k;
        break;
      }
    }
  }
  EXPECT_EQ(first_diff, SIZE_MAX) << c << ": S differs at pixel (" << first_diff / c.count % w << ", "
                                  << first_diff / c.count / w << ") candidate " << first_diff % c.count;

  const std::vector<int16_t> actual = disparity.download();
  int valid = 0, mismatches = 0;
  for (size_t i = 0; i < pixels; ++i) {
    valid += is_valid_fixed_disparity(expected.data()[i]);
    mismatches += actual[i] != expected.data()[i];
  }
  EXPECT_EQ(mismatches, 0) << c;
  if (w >= 16 && h >= 16) {
    EXPECT_GT(valid, static_cast<int>(pixels / 4)) << c << ": the case should produce real matches";
  }

  const std::vector<float2> got_peaks = d_peaks.download();
  int peak_mismatches = 0;
  for (size_t i = 0; i < pixels; ++i) {
    peak_mismatches += got_peaks[i].x != peaks.best.data()[i] || got_peaks[i].y != peaks.runner_up.data()[i];
  }
  EXPECT_EQ(peak_mismatches, 0) << c;

  if (c.lr) {
    // The keys gathered are the right view (cost << 8 | k; all ones: nothing offered).
    const std::vector<uint32_t> got = keys.download();
    int right_mismatches = 0;
    for (size_t i = 0; i < pixels; ++i) {
      const int16_t d = got[i] == 0xFFFFFFFFu ? kInvalidFixedDisparity
                                              : static_cast<int16_t>((c.base + static_cast<int>(got[i] & 0xFFu)) * kDisparityScale);
      right_mismatches += d != right_view.data()[i];
    }
    EXPECT_EQ(right_mismatches, 0) << c << ": right view";
  }
}

constexpr CensusWindow k97 = CensusWindow::W9x7;

INSTANTIATE_TEST_SUITE_P(
    Cases, SgmSweepsEqualCpu,
    ::testing::Values(
        // Tiny frames: one strip, a strip narrower than the halo, a tile taller than the frame.
        SweepCase{33, 17, 0, 16, 8, k97, false, 40, 10, true, true},
        SweepCase{33, 17, -5, 37, 4, CensusWindow::W5x5, false, 40, 0, true, true},
        SweepCase{33, 17, 2, 16, 8, CensusWindow::W9x9, true, 40, 10, false, true},
        SweepCase{17, 45, 0, 16, 8, k97, false, 40, 10, true, true},
        SweepCase{23, 70, -2, 40, 8, CensusWindow::W5x5, true, 60, 0, true, false},
        SweepCase{1, 40, 0, 16, 8, k97, false, 40, 10, true, true},
        SweepCase{64, 1, 0, 16, 8, k97, false, 40, 0, true, true},
        SweepCase{40, 1, -3, 20, 4, k97, false, 40, 10, true, false},
        SweepCase{5, 3, 0, 16, 8, CensusWindow::W5x5, false, 40, 0, true, true},
        // Many strips, heights that are not a multiple of the tile's 8 rows.
        SweepCase{641, 479, 0, 64, 8, k97, false, 40, 10, true, true},
        SweepCase{641, 479, -4, 64, 4, CensusWindow::W5x5, false, 40, 0, true, false},
        SweepCase{641, 479, 0, 128, 8, k97, false, 40, 10, true, true},
        SweepCase{641, 479, 0, 128, 4, k97, true, 120, 0, false, false},
        SweepCase{641, 479, 3, 96, 8, CensusWindow::W7x7, false, 191, 25, true, true},
        SweepCase{641, 479, -7, 100, 8, CensusWindow::W9x9, true, 60, 10, true, true},
        SweepCase{33, 17, -3, 21, 8, CensusWindow::W11x11, false, 40, 10, true, true},
        SweepCase{641, 479, 2, 128, 8, CensusWindow::W11x11, true, 191, 10, true, true},
        SweepCase{641, 479, 0, 256, 8, k97, false, 40, 10, true, true},
        SweepCase{641, 479, 1, 200, 4, k97, false, 40, 10, true, false},
        SweepCase{1001, 203, 0, 16, 8, k97, false, 40, 10, true, true},
        SweepCase{1920, 1080, 0, 128, 8, k97, false, 40, 10, true, true}));

// FastSgm in its sweeps form gives what its volumes form gives (disparities, cost peaks, the right
// view), names its stages after the sweeps, and keeps the volumes where the pixel probe reads them.
TEST(SgmSweeps, FastSgmSweepsEqualItsVolumes) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const SweepCase& c : {SweepCase{641, 479, -3, 128, 8, k97, false, 40, 10, true, true},
                             SweepCase{97, 50, 0, 64, 4, CensusWindow::W5x5, true, 60, 0, true, true}}) {
    ImageU8 left, right;
    test::make_pair(c, left, right);
    const int w = c.width, h = c.height;
    const size_t pixels = static_cast<size_t>(w) * h;
    GuardedDeviceArray<uint8_t> d_left(pixels, left.data()), d_right(pixels, right.data());
    GuardedDeviceArray<CensusCode> codes_l(pixels), codes_r(pixels);
    cuda::census_transform(d_left.data(), w, h, c.window, -1, codes_l.data(), nullptr);
    cuda::census_transform(d_right.data(), w, h, c.window, -1, codes_r.data(), nullptr);
    cuda::FastSgm::Frame frame{};
    frame.census_left = codes_l.data();
    frame.census_right = codes_r.data();
    frame.window_bits = c.window_bits();
    frame.guide = d_left.data();
    frame.width = w;
    frame.height = h;
    frame.base = c.base;
    frame.count = c.count;
    frame.sgm = c.sgm();
    frame.wta = c.wta();
    frame.lr_check = c.lr;
    frame.lr_max_diff = 1;

    struct Outputs {
      std::vector<int16_t> disparity, right_view;
      std::vector<float2> peaks;
      std::vector<std::string> stages;
    };
    auto run = [&](cuda::FastSgm::Form form) {
      cuda::FastSgm sgm;
      sgm.set_form(form);
      GuardedDeviceArray<int16_t> disparity(pixels), right_view(pixels);
      GuardedDeviceArray<float2> peaks(pixels);
      cuda::FastSgm::Frame f = frame;
      f.disparity_fixed = disparity.data();
      f.right_view = right_view.data();
      f.peaks = peaks.data();
      EXPECT_EQ(sgm.uses_sweeps(f), form == cuda::FastSgm::Form::kSweeps) << c;
      cuda::FastSgm::Frame probed = f;
      probed.keep_path_volumes = true;
      EXPECT_FALSE(sgm.uses_sweeps(probed)) << c;
      cuda::StageEvents events(nullptr);
      events.begin_frame();
      sgm.run(f, nullptr, events, "");
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_TRUE(disparity.guards_intact() && right_view.guards_intact() && peaks.guards_intact()) << c;
      Outputs out{disparity.download(), right_view.download(), peaks.download(), {}};
      for (const auto& stage : events.collect().stages) out.stages.push_back(stage.stage);
      return out;
    };
    const Outputs volumes = run(cuda::FastSgm::Form::kVolumes);
    const Outputs sweeps = run(cuda::FastSgm::Form::kSweeps);
    EXPECT_EQ(sweeps.disparity, volumes.disparity) << c;
    EXPECT_EQ(sweeps.right_view, volumes.right_view) << c;
    int peak_mismatches = 0;
    for (size_t i = 0; i < pixels; ++i) {
      peak_mismatches += sweeps.peaks[i].x != volumes.peaks[i].x || sweeps.peaks[i].y != volumes.peaks[i].y;
    }
    EXPECT_EQ(peak_mismatches, 0) << c;
    const std::vector<std::string> expected_volumes = {"cost", "sgm", "wta+lr"};
    const std::vector<std::string> expected_sweeps = {"cost", "sgm-horizontal", "sgm-down", "sgm-up+wta+lr"};
    EXPECT_EQ(volumes.stages, expected_volumes) << c;
    EXPECT_EQ(sweeps.stages, expected_sweeps) << c;
  }
}

TEST(SgmSweeps, RefuseWhatTheVolumesFormAlsoRefuses) {
  SV_REQUIRE_CUDA_DEVICE();
  SgmSettings sgm;
  EXPECT_TRUE(cuda::sgm_sweeps_supported(640, 480, 128, sgm));
  sgm.p2 = 192;  // 64 + 192 > 255: path costs would not fit a byte
  EXPECT_FALSE(cuda::sgm_sweeps_supported(640, 480, 128, sgm));
  sgm.p2 = 40;
  EXPECT_FALSE(cuda::sgm_sweeps_supported(640, 480, 257, sgm));
  EXPECT_FALSE(cuda::sgm_sweeps_supported(0, 480, 128, sgm));
  EXPECT_FALSE(cuda::sgm_sweeps_supported(640, 0, 128, sgm));
}

#ifdef SV_SWEEP_PROFILE
}  // namespace
namespace cuda {
void sgm_sweeps_profile(long long (&cycles)[2][2][8]);
}
namespace {
// Where a sweep's rows spend their time (one walker and one selector of the middle strip, clock
// cycles a row), and each part of the frame alone; only in a build with SV_SWEEP_PROFILE.
TEST(SgmSweeps, Profile) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const int count : {64, 128}) {
    for (const auto& size : {std::pair<int, int>{640, 480}, std::pair<int, int>{1920, 1080}}) {
      const int w = size.first, h = size.second;
      const size_t pixels = static_cast<size_t>(w) * h;
      SgmSettings sgm;
      WtaSettings wta;
      wta.uniqueness = 10;
      const int padded = 32 * cuda::sgm_path_cells_per_lane(count);
      GuardedDeviceArray<uint8_t> costs(pixels * padded), guide(pixels);
      SV_CUDA_CHECK(cudaMemset(costs.data(), 7, pixels * padded));
      GuardedDeviceArray<uint8_t> volumes(cuda::sgm_sweeps_volume_bytes(w, h, count));
      GuardedDeviceArray<uint8_t> scratch(cuda::sgm_sweeps_scratch_bytes(w, count, sgm));
      GuardedDeviceArray<int16_t> disparity(pixels);
      GuardedDeviceArray<uint32_t> keys(pixels);
      const cuda::SgmSweepFrame frame{costs.data(), guide.data(), w, h, 0, count, sgm, wta, true, 1,
                                      keys.data(), disparity.data(), nullptr, nullptr, volumes.data(), scratch.data()};
      cudaEvent_t e[4];
      for (auto& ev : e) cudaEventCreate(&ev);
      float ms[3] = {};
      for (int run = 0; run < 5; ++run) {
        cudaEventRecord(e[0]);
        cuda::sgm_sweep_horizontal(frame, nullptr);
        cudaEventRecord(e[1]);
        cuda::sgm_sweep_down(frame, nullptr);
        cudaEventRecord(e[2]);
        cuda::sgm_sweep_up(frame, nullptr);
        cudaEventRecord(e[3]);
        SV_CUDA_CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < 3; ++i) cudaEventElapsedTime(&ms[i], e[i], e[i + 1]);
      }
      long long cycles[2][2][8];
      cuda::sgm_sweeps_profile(cycles);
      std::printf("%dx%d D%d: horizontal %.3f ms, down %.3f ms, up %.3f ms\n", w, h, count, ms[0], ms[1], ms[2]);
      const char* phases[6] = {"tile", "inputs", "walk", "store", "flush", "barrier"};
      for (int sweep = 0; sweep < 2; ++sweep) {
        for (int who = 0; who < 2; ++who) {
          std::printf("  %s %s cycles a row:", sweep ? "up" : "down", who ? "selector" : "walker");
          for (int i = 0; i < 6; ++i) std::printf(" %s %lld", phases[i], cycles[sweep][who][i] / h);
          std::printf("\n");
        }
      }
    }
  }
}
#endif

}  // namespace
}  // namespace sv
