// 16-bit input through the CUDA engine against the CPU reference engine (src/core/high_bit_depth.h):
// the same fixed-point disparities bit for bit, for census windows up to 11x11, missing values
// inside and above the byte range, both SGM kernels (the fast 8-bit path costs and, with P2 too
// large for them, the general stages), and 8-bit and 16-bit frames in flight together. Float input
// the same way (NaN, infinities, signed zeros and a missing value in the pair; the range view
// kernel against eight_bit_value). And the pyramid on both: the full-depth 2x2 reduction kernels
// against the CPU's (missing samples, NaN, infinities, subnormals), the whole engine with 1 and 2
// levels on awkward sizes, and frames of every depth with pyramid levels in flight together.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/full_depth_pyramid.h"
#include "cuda/stages.h"
#include "src/core/block_pool.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/pyramid.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/float_pairs.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/test_images.h"
#include "tests/support/requests.h"

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
  gpu.submit(test::request_of(deep.left, deep.right, params));
  gpu.submit(test::request_of(left8, right8, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
  gpu.submit(test::request_of(deep.left, deep.right, params));
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
  params.pyramid_levels = 5;  // too small for 5 levels
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
    test::GuardedDeviceArray<float> d_values(values.size(), values.data());
    test::GuardedDeviceArray<FloatViewRange> d_range(1, &range);
    test::GuardedDeviceArray<uint8_t> d_view(values.size());
    cuda::eight_bit_view(d_values.data(), width, 1, d_range.data(), d_view.data(), nullptr);
    const std::vector<uint8_t> view = d_view.download();
    EXPECT_TRUE(d_view.guards_intact());
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(view[i], eight_bit_value(values[i], range))
          << "value " << values[i] << " lo " << range.lo << " scale " << range.scale;
    }
  }
}

// The pair's range found on the GPU (issue 18: no host pass over float planes) against
// float_view_range, on pairs that test its rules: missing values, NaN and infinities skipped, a
// flat pair and one without a finite value (no range), a span too small or too large for a finite
// scale, signed zeros, planes of one value and of a million; and the 8-bit views made from it.
TEST(CudaFloatView, RangeFoundOnTheGpuEqualsTheCpus) {
  SV_REQUIRE_CUDA_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::string name;
    ImageF32 left, right;
    float missing;  // StereoParams::missing_value (-1: none)
  };
  std::vector<Case> cases;
  auto plane = [](int width, int height, float (*value)(int)) {
    ImageF32 image(width, height);
    for (int i = 0; i < static_cast<int>(image.size()); ++i) image.data()[i] = value(i);
    return image;
  };
  cases.push_back({"ramps", plane(97, 31, [](int i) { return -3.5f + i * 0.01f; }),
                   plane(97, 31, [](int i) { return 2.0f - i * 0.003f; }), -1.0f});
  cases.push_back({"non-finite and missing skipped",
                   plane(64, 8, [](int i) {
                     const float specials[4] = {std::numeric_limits<float>::quiet_NaN(),
                                                std::numeric_limits<float>::infinity(),
                                                -std::numeric_limits<float>::infinity(), 7.0f};
                     return i % 5 == 0 ? specials[(i / 5) % 4] : 0.25f * (i % 13);
                   }),
                   plane(64, 8, [](int i) { return i == 100 ? 7.0f : -1.0f + 0.5f * (i % 3); }), 7.0f});
  cases.push_back({"flat", ImageF32(40, 20, 3.0f), ImageF32(40, 20, 3.0f), -1.0f});
  cases.push_back({"no finite value", ImageF32(16, 4, nan), ImageF32(16, 4, inf), -1.0f});
  cases.push_back({"all missing", ImageF32(16, 4, 5.0f), ImageF32(16, 4, 5.0f), 5.0f});
  cases.push_back({"span below a finite scale", ImageF32(8, 1, 1e-38f),
                   plane(8, 1, [](int i) { return i == 3 ? 1.0000001e-38f : 1e-38f; }), -1.0f});
  cases.push_back({"span beyond float", ImageF32(8, 2, -3e38f), ImageF32(8, 2, 3e38f), -1.0f});
  cases.push_back({"signed zeros", plane(33, 3, [](int i) { return i % 2 ? -0.0f : 0.0f; }),
                   plane(33, 3, [](int i) { return i == 50 ? -2.0f : -0.0f; }), -1.0f});
  cases.push_back({"one pixel", ImageF32(1, 1, -4.0f), ImageF32(1, 1, 9.0f), -1.0f});
  cases.push_back({"a million pixels", plane(1000, 1000, [](int i) { return std::sin(i * 0.001f) * 1e4f; }),
                   plane(1000, 1000, [](int i) { return i == 777777 ? 1e5f : 0.5f; }), -1.0f});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StereoParams params;
    params.missing_value = c.missing;
    const FloatViewRange cpu = float_view_range(c.left, c.right, params);
    const size_t pixels = c.left.size();
    test::GuardedDeviceArray<float> left(pixels, c.left.data()), right(pixels, c.right.data());
    test::GuardedDeviceArray<int> keys(2);
    test::GuardedDeviceArray<FloatViewRange> range(1);
    test::GuardedDeviceArray<uint8_t> view(pixels);
    cuda::float_view_range(left.data(), right.data(), pixels, float_missing_value(params), keys.data(),
                           range.data(), nullptr);
    cuda::eight_bit_view(left.data(), c.left.width(), c.left.height(), range.data(), view.data(), nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const FloatViewRange gpu = range.download()[0];
    EXPECT_EQ(gpu.lo, cpu.lo);  // == : a zero end may differ in sign only
    EXPECT_EQ(gpu.scale, cpu.scale);
    const ImageU8 cpu_view = eight_bit_view(c.left, cpu);
    EXPECT_EQ(view.download(), std::vector<uint8_t>(cpu_view.data(), cpu_view.data() + cpu_view.size()));
    EXPECT_TRUE(keys.guards_intact() && range.guards_intact() && view.guards_intact());
  }
}

// Float pairs in device memory and in pooled pinned blocks (no staging copy) give the host
// pair's disparities, which are the CPU's, raw and through the engine's rectification.
TEST(CudaEngineFloat, DeviceAndPooledPairsEqualHostPairs) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::sub_gray_shifted_pair(96, 48, 5, 41);
  StereoParams params;
  params.num_disparities = 16;
  const ImageI16 expected = CpuEngine().compute(pair.left, pair.right, params).disparity_fixed;
  cuda::CudaEngine gpu;
  const DisparityResult host = gpu.compute(test::request_of(pair.left, pair.right, params));
  EXPECT_EQ(host.disparity_fixed, expected);

  test::GuardedDeviceArray<float> device_left(pair.left.size(), pair.left.data());
  test::GuardedDeviceArray<float> device_right(pair.right.size(), pair.right.data());
  FrameRequest request = test::request_of(pair.left, pair.right, params);
  request.pair.memory = MemorySpace::Device;
  request.pair.left = device_left.data();
  request.pair.right = device_right.data();
  EXPECT_EQ(gpu.compute(request).disparity_fixed, expected);
  test::GuardedDeviceArray<int16_t> out_fixed(pair.left.size());
  gpu.compute_on_device(request.pair, params, out_fixed.data(), nullptr, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<int16_t> fixed = out_fixed.download();
  EXPECT_TRUE(std::equal(fixed.begin(), fixed.end(), expected.data()));
  EXPECT_TRUE(out_fixed.guards_intact());

  BlockPool pool(gpu.host_memory(), 4);
  const ImageF32 pooled_left = pooled_copy(&pool, pair.left), pooled_right = pooled_copy(&pool, pair.right);
  ASSERT_TRUE(pooled_left.block() && pooled_left.block()->memory().pinned());
  const DisparityResult pooled = gpu.compute(test::request_of(pooled_left, pooled_right, params));
  EXPECT_EQ(pooled.disparity_fixed, expected);
  EXPECT_EQ(pooled.timings.host_copy_ms, 0.0) << "a pooled float pair goes up as it is";
  EXPECT_GT(host.timings.host_copy_ms, 0.0);
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
  gpu.submit(test::request_of(floats.left, floats.right, params));
  gpu.submit(test::request_of(deep.left, deep.right, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, expected_f);
  gpu.submit(test::request_of(floats.left, floats.right, params));
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
  params.pyramid_levels = 5;  // too small for 5 levels
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
  params.pyramid_levels = 0;
  EXPECT_THROW(gpu.compute(pair.left, ImageF32(64, 31), params), InputError);
  EXPECT_EQ(gpu.frames_in_flight(), 0);
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed,
            CpuEngine().compute(pair.left, pair.right, params).disparity_fixed);
}


// ---- The pyramid on 16-bit and float input (src/core/pyramid.cpp) ----

// The reduction kernels against the CPU's, on values that exercise every rule: blocks with 0..4
// missing samples, means that land on the missing value, values at both ends of the range;
// float: NaN, both infinities (together too), signed zeros, subnormals, the largest floats.
template <typename T, typename Missing>
void expect_gpu_reduction_equals_cpu(const Image<T>& image, Missing missing, const char* what) {
  test::GuardedDeviceArray<T> in(image.size(), image.data());
  const ImageU8 probe((image.width() + 1) / 2, (image.height() + 1) / 2);
  test::GuardedDeviceArray<T> out(probe.size());
  cuda::downsample_2x2(in.data(), image.width(), image.height(), missing, out.data(), nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(out.guards_intact()) << what;
  const Image<T> expected = downsample_2x2(image, missing);
  const std::vector<T> actual = out.download();
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    // Bitwise, so NaN equals NaN and -0 differs from +0.
    ASSERT_EQ(std::memcmp(&actual[i], &expected.data()[i], sizeof(T)), 0)
        << what << " " << image.width() << "x" << image.height() << " missing " << missing
        << " at " << i << ": " << actual[i] << " vs " << expected.data()[i];
  }
}

ImageU16 awkward_u16(int width, int height, int missing) {
  ImageU16 image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int h = test::hash_value(x, y, 11);
      uint16_t v = static_cast<uint16_t>(h * 256 + test::hash_value(x, y, 12));
      if (h < 40 && missing >= 0) v = static_cast<uint16_t>(missing);           // holes
      else if (h < 60 && missing >= 0) v = static_cast<uint16_t>(missing + (x & 1 ? 1 : -1));  // around it
      else if (h > 250) v = 65535;
      image.at(x, y) = v;
    }
  }
  return image;
}

TEST(CudaPyramid16, ReductionEqualsTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] : {std::pair{641, 479}, {33, 17}, {1, 1}, {3, 1}, {1, 5}, {64, 32}}) {
    for (const int missing : {-1, 0, 100, 300, 65535}) {
      ImageU16 image = awkward_u16(w, h, missing);
      if (missing == 65535) {
        for (auto& v : image.pixels()) v = static_cast<uint16_t>(v == 0 ? 65534 : v);
      }
      expect_gpu_reduction_equals_cpu(image, missing, "u16");
    }
  }
}

ImageF32 awkward_float(int width, int height, float missing) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {nan, inf, -inf, 0.0f, -0.0f, std::numeric_limits<float>::denorm_min(),
                            -3e-39f, std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(), 1.0f / 3.0f};
  ImageF32 image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int h = test::hash_value(x, y, 13);
      float v = -50.0f + 0.7f * h + test::hash_value(x, y, 14) * 1.3e-4f;
      if (h < 30) v = specials[h % 10];
      else if (h < 50 && !std::isnan(missing)) v = missing;
      else if (h < 60 && !std::isnan(missing)) v = missing + (x & 1 ? 0.5f : -0.5f);  // mean == missing
      image.at(x, y) = v;
    }
  }
  return image;
}

TEST(CudaPyramidFloat, ReductionEqualsTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] : {std::pair{641, 479}, {33, 17}, {1, 1}, {3, 1}, {1, 5}, {64, 32}}) {
    for (const float missing : {std::numeric_limits<float>::quiet_NaN(), 0.0f, 7.0f, 40.0f}) {
      expect_gpu_reduction_equals_cpu(awkward_float(w, h, missing), missing, "float");
    }
  }
}

struct PyramidCase {
  Case16 base;
  int levels;
};

std::ostream& operator<<(std::ostream& os, const PyramidCase& c) {
  return os << c.base << " pyramid " << c.levels;
}

StereoParams params_of(const PyramidCase& c) {
  StereoParams params = params_of(c.base);
  params.pyramid_levels = c.levels;
  return params;
}

// Both engines on one full-depth pair (16-bit or float): equal fixed-point disparities (twice on
// the GPU, so reused buffers show), confidences within 1e-6, and real matches.
template <class Pair>
void expect_pyramid_gpu_equals_cpu(const Pair& pair, const PyramidCase& c) {
  const StereoParams params = params_of(c);
  cuda::CudaEngine gpu;
  const DisparityResult expected = CpuEngine().compute(pair.left, pair.right, params);
  const DisparityResult actual = gpu.compute(pair.left, pair.right, params);
  EXPECT_EQ(actual.disparity_fixed, expected.disparity_fixed) << c;
  if (c.base.confidence) {
    ASSERT_EQ(actual.confidence.size(), expected.confidence.size()) << c;
    for (size_t i = 0; i < expected.confidence.size(); ++i) {
      ASSERT_NEAR(actual.confidence.data()[i], expected.confidence.data()[i], 1e-6f) << c << " at " << i;
    }
  }
  int valid = 0;
  for (const int16_t d : expected.disparity_fixed.pixels()) valid += is_valid_fixed_disparity(d);
  EXPECT_GT(valid, static_cast<int>(expected.disparity_fixed.size() / 4)) << c << ": needs real matches";
  EXPECT_EQ(gpu.compute(pair.left, pair.right, params).disparity_fixed, expected.disparity_fixed) << c;
}

// The whole engine, coarse levels matched on full-depth reductions, fine levels refined through
// per-pixel ranges: the GPU's fixed-point disparities equal the CPU's bit for bit.
class CudaEqualsCpuPyramid16 : public ::testing::TestWithParam<PyramidCase> {};

TEST_P(CudaEqualsCpuPyramid16, SameFixedPointDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const PyramidCase c = GetParam();
  const Case16& b = c.base;
  ASSERT_TRUE(cuda::CudaEngine().supports_high_bit_depth(params_of(c)));
  expect_pyramid_gpu_equals_cpu(
      scene16(b.width, b.height, std::max(4, b.min_disparity + b.disparities), b.missing), c);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CudaEqualsCpuPyramid16,
    ::testing::Values(PyramidCase{{33, 17, 0, 16, CensusWindow::W9x7, -1, 8, 40, false, false}, 1},
                      PyramidCase{{33, 17, -3, 21, CensusWindow::W5x5, 0, 8, 40, false, false}, 1},
                      PyramidCase{{67, 35, 0, 24, CensusWindow::W9x7, 300, 4, 40, true, false}, 2},
                      PyramidCase{{641, 479, 0, 64, CensusWindow::W9x7, -1, 8, 40, false, false}, 1},
                      PyramidCase{{641, 479, 0, 64, CensusWindow::W9x7, 0, 8, 40, false, true}, 2},
                      PyramidCase{{641, 479, -5, 37, CensusWindow::W11x11, 65535, 8, 40, true, false}, 1},
                      PyramidCase{{641, 479, 0, 128, CensusWindow::W9x9, 1000, 8, 200, false, false}, 2}));

class CudaEqualsCpuPyramidFloat : public ::testing::TestWithParam<PyramidCase> {};

TEST_P(CudaEqualsCpuPyramidFloat, SameFixedPointDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const PyramidCase c = GetParam();
  const Case16& b = c.base;
  ASSERT_TRUE(cuda::CudaEngine().supports_float_input(params_of(c)));
  expect_pyramid_gpu_equals_cpu(
      scene_float(b.width, b.height, std::max(4, b.min_disparity + b.disparities), b.missing), c);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CudaEqualsCpuPyramidFloat,
    ::testing::Values(PyramidCase{{33, 17, 0, 16, CensusWindow::W9x7, -1, 8, 120, false, false}, 1},
                      PyramidCase{{33, 17, -3, 21, CensusWindow::W5x5, 0, 4, 120, false, false}, 1},
                      PyramidCase{{67, 35, 0, 24, CensusWindow::W9x7, 7, 8, 120, true, false}, 2},
                      PyramidCase{{641, 479, 0, 64, CensusWindow::W9x7, -1, 8, 120, false, false}, 1},
                      PyramidCase{{641, 479, 0, 64, CensusWindow::W11x11, 40, 8, 120, true, true}, 2},
                      PyramidCase{{641, 479, 2, 96, CensusWindow::W7x7, 0, 8, 200, false, false}, 2}));

// The texture only the full depth holds is found through the pyramid on the GPU too; and 16-bit,
// float and 8-bit frames with pyramid levels share the two slots while in flight.
TEST(CudaEnginePyramid, FullDepthTextureAndMixedFramesInFlight) {
  SV_REQUIRE_CUDA_DEVICE();
  const int shift = 12;
  const auto deep = test::low_byte_shifted_pair(96, 64, shift, 41);
  const auto floats = test::sub_gray_shifted_pair(96, 64, shift, 45);
  const ImageU8 left8 = test::random_texture(96, 64, 5, 1), right8 = test::random_texture(96, 64, 6, 1);
  StereoParams params;
  params.num_disparities = 32;
  params.pyramid_levels = 2;
  params.subpixel = false;
  CpuEngine cpu;
  const ImageI16 expected16 = cpu.compute(deep.left, deep.right, params).disparity_fixed;
  const ImageI16 expected_f = cpu.compute(floats.left, floats.right, params).disparity_fixed;
  const ImageI16 expected8 = cpu.compute(left8, right8, params).disparity_fixed;
  EXPECT_EQ(expected16.at(48, 32), shift * 16);
  EXPECT_EQ(expected_f.at(48, 32), shift * 16);

  cuda::CudaEngine gpu;
  gpu.submit(test::request_of(deep.left, deep.right, params));
  gpu.submit(test::request_of(floats.left, floats.right, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
  gpu.submit(test::request_of(left8, right8, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, expected_f);
  gpu.submit(test::request_of(deep.left, deep.right, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, expected8);
  EXPECT_EQ(gpu.collect().disparity_fixed, expected16);
}

}  // namespace
}  // namespace sv
