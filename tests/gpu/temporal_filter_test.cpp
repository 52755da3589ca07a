// The temporal filter on the GPU against the CPU reference, bit for bit: the kernel alone over a
// sequence of random maps (invalid pixels, resets, holds) of awkward sizes, and the whole engine
// over a noisy still sequence and a moving one, synchronous and with two frames in flight.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/stages.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/temporal_filter.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/noisy_frames.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

// Values around a slowly drifting base: most changes within delta, some jumps, some invalid.
ImageI16 random_map(int w, int h, std::mt19937& random) {
  std::uniform_int_distribution<int> value(-40, 40), kind(0, 9);
  ImageI16 map(w, h);
  for (int16_t& d : map.pixels()) {
    const int k = kind(random);
    d = k == 0 ? kInvalidFixedDisparity
               : static_cast<int16_t>((k == 1 ? 400 : 160) + value(random) * (k == 2 ? 30 : 1));
  }
  return map;
}

TEST(CudaTemporalFilter, KernelEqualsTheCpuOverASequence) {
  SV_REQUIRE_CUDA_DEVICE();
  const int sizes[][2] = {{1, 1}, {33, 7}, {257, 3}, {640, 480}};
  for (const auto& size : sizes) {
    const int w = size[0], h = size[1];
    const size_t n = static_cast<size_t>(w) * h;
    for (const TemporalFilterSettings s :
         {TemporalFilterSettings{102, 24, 0}, TemporalFilterSettings{3, 0, 3},
          TemporalFilterSettings{256, 1024, 255}, TemporalFilterSettings{200, 40, 1}}) {
      std::mt19937 random(w * 131 + h);
      TemporalFilter cpu;
      test::GuardedDeviceArray<int16_t> previous(n);
      test::GuardedDeviceArray<uint8_t> age(n);
      for (int frame = 0; frame < 6; ++frame) {
        ImageI16 map = random_map(w, h, random);
        test::GuardedDeviceArray<int16_t> device(n, map.data());
        cuda::temporal_filter(device.data(), previous.data(), age.data(), w, h, frame == 0, s, 0);
        cpu.apply(map, s);
        ASSERT_EQ(test::to_image(device.download(), w, h), map)
            << w << "x" << h << " frame " << frame << " alpha " << s.alpha_q8;
        ASSERT_TRUE(device.guards_intact() && previous.guards_intact() && age.guards_intact());
      }
    }
  }
}

StereoParams temporal_params() {
  StereoParams params;
  params.num_disparities = 32;
  params.temporal_filter = true;
  params.temporal_persistence = 2;
  params.fill_holes = false;  // holes, so the hold is exercised too
  return params;
}

TEST(CudaTemporalFilter, EngineEqualsTheCpuOnStillAndMovingSequences) {
  SV_REQUIRE_CUDA_DEVICE();
  const StereoParams params = temporal_params();
  for (const bool moving : {false, true}) {
    CpuEngine cpu;
    cuda::CudaEngine gpu;
    for (int i = 0; i < 8; ++i) {
      const SyntheticFrame frame = test::render_synthetic(161, 97, 32, moving ? 3 * i : 0);
      const ImageU8 left = to_gray(test::with_noise(frame.left, 12, 2 * i + 1));
      const ImageU8 right = to_gray(test::with_noise(frame.right, 12, 2 * i + 2));
      ASSERT_EQ(gpu.compute(left, right, params).disparity_fixed,
                cpu.compute(left, right, params).disparity_fixed)
          << (moving ? "moving" : "still") << " frame " << i;
    }
  }
}

TEST(CudaTemporalFilter, TwoFramesInFlightKeepTheOrder) {
  SV_REQUIRE_CUDA_DEVICE();
  const StereoParams params = temporal_params();
  CpuEngine cpu;
  cuda::CudaEngine gpu;
  std::vector<ImageI16> expected;
  for (int i = 0; i < 6; ++i) {
    const SyntheticFrame frame = test::render_synthetic(128, 64, 32, 0);
    const ImageU8 left = to_gray(test::with_noise(frame.left, 12, 2 * i + 1));
    const ImageU8 right = to_gray(test::with_noise(frame.right, 12, 2 * i + 2));
    expected.push_back(cpu.compute(left, right, params).disparity_fixed);
    gpu.submit(test::request_of(left, right, params));
    if (i > 0) {
      EXPECT_EQ(gpu.collect().disparity_fixed, expected[i - 1]) << "frame " << i - 1;
    }
  }
  EXPECT_EQ(gpu.collect().disparity_fixed, expected.back());
}

TEST(CudaTemporalFilter, TurningItOffOrChangingTheMatchingDropsTheHistory) {
  SV_REQUIRE_CUDA_DEVICE();
  StereoParams params = temporal_params();
  const SyntheticFrame frame = test::render_synthetic(96, 64, 32, 0);
  const ImageU8 a = to_gray(test::with_noise(frame.left, 12, 1));
  const ImageU8 b = to_gray(test::with_noise(frame.right, 12, 2));
  const ImageU8 c = to_gray(test::with_noise(frame.left, 12, 3));
  const ImageU8 d = to_gray(test::with_noise(frame.right, 12, 4));
  CpuEngine cpu;
  cuda::CudaEngine gpu;
  for (const int step : {0, 1, 2, 3}) {
    params.temporal_filter = step != 1;
    if (step == 3) params.p2 = 90;  // a matching change: both start afresh
    EXPECT_EQ(gpu.compute(a, b, params).disparity_fixed, cpu.compute(a, b, params).disparity_fixed);
    EXPECT_EQ(gpu.compute(c, d, params).disparity_fixed, cpu.compute(c, d, params).disparity_fixed);
  }
}

}  // namespace
}  // namespace sv
