// The whole CUDA pipeline against the CPU reference engine: same parameters, same fixed-point
// disparities, bit for bit, for every algorithm and the variants that change the kernels used.
#include <gtest/gtest.h>

#include "cuda/cuda_engine.h"
#include "cuda/stages.h"
#include "src/core/disparity.h"
#include "src/core/speckle_filter.h"
#include "src/core/colorize.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

struct EngineCase {
  std::string algorithm;
  int width, height;
  int min_disparity, disparities;
  int paths;
  int pyramid_levels;
};

std::ostream& operator<<(std::ostream& os, const EngineCase& c) {
  return os << c.algorithm << " " << c.width << "x" << c.height << " d[" << c.min_disparity << ", +"
            << c.disparities << ") paths " << c.paths << " L" << c.pyramid_levels;
}

class CudaEqualsCpu : public ::testing::TestWithParam<EngineCase> {};

TEST_P(CudaEqualsCpu, SameFixedPointDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const EngineCase c = GetParam();
  const SyntheticFrame frame =
      test::render_synthetic(c.width, c.height, std::max(4, c.min_disparity + c.disparities), 3);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);

  StereoParams params;
  params.algorithm = c.algorithm;
  params.min_disparity = c.min_disparity;
  params.num_disparities = c.disparities;
  params.sgm_paths = c.paths;
  params.pyramid_levels = c.pyramid_levels;

  cuda::CudaEngine gpu;
  const DisparityResult expected = CpuEngine().compute(left, right, params);
  const DisparityResult actual = gpu.compute(left, right, params);
  EXPECT_EQ(actual.disparity_fixed, expected.disparity_fixed) << c;
  EXPECT_EQ(actual.disparity, expected.disparity) << c;

  // The same engine again (buffers reused) gives the same answer.
  EXPECT_EQ(gpu.compute(left, right, params).disparity_fixed, expected.disparity_fixed) << c;
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, CudaEqualsCpu,
    ::testing::Values(EngineCase{"census-sgm", 33, 17, 0, 16, 8, 0},
                      EngineCase{"census-sgm", 641, 479, 0, 64, 8, 0},
                      EngineCase{"census-sgm", 641, 479, 0, 128, 4, 0},
                      EngineCase{"census-sgm", 641, 479, -5, 37, 8, 0},
                      EngineCase{"census-sgm", 641, 479, 0, 256, 8, 0},
                      EngineCase{"census-sgm", 641, 479, 0, 128, 8, 2},
                      EngineCase{"census-sgm", 1920, 1080, 0, 128, 8, 0},
                      EngineCase{"rank-sgm", 641, 479, 0, 64, 8, 0},
                      EngineCase{"rank-sgm", 641, 479, -3, 100, 4, 1},
                      EngineCase{"bm-sad", 641, 479, 0, 64, 8, 0},
                      EngineCase{"bm-sad", 641, 479, 0, 64, 8, 1},
                      EngineCase{"bm-sad", 1920, 1080, -3, 130, 8, 0},
                      EngineCase{"bm-ssd", 641, 479, -5, 37, 8, 0},
                      EngineCase{"bm-zncc", 641, 479, 0, 64, 8, 0}));

TEST(CudaEngine, PostProcessingVariantsEqualTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const SyntheticFrame frame =
      test::render_synthetic(321, 239, 48, 1);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);
  cuda::CudaEngine gpu;
  CpuEngine cpu;
  StereoParams base;
  base.num_disparities = 48;
  std::vector<StereoParams> variants;
  for (int median : {0, 3, 5}) {
    StereoParams p = base;
    p.median = median;
    variants.push_back(p);
  }
  StereoParams no_checks = base;
  no_checks.lr_check = false;
  no_checks.uniqueness = 0;
  no_checks.fill_holes = false;
  no_checks.subpixel = false;
  variants.push_back(no_checks);
  StereoParams speckles = base;
  speckles.speckle_size = 50;
  speckles.speckle_range = 2;
  variants.push_back(speckles);
  StereoParams high_p2 = base;  // P2 + 64 > 255: the general 16-bit SGM path
  high_p2.p2 = 220;
  variants.push_back(high_p2);
  StereoParams adaptive = base;
  adaptive.adaptive_p2 = true;
  adaptive.census = CensusWindow::W5x5;
  variants.push_back(adaptive);
  for (const StereoParams& p : variants) {
    EXPECT_EQ(gpu.compute(left, right, p).disparity_fixed, cpu.compute(left, right, p).disparity_fixed)
        << "median " << p.median << " lr " << p.lr_check << " speckle " << p.speckle_size
        << " adaptive " << p.adaptive_p2;
  }
}

// Speckle removal by union-find on the GPU equals the sequential flood fill: random maps with many
// small regions, a few large ones and invalid pixels.
TEST(CudaSpeckleFilter, EqualsTheCpuOnRandomMaps) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] : {std::pair{33, 17}, std::pair{641, 479}}) {
    for (int max_size : {2, 7, 60}) {
      ImageI16 map(width, height);
      for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
          const uint8_t h = test::hash_value(x, y, 77);
          // Smooth bands give big regions; the hash breaks them into islands and holes.
          map.at(x, y) = h < 20 ? kInvalidFixedDisparity
                                : static_cast<int16_t>(((x / 9 + y / 7) % 5) * 40 + (h % 3) * 12);
        }
      }
      ImageI16 expected = map;
      remove_speckles(expected, max_size, 1);
      test::GuardedDeviceArray<int16_t> d(map.size(), map.data());
      test::GuardedDeviceArray<int32_t> labels(map.size()), counts(map.size());
      cuda::remove_speckles(d.data(), width, height, max_size, 1, labels.data(), counts.data(), nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_EQ(test::to_image(d.download(), width, height), expected) << width << "x" << height << " size " << max_size;
      EXPECT_TRUE(d.guards_intact() && labels.guards_intact() && counts.guards_intact());
      EXPECT_NE(expected, map);  // the case really removes something
    }
  }
}

TEST(CudaColorize, EqualsTheCpuForEveryColormap) {
  SV_REQUIRE_CUDA_DEVICE();
  const int width = 641, height = 479;
  ImageI16 fixed(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const uint8_t h = test::hash_value(x, y, 5);
      // Beyond both ends of the range too, so the clamping is compared as well.
      fixed.at(x, y) = h < 10 ? kInvalidFixedDisparity : static_cast<int16_t>((x * 7 + y * 3) % 1200 - 100);
    }
  }
  const ImageF32 as_float = fixed_to_float_disparity(fixed);
  test::GuardedDeviceArray<int16_t> d(fixed.size(), fixed.data());
  test::GuardedDeviceArray<uchar4> rgba(fixed.size());
  for (Colormap map : {Colormap::Turbo, Colormap::Jet, Colormap::Inferno, Colormap::Gray}) {
    const float lo = 2.5f, hi = 61.0f;
    cuda::colorize_disparity(d.data(), width, height, lo, colorize_inverse_range(lo, hi), map,
                             Rgb8{1, 2, 3}, rgba.data(), nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    const ImageRgb8 expected = colorize_disparity(as_float, lo, hi, map, Rgb8{1, 2, 3});
    const std::vector<uchar4> actual = rgba.download();
    size_t mismatches = 0;
    for (size_t i = 0; i < actual.size(); ++i) {
      const Rgb8 e = expected.data()[i];
      mismatches += actual[i].x != e.r || actual[i].y != e.g || actual[i].z != e.b || actual[i].w != 255;
    }
    EXPECT_EQ(mismatches, 0u) << colormap_name(map);
    EXPECT_TRUE(rgba.guards_intact());
  }
}

// Two frames in flight: the second upload overlaps the first computation; results come back in
// order and equal the CPU's.
TEST(CudaEngine, SubmitCollectKeepsTwoFramesInFlight) {
  SV_REQUIRE_CUDA_DEVICE();
  SyntheticSceneConfig config;
  config.width = 320;
  config.height = 240;
  config.max_disparity = 48;
  const SyntheticScene scene(config);
  StereoParams params;
  params.num_disparities = 48;
  cuda::CudaEngine gpu;
  CpuEngine cpu;
  std::vector<ImageI16> expected;
  for (int i = 0; i < 5; ++i) {
    const SyntheticFrame f = scene.render(i);
    expected.push_back(cpu.compute(to_gray(f.left), to_gray(f.right), params).disparity_fixed);
  }
  int collected = 0;
  for (int i = 0; i < 5; ++i) {
    const SyntheticFrame f = scene.render(i);
    gpu.submit(test::request_of(to_gray(f.left), to_gray(f.right), params));
    // A third frame in flight is finished into a host result at the next submit.
    if (gpu.frames_in_flight() == 3) {
      EXPECT_EQ(gpu.collect().disparity_fixed, expected[collected]) << collected;
      ++collected;
    }
  }
  while (gpu.frames_in_flight() > 0) {
    EXPECT_EQ(gpu.collect().disparity_fixed, expected[collected]) << collected;
    ++collected;
  }
  EXPECT_EQ(collected, 5);
  EXPECT_THROW(gpu.collect(), RuntimeError);
}

TEST(CudaEngine, ReportsGpuStageTimingsAndRejectsBadInput) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pair = test::shifted_pair(96, 64, 5, 3, 1);
  cuda::CudaEngine gpu;
  StereoParams params;
  params.num_disparities = 16;
  const DisparityResult r = gpu.compute(pair.left, pair.right, params);
  std::vector<std::string> names;
  for (const auto& s : r.timings.stages) names.push_back(s.stage);
  // The fast SGM fuses WTA and the LR check; with P2 + 64 > 255 the general stages run.
  for (const char* stage : {"upload", "census", "cost", "sgm", "wta+lr", "median", "fill", "download"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), stage), names.end()) << stage;
  }
  StereoParams high_p2 = params;
  high_p2.p2 = 220;
  names.clear();
  for (const auto& s : gpu.compute(pair.left, pair.right, high_p2).timings.stages) names.push_back(s.stage);
  for (const char* stage : {"cost", "sgm", "wta", "lr-check"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), stage), names.end()) << stage;
  }
  EXPECT_THROW(gpu.compute(pair.left, ImageU8(95, 64), params), InputError);
  params.window = 4;
  EXPECT_THROW(gpu.compute(pair.left, pair.right, params), InputError);
}

}  // namespace
}  // namespace sv
