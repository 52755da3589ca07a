// The confidence and repair stages of the CUDA engine (confidence.cu, disparity_repair.cu and the
// cost peaks of the fused selection) against the CPU reference (src/core/confidence.cpp,
// disparity_repair.cpp): disparities bit for bit, confidences within kTolerance (the same float
// operations in the same order, no FMA, so they are expected equal; the tolerance only absorbs
// a compiler reordering we did not foresee). Awkward sizes; every device buffer guarded.
#include "src/core/confidence.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "cuda/confidence_stages.h"
#include "cuda/cuda_engine.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/disparity_repair.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

constexpr float kTolerance = 1e-6f;
constexpr float kInf = std::numeric_limits<float>::infinity();

// Largest |a - b| over two float images of one size; infinities must sit at the same pixels.
float max_difference(const ImageF32& a, const ImageF32& b) {
  EXPECT_TRUE(a.same_size(b));
  float worst = 0.0f;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) return kInf;
      continue;
    }
    worst = std::max(worst, std::fabs(x - y));
  }
  return worst;
}

uint32_t cost_hash(uint32_t i, uint32_t seed) { return test::hash_value(i % 4093, i / 4093, seed); }

template <typename T>
T random_cost(uint32_t i, uint32_t seed);
template <>
uint8_t random_cost(uint32_t i, uint32_t seed) {
  return static_cast<uint8_t>(cost_hash(i, seed) % 65);
}
template <>
uint16_t random_cost(uint32_t i, uint32_t seed) {
  // A few "no match computed" candidates, and enough ties to exercise the lower-k rule.
  const uint32_t h = cost_hash(i, seed);
  return h < 8 ? 0xFFFF : static_cast<uint16_t>((h % 40) * 37);
}
template <>
uint32_t random_cost(uint32_t i, uint32_t seed) {
  const uint32_t h = cost_hash(i, seed);
  return h < 8 ? std::numeric_limits<uint32_t>::max() : (h << 18) + cost_hash(i, seed + 1);
}
template <>
float random_cost(uint32_t i, uint32_t seed) {
  const uint32_t h = cost_hash(i, seed);
  return h < 8 ? kInf : 2.0f * static_cast<float>(h) / 255.0f - 0.01f;
}

template <typename T>
void check_cost_peaks(int width, int height, int count) {
  CostVolume<T> costs(width, height, SearchRange(0, count));
  for (size_t i = 0; i < costs.costs().size(); ++i)
    costs.costs()[i] = random_cost<T>(static_cast<uint32_t>(i), 11);
  const CostPeaks expected = cost_peaks(costs);

  GuardedDeviceArray<T> d_costs(costs.costs().size(), costs.costs().data());
  GuardedDeviceArray<float2> d_peaks(static_cast<size_t>(width) * height);
  cuda::cost_peaks(d_costs.data(), width, height, count, d_peaks.data(), nullptr);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float2> peaks = d_peaks.download();
  ImageF32 best(width, height), runner_up(width, height);
  for (size_t i = 0; i < peaks.size(); ++i) {
    best.data()[i] = peaks[i].x;
    runner_up.data()[i] = peaks[i].y;
  }
  EXPECT_EQ(best, expected.best) << width << "x" << height << " count " << count;
  EXPECT_EQ(runner_up, expected.runner_up) << width << "x" << height << " count " << count;
  EXPECT_TRUE(d_peaks.guards_intact());
}

TEST(GpuConfidence, CostPeaksEqualTheCpuForEveryCostType) {
  SV_REQUIRE_CUDA_DEVICE();
  check_cost_peaks<uint8_t>(37, 5, 13);
  check_cost_peaks<uint8_t>(1, 1, 2);
  check_cost_peaks<uint16_t>(33, 7, 64);
  check_cost_peaks<uint32_t>(65, 3, 37);
  check_cost_peaks<float>(31, 9, 100);
}

TEST(GpuConfidence, TextureEqualsTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] :
       {std::pair{67, 33}, std::pair{1, 1}, std::pair{5, 70}, std::pair{129, 4}}) {
    const ImageU8 image = test::random_texture(w, h, 5, 1);
    GuardedDeviceArray<uint8_t> d_image(image.size(), image.data());
    GuardedDeviceArray<float> d_texture(image.size());
    for (const auto& [ww, wh] :
         {std::pair{9, 7}, std::pair{3, 3}, std::pair{1, 5}, std::pair{21, 21}}) {
      cuda::texture_deviation(d_image.data(), w, h, ww, wh, d_texture.data(), nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      const ImageF32 actual = test::to_image(d_texture.download(), w, h);
      EXPECT_LE(max_difference(actual, texture_deviation(image, ww, wh)), kTolerance)
          << w << "x" << h << " window " << ww << "x" << wh;
    }
    EXPECT_TRUE(d_texture.guards_intact());
  }
}

// Random inputs of the combination: disparities (some invalid), peaks (some none), texture,
// and a right view that agrees, nearly agrees or disagrees.
struct CombinationInputs {
  ImageI16 disparity, right_view;
  CostPeaks peaks;
  ImageF32 texture;
  CombinationInputs(int w, int h)
      : disparity(w, h), right_view(w, h), peaks{ImageF32(w, h), ImageF32(w, h)}, texture(w, h) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const uint32_t r = test::hash_value(x, y, 3);
        disparity.at(x, y) = r < 20 ? kInvalidFixedDisparity : static_cast<int16_t>(r % 200 - 30);
        right_view.at(x, y) =
            r % 7 == 0 ? kInvalidFixedDisparity : static_cast<int16_t>(16 * ((r / 7) % 12) - 16);
        const float best = static_cast<float>(test::hash_value(x, y, 4));
        peaks.best.at(x, y) = r % 31 == 0 ? kInf : best;
        peaks.runner_up.at(x, y) =
            r % 13 == 0 ? kInf : best + static_cast<float>(test::hash_value(x, y, 6) % 90);
        texture.at(x, y) = static_cast<float>(test::hash_value(x, y, 8)) / 17.0f;
      }
    }
  }
};

TEST(GpuConfidence, CombinationAndThresholdEqualTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const int w = 77, h = 23;
  const size_t n = static_cast<size_t>(w) * h;
  const CombinationInputs in(w, h);
  std::vector<float2> peaks(n);
  for (size_t i = 0; i < n; ++i)
    peaks[i] = make_float2(in.peaks.best.data()[i], in.peaks.runner_up.data()[i]);
  GuardedDeviceArray<int16_t> d_disparity(n, in.disparity.data()), d_right(n, in.right_view.data());
  GuardedDeviceArray<float2> d_peaks(n, peaks.data());
  GuardedDeviceArray<float> d_texture(n, in.texture.data()), d_confidence(n);
  ConfidenceSettings settings;
  settings.cost_ceiling = 300.0f;
  settings.texture_saturation = 4.0f;
  for (int lr_max_diff : {0, 1, 3}) {
    for (bool with_right : {true, false}) {
      settings.lr_max_diff = lr_max_diff;
      cuda::combined_confidence(d_disparity.data(), d_peaks.data(), d_texture.data(),
                                with_right ? d_right.data() : nullptr, w, h, settings,
                                d_confidence.data(), nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      const ImageF32 expected = combined_confidence(
          in.disparity, in.peaks, in.texture, with_right ? in.right_view : ImageI16(), settings);
      const ImageF32 actual = test::to_image(d_confidence.download(), w, h);
      EXPECT_LE(max_difference(actual, expected), kTolerance)
          << "lr " << lr_max_diff << " " << with_right;
      int nonzero = 0;
      for (float c : expected.pixels()) nonzero += c > 0.0f;
      EXPECT_GT(nonzero, static_cast<int>(n / 20));  // the inputs exercise the formula

      // The threshold on the CPU's confidence (the same image) gives the same disparities.
      ImageI16 thresholded = in.disparity;
      apply_confidence_threshold(thresholded, expected, 0.3f);
      GuardedDeviceArray<int16_t> d_thresholded(n, in.disparity.data());
      GuardedDeviceArray<float> d_expected(n, expected.data());
      cuda::apply_confidence_threshold(d_thresholded.data(), d_expected.data(), w, h, 0.3f,
                                       nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_EQ(test::to_image(d_thresholded.download(), w, h), thresholded);
      EXPECT_TRUE(d_thresholded.guards_intact());
    }
  }
  EXPECT_TRUE(d_confidence.guards_intact());
}

TEST(GpuConfidence, RepairEqualsTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] :
       {std::pair{97, 41}, std::pair{1, 30}, std::pair{30, 1}, std::pair{33, 33}}) {
    const size_t n = static_cast<size_t>(w) * h;
    // Piecewise-constant surfaces with noisy outliers, gaps and confidences.
    ImageI16 d(w, h);
    ImageF32 c(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const uint32_t r = test::hash_value(x, y, 21);
        const int surface = 16 * (10 + 7 * ((x / 13 + y / 9) % 3)) + static_cast<int>(r % 9);
        d.at(x, y) = r < 30 ? kInvalidFixedDisparity
                            : static_cast<int16_t>(r < 70 ? 16 * (r % 40) : surface);
        c.at(x, y) = r < 30 ? 0.0f : static_cast<float>(test::hash_value(x, y, 22)) / 255.0f;
      }
    }
    GuardedDeviceArray<int16_t> d_d(n, d.data()), d_scratch(n);
    GuardedDeviceArray<float> d_c(n, c.data()), c_scratch(n);
    cuda::repair_disparity(d_d.data(), d_c.data(), w, h, RepairSettings{}, d_scratch.data(),
                           c_scratch.data(), nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    ImageI16 d_expected = d;
    ImageF32 c_expected = c;
    const int updates = repair_disparity(d_expected, c_expected);
    if (w > 1 && h > 1) {
      EXPECT_GT(updates, 0) << w << "x" << h;
    }
    EXPECT_EQ(test::to_image(d_d.download(), w, h), d_expected) << w << "x" << h;
    EXPECT_LE(max_difference(test::to_image(d_c.download(), w, h), c_expected), kTolerance);
    EXPECT_TRUE(d_d.guards_intact() && d_scratch.guards_intact() && d_c.guards_intact() &&
                c_scratch.guards_intact());
  }
}

struct EngineCase {
  std::string algorithm;
  int width, height;
  int min_disparity, disparities;
  int pyramid_levels;
  bool lr_check;
  bool repair;
  float threshold;
};

std::ostream& operator<<(std::ostream& os, const EngineCase& c) {
  return os << c.algorithm << " " << c.width << "x" << c.height << " d[" << c.min_disparity << ", +"
            << c.disparities << ") L" << c.pyramid_levels << (c.lr_check ? " lr" : "")
            << (c.repair ? " repair" : "") << " t " << c.threshold;
}

class GpuConfidenceEngine : public ::testing::TestWithParam<EngineCase> {};

TEST_P(GpuConfidenceEngine, EqualsTheCpuEngine) {
  SV_REQUIRE_CUDA_DEVICE();
  const EngineCase c = GetParam();
  const SyntheticFrame frame =
      test::render_synthetic(c.width, c.height, std::max(4, c.min_disparity + c.disparities), 5);
  const ImageU8 left = to_gray(frame.left), right = to_gray(frame.right);

  StereoParams params;
  params.algorithm = c.algorithm;
  params.min_disparity = c.min_disparity;
  params.num_disparities = c.disparities;
  params.pyramid_levels = c.pyramid_levels;
  params.lr_check = c.lr_check;
  params.confidence = true;
  params.repair = c.repair;
  params.confidence_threshold = c.threshold;

  cuda::CudaEngine gpu;
  const DisparityResult expected = CpuEngine().compute(left, right, params);
  const DisparityResult actual = gpu.compute(left, right, params);
  EXPECT_EQ(actual.disparity_fixed, expected.disparity_fixed) << c;
  ASSERT_TRUE(actual.confidence.same_size(expected.confidence)) << c;
  EXPECT_LE(max_difference(actual.confidence, expected.confidence), kTolerance) << c;
  float mean = 0.0f;
  for (float v : expected.confidence.pixels()) mean += v;
  EXPECT_GT(mean / expected.confidence.size(), 0.02f) << c;  // not a trivially zero image

  // Off again on the same engine: no confidence, and the disparities of the plain pipeline.
  params.confidence = params.repair = false;
  params.confidence_threshold = 0.0f;
  const DisparityResult plain = gpu.compute(left, right, params);
  EXPECT_TRUE(plain.confidence.empty());
  EXPECT_EQ(plain.disparity_fixed, CpuEngine().compute(left, right, params).disparity_fixed) << c;
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, GpuConfidenceEngine,
    ::testing::Values(
        // census-SGM through the fast path (fused selection writes the peaks).
        EngineCase{"census-sgm", 161, 97, 0, 32, 0, true, false, 0.0f},
        EngineCase{"census-sgm", 333, 121, -3, 45, 0, true, true, 0.1f},
        EngineCase{"census-sgm", 161, 97, 0, 64, 0, false, true, 0.0f},
        // Pyramid: the final level goes through the general SGM path and cost_peaks.
        EngineCase{"census-sgm", 203, 101, 0, 48, 1, true, true, 0.05f},
        EngineCase{"rank-sgm", 161, 97, 0, 32, 0, true, true, 0.1f},
        // Block matching: SAD through the fused 16-bit selection, SSD and ZNCC general.
        EngineCase{"bm-sad", 161, 97, 0, 32, 0, true, true, 0.1f},
        EngineCase{"bm-sad", 97, 61, -2, 20, 0, false, false, 0.2f},
        EngineCase{"bm-ssd", 129, 65, 0, 24, 0, true, true, 0.0f},
        EngineCase{"bm-zncc", 129, 65, 0, 24, 0, true, false, 0.1f}));

}  // namespace
}  // namespace sv
