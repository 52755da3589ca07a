// 16-bit input through the CUDA engine against the CPU reference engine (src/core/high_bit_depth.h):
// the same fixed-point disparities bit for bit, for census windows up to 11x11, missing values
// inside and above the byte range, both SGM kernels (the fast 8-bit path costs and, with P2 too
// large for them, the general stages), and 8-bit and 16-bit frames in flight together. Float input
// the same way (NaN, infinities, signed zeros and a missing value in the pair; the range view
// kernel against eight_bit_value).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/stages.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/float_pairs.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

struct Pair16 {
  ImageU16 left, right;
};

// The synthetic scene's gray in the high byte and fine texture in the low byte (the same texture
// moves with the scene only in the high byte, so both bytes decide the census), plus holes of
// `missing` (scattered pixels and a block) when it is >= 0.
Pair16 scene16(int width, int height, int max_disparity, int missing) {
  const SyntheticFrame frame =
      test::render_synthetic(width, height, max_disparity, 2);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);
  Pair16 pair{ImageU16(width, height), ImageU16(width, height)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      pair.left.at(x, y) = static_cast<uint16_t>(left.at(x, y) * 256 + test::hash_value(x, y, 1) / 4);
      pair.right.at(x, y) = static_cast<uint16_t>(right.at(x, y) * 256 + test::hash_value(x, y, 2) / 4);
      if (missing >= 0 && test::hash_value(x, y, 3) < 6) pair.left.at(x, y) = static_cast<uint16_t>(missing);
      if (missing >= 0 && test::hash_value(x, y, 4) < 6) pair.right.at(x, y) = static_cast<uint16_t>(missing);
    }
  }
  if (missing >= 0) {
    test::fill_block(pair.left, width / 3, height / 3, width / 8 + 1, height / 8 + 1, static_cast<uint16_t>(missing));
    test::fill_block(pair.right, width / 3 - 2, height / 3, width / 8 + 1, height / 8 + 1, static_cast<uint16_t>(missing));
  }
  return pair;
}

struct Case16 {
  int width, height;
  int min_disparity, disparities;
  CensusWindow window;
  int missing;  // -1: none
  int paths;
  int p2;        // > 191 leaves the fast SGM for the general stages
  bool adaptive_p2;
  bool confidence;
};

std::ostream& operator<<(std::ostream& os, const Case16& c) {
  return os << c.width << "x" << c.height << " d[" << c.min_disparity << ", +" << c.disparities
            << ") census " << census_window_name(c.window) << " missing " << c.missing << " paths "
            << c.paths << " P2 " << c.p2 << (c.adaptive_p2 ? " adaptive" : "")
            << (c.confidence ? " confidence" : "");
}

StereoParams params_of(const Case16& c) {
  StereoParams params;
  params.algorithm = "census-sgm";
  params.min_disparity = c.min_disparity;
  params.num_disparities = c.disparities;
  params.census = c.window;
  params.missing_value = c.missing;
  params.sgm_paths = c.paths;
  params.p2 = c.p2;
  params.adaptive_p2 = c.adaptive_p2;
  params.confidence = c.confidence;
  return params;
}

class CudaEqualsCpu16 : public ::testing::TestWithParam<Case16> {};

TEST_P(CudaEqualsCpu16, SameFixedPointDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const Case16 c = GetParam();
  const Pair16 pair = scene16(c.width, c.height, std::max(4, c.min_disparity + c.disparities), c.missing);
  const StereoParams params = params_of(c);

  cuda::CudaEngine gpu;
  ASSERT_TRUE(gpu.supports_high_bit_depth(params));
  const DisparityResult expected = CpuEngine().compute(pair.left, pair.right, params);
  const DisparityResult actual = gpu.compute(pair.left, pair.right, params);
  EXPECT_EQ(actual.disparity_fixed, expected.disparity_fixed) << c;
  EXPECT_EQ(actual.disparity, expected.disparity) << c;
  int valid = 0;
  for (const int16_t d : expected.disparity_fixed.pixels()) valid += is_valid_fixed_disparity(d);
  EXPECT_GT(valid, static_cast<int>(expected.disparity_fixed.size() / 4)) << c << ": needs real matches";

  // Again on the same engine (buffers reused).
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed, expected.disparity_fixed) << c;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CudaEqualsCpu16,
    ::testing::Values(Case16{33, 17, 0, 16, CensusWindow::W9x7, -1, 8, 40, false, false},
                      Case16{33, 17, -3, 21, CensusWindow::W11x11, 0, 8, 40, false, false},
                      Case16{641, 479, 0, 64, CensusWindow::W9x7, -1, 8, 40, false, false},
                      Case16{641, 479, 0, 64, CensusWindow::W9x7, 1000, 8, 40, false, true},
                      Case16{641, 479, -5, 37, CensusWindow::W5x5, 65535, 4, 40, true, false},
                      Case16{641, 479, 0, 128, CensusWindow::W11x11, 0, 8, 60, false, false},
                      Case16{641, 479, 2, 96, CensusWindow::W9x9, 300, 8, 200, true, false},
                      Case16{641, 479, 0, 64, CensusWindow::W11x11, -1, 4, 255, false, false}));

// The texture lives only in the low byte: the GPU finds the shift there too.
TEST(CudaEngine16, FindsTheDisparityOfTextureTheEightBitViewLoses) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::low_byte_shifted_pair(200, 64, 9, 31);
  StereoParams params;
  params.num_disparities = 32;
  params.subpixel = false;
  cuda::CudaEngine gpu;
  const DisparityResult r = gpu.compute(pair.left, pair.right, params);
  int hits = 0, total = 0;
  for (int y = 3; y < 61; ++y)
    for (int x = 9 + 4; x < 196; ++x, ++total) hits += r.disparity.at(x, y) == 9.0f;
  EXPECT_GE(hits, total * 99 / 100);
  EXPECT_EQ(r.disparity_fixed, CpuEngine().compute(pair.left, pair.right, params).disparity_fixed);
}

// The new missing-value parameter on 8-bit input, through both engines.
TEST(CudaEngine16, EightBitMissingValueEqualsTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const Pair16 pair16 = scene16(321, 239, 48, -1);
  ImageU8 left = eight_bit_view(pair16.left), right = eight_bit_view(pair16.right);
  for (int y = 100; y < 140; ++y)
    for (int x = 150; x < 200; ++x) left.at(x, y) = right.at(x - 3, y) = 0;
  for (const CensusWindow window : {CensusWindow::W9x7, CensusWindow::W11x11}) {
    StereoParams params;
    params.num_disparities = 48;
    params.census = window;
    params.missing_value = 0;
    cuda::CudaEngine gpu;
    EXPECT_EQ(gpu.compute(left, right, params).disparity_fixed,
              CpuEngine().compute(left, right, params).disparity_fixed)
        << census_window_name(window);
  }
}

// 8-bit and 16-bit frames alternate in the two slots while both are in flight.
TEST(CudaEngine16, EightAndSixteenBitFramesInFlightTogether) {
  SV_REQUIRE_CUDA_DEVICE();
  const Pair16 deep = scene16(161, 97, 32, 0);
  const ImageU8 left8 = test::random_texture(161, 97, 5), right8 = test::random_texture(161, 97, 6);
  StereoParams params;
  params.num_disparities = 32;
  params.missing_value = 0;
  CpuEngine cpu;
  const ImageI16 expected16 = cpu.compute(deep.left, deep.right, params).disparity_fixed;
  const ImageI16 expected8 = cpu.compute(left8, right8, params).disparity_fixed;

  cuda::CudaEngine gpu;
  gpu.submit(deep.left, deep.right, params);
  gpu.submit(left8, right8, params);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
  gpu.submit(deep.left, deep.right, params);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected8);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
}

TEST(CudaEngine16, RefusesWhatOnlyEightBitsCanDo) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::low_byte_shifted_pair(64, 32, 2, 32);
  cuda::CudaEngine gpu;
  StereoParams params;
  params.num_disparities = 16;
  params.algorithm = "bm-sad";
  EXPECT_FALSE(gpu.supports_high_bit_depth(params));
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
  params.algorithm = "census-sgm";
  params.pyramid_levels = 1;
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
  params.pyramid_levels = 0;
  EXPECT_THROW(gpu.compute(pair.left, ImageU16(64, 31), params), InputError);
  params.missing_value = 300;  // fits 16 bits only
  EXPECT_THROW(gpu.compute(eight_bit_view(pair.left), eight_bit_view(pair.right), params), InputError);
  // Nothing was queued by the refusals: a good frame still goes through.
  EXPECT_EQ(gpu.frames_in_flight(), 0);
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed,
            CpuEngine().compute(pair.left, pair.right, params).disparity_fixed);
}

// Float input: the synthetic scene's gray plus sub-gray-level texture on an arbitrary scale
// (so the range view is not the identity), with NaN holes, infinities, signed zeros and, when
// `missing` >= 0, a block of that value shifted by 2 px between the views.
struct PairF {
  ImageF32 left, right;
};

PairF scene_float(int width, int height, int max_disparity, int missing) {
  const SyntheticFrame frame = test::render_synthetic(width, height, max_disparity, 2);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);
  PairF pair{ImageF32(width, height), ImageF32(width, height)};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      pair.left.at(x, y) = 0.37f * left.at(x, y) - 3.0f + test::hash_value(x, y, 1) * 1e-3f;
      pair.right.at(x, y) = 0.37f * right.at(x, y) - 3.0f + test::hash_value(x, y, 2) * 1e-3f;
      const int h = test::hash_value(x, y, 3);
      if (h < 4) pair.left.at(x, y) = nan;
      else if (h < 5) pair.left.at(x, y) = (x & 1) ? inf : -inf;
      else if (h < 7) pair.left.at(x, y) = (x & 1) ? 0.0f : -0.0f;
      if (test::hash_value(x, y, 4) < 4) pair.right.at(x, y) = nan;
    }
  }
  if (missing >= 0) {
    test::fill_block(pair.left, width / 3, height / 3, width / 8 + 1, height / 8 + 1, static_cast<float>(missing));
    test::fill_block(pair.right, width / 3 - 2, height / 3, width / 8 + 1, height / 8 + 1, static_cast<float>(missing));
  }
  return pair;
}

class CudaEqualsCpuFloat : public ::testing::TestWithParam<Case16> {};

TEST_P(CudaEqualsCpuFloat, SameFixedPointDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const Case16 c = GetParam();
  const PairF pair = scene_float(c.width, c.height, std::max(4, c.min_disparity + c.disparities), c.missing);
  const StereoParams params = params_of(c);

  cuda::CudaEngine gpu;
  ASSERT_TRUE(gpu.supports_float_input(params));
  const DisparityResult expected = CpuEngine().compute(pair.left, pair.right, params);
  const DisparityResult actual = gpu.compute(pair.left, pair.right, params);
  EXPECT_EQ(actual.disparity_fixed, expected.disparity_fixed) << c;
  EXPECT_EQ(actual.disparity, expected.disparity) << c;
  if (c.confidence) {
    ASSERT_EQ(actual.confidence.size(), expected.confidence.size()) << c;
    for (size_t i = 0; i < expected.confidence.size(); ++i) {
      ASSERT_NEAR(actual.confidence.data()[i], expected.confidence.data()[i], 1e-6f) << c << " at " << i;
    }
  }
  int valid = 0;
  for (const int16_t d : expected.disparity_fixed.pixels()) valid += is_valid_fixed_disparity(d);
  EXPECT_GT(valid, static_cast<int>(expected.disparity_fixed.size() / 4)) << c << ": needs real matches";
  // Again on the same engine (buffers reused).
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed, expected.disparity_fixed) << c;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CudaEqualsCpuFloat,
    ::testing::Values(Case16{97, 41, 0, 32, CensusWindow::W9x7, -1, 8, 120, false, false},
                      Case16{97, 48, 0, 64, CensusWindow::W5x5, 0, 4, 120, false, false},
                      Case16{131, 37, -3, 40, CensusWindow::W11x11, 7, 8, 120, true, false},
                      Case16{33, 17, 0, 16, CensusWindow::W9x9, -1, 8, 200, false, false},
                      Case16{120, 60, 2, 48, CensusWindow::W7x7, 40, 8, 120, true, true},
                      Case16{9, 8, 0, 4, CensusWindow::W5x5, -1, 4, 120, false, false}));

// The range view kernel against eight_bit_value, on the values that test its rules: ties to even,
// clamping at both ends, infinities, NaN, signed zeros and every step of a non-trivial scale.
TEST(CudaFloatView, EqualsEightBitValue) {
  SV_REQUIRE_CUDA_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {nan, inf, -inf, 0.0f, -0.0f, 1e30f, -1e30f, 1e-40f};
  for (int i = -40; i < 600; ++i) values.push_back(i * 0.5f - 3.0f);
  for (int i = 0; i < 1000; ++i) values.push_back(-7.0f + i * 0.01337f);
  const int width = static_cast<int>(values.size());
  for (const FloatViewRange range : {FloatViewRange{0.0f, 1.0f}, FloatViewRange{-7.0f, 255.0f / 13.37f},
                                     FloatViewRange{2.5f, 0.1f}, FloatViewRange{0.0f, 0.0f}}) {
    float* d_values = nullptr;
    uint8_t* d_view = nullptr;
    ASSERT_EQ(cudaMalloc(&d_values, values.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_view, values.size()), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d_values, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    cuda::eight_bit_view(d_values, width, 1, range.lo, range.scale, d_view, nullptr);
    std::vector<uint8_t> view(values.size());
    ASSERT_EQ(cudaMemcpy(view.data(), d_view, view.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d_values);
    cudaFree(d_view);
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(view[i], eight_bit_value(values[i], range))
          << "value " << values[i] << " lo " << range.lo << " scale " << range.scale;
    }
  }
}

// A float census sees texture the 8-bit view has lost, on the GPU as on the CPU; and float,
// 16-bit and 8-bit frames can be in flight together.
TEST(CudaEngineFloat, SubGrayTextureAndMixedFramesInFlight) {
  SV_REQUIRE_CUDA_DEVICE();
  const int shift = 6;
  const auto floats = test::sub_gray_shifted_pair(80, 40, shift, 31);
  const auto deep = test::low_byte_shifted_pair(80, 40, 3, 32);
  StereoParams params;
  params.num_disparities = 16;
  CpuEngine cpu;
  const ImageI16 expected_f = cpu.compute(floats.left, floats.right, params).disparity_fixed;
  const ImageI16 expected16 = cpu.compute(deep.left, deep.right, params).disparity_fixed;
  EXPECT_EQ(expected_f.at(40, 20), shift * 16);

  cuda::CudaEngine gpu;
  gpu.submit(floats.left, floats.right, params);
  gpu.submit(deep.left, deep.right, params);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected_f);
  gpu.submit(floats.left, floats.right, params);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected_f);
}

TEST(CudaEngineFloat, RefusesWhatOnlyEightBitsCanDo) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::sub_gray_shifted_pair(64, 32, 2, 33);
  cuda::CudaEngine gpu;
  StereoParams params;
  params.num_disparities = 16;
  params.algorithm = "bm-sad";
  EXPECT_FALSE(gpu.supports_float_input(params));
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
  params.algorithm = "census-sgm";
  params.pyramid_levels = 1;
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
  params.pyramid_levels = 0;
  EXPECT_THROW(gpu.compute(pair.left, ImageF32(64, 31), params), InputError);
  EXPECT_EQ(gpu.frames_in_flight(), 0);
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed,
            CpuEngine().compute(pair.left, pair.right, params).disparity_fixed);
}

}  // namespace
}  // namespace sv
