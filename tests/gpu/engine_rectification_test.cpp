// Rectification inside the CUDA engine (FrameRequest::rectification, can_rectify): the engine given RAW
// pairs and the maps must give exactly what the CPU engine gives on the pair rectified on the
// host (remap_bilinear), for colour, gray, 16-bit and float input, with the rectified colour
// views in the result equal to the host's; two raw frames in flight; turning it off and on; and
// a pair of the wrong size refused.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "cuda/cuda_engine.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/remap.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/rectification_maps.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

constexpr int kWidth = 203, kHeight = 121;  // odd, not a multiple of 32

struct RawPair {
  ImageRgb8 left, right;
};

RawPair raw_pair(int frame) {
  const SyntheticFrame f = test::render_synthetic(kWidth, kHeight, 40, frame);
  return {f.left, f.right};
}

std::shared_ptr<const RectificationMaps> maps() {
  static const auto shared =
      std::make_shared<const RectificationMaps>(test::lens_like_rectification(kWidth, kHeight));
  return shared;
}

StereoParams params_for(const std::string& algorithm, int pyramid_levels = 0) {
  StereoParams params;
  params.algorithm = algorithm;
  params.num_disparities = 48;
  params.pyramid_levels = pyramid_levels;
  if (algorithm == "bm-sad") params.window = 7;
  return params;
}

::testing::AssertionResult same_disparities(const DisparityResult& expected,
                                            const DisparityResult& actual) {
  if (!(expected.disparity_fixed == actual.disparity_fixed)) {
    int differ = 0;
    for (size_t i = 0; i < expected.disparity_fixed.size(); ++i) {
      differ += i < actual.disparity_fixed.size() &&
                expected.disparity_fixed.data()[i] != actual.disparity_fixed.data()[i];
    }
    return ::testing::AssertionFailure() << differ << " disparities differ";
  }
  int valid = 0;
  for (size_t i = 0; i < expected.disparity.size(); ++i) valid += std::isfinite(expected.disparity.data()[i]);
  // A real comparison: most of the image matched.
  if (valid < static_cast<int>(expected.disparity.size()) / 2) {
    return ::testing::AssertionFailure() << "only " << valid << " valid disparities";
  }
  return ::testing::AssertionSuccess();
}

TEST(CudaEngineRectification, RawColourPairsEqualTheCpuEngineOnTheHostRectifiedPair) {
  SV_REQUIRE_CUDA_DEVICE();
  const RawPair raw = raw_pair(1);
  ImageRgb8 left = raw.left, right = raw.right;
  rectify_pair(*maps(), left, right);
  ASSERT_NE(left, raw.left);  // the maps do move the views

  cuda::CudaEngine engine;
  ASSERT_TRUE(engine.can_rectify());
  CpuEngine cpu;
  EXPECT_FALSE(cpu.can_rectify());
  for (const auto& [algorithm, levels] :
       {std::pair<std::string, int>{"census-sgm", 0}, {"census-sgm", 1}, {"bm-sad", 1}, {"esaw", 0}}) {
    SCOPED_TRACE(algorithm + " pyramid " + std::to_string(levels));
    const StereoParams params = params_for(algorithm, levels);
    const DisparityResult expected = cpu.compute(left, right, params);
    const DisparityResult actual = engine.compute(test::request_of(raw.left, raw.right, params, maps()));
    EXPECT_TRUE(same_disparities(expected, actual));
    EXPECT_EQ(actual.rectified_left, left);
    EXPECT_EQ(actual.rectified_right, right);
    EXPECT_TRUE(expected.rectified_left.empty());
    // The CPU engine rectifies a request's raw pair on the host: the same frame.
    const DisparityResult on_host = cpu.compute(test::request_of(raw.left, raw.right, params, maps()));
    EXPECT_EQ(on_host.disparity_fixed, actual.disparity_fixed);
    EXPECT_EQ(on_host.rectified_left, left);
  }
}

TEST(CudaEngineRectification, GraySixteenBitAndFloatRawPairs) {
  SV_REQUIRE_CUDA_DEVICE();
  const RawPair raw = raw_pair(2);
  cuda::CudaEngine engine;
  CpuEngine cpu;
  const StereoParams params = params_for("census-sgm");

  ImageU8 gray_left = to_gray(raw.left), gray_right = to_gray(raw.right);
  const DisparityResult gray = engine.compute(test::request_of(gray_left, gray_right, params, maps()));
  rectify_pair(*maps(), gray_left, gray_right);
  EXPECT_TRUE(same_disparities(cpu.compute(gray_left, gray_right, params), gray));
  EXPECT_TRUE(gray.rectified_left.empty());  // views come back for colour pairs only

  ImageU16 left16(kWidth, kHeight), right16(kWidth, kHeight);
  ImageF32 leftf(kWidth, kHeight), rightf(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      left16.at(x, y) = static_cast<uint16_t>(to_gray(raw.left).at(x, y) * 256 + test::hash_value(x, y, 1));
      right16.at(x, y) = static_cast<uint16_t>(to_gray(raw.right).at(x, y) * 256 + test::hash_value(x, y, 2));
      leftf.at(x, y) = left16.at(x, y) / 64.0f;
      rightf.at(x, y) = right16.at(x, y) / 64.0f;
    }
  }
  ASSERT_TRUE(engine.supports_high_bit_depth(params));
  const DisparityResult deep = engine.compute(test::request_of(left16, right16, params, maps()));
  rectify_pair(*maps(), left16, right16);
  EXPECT_TRUE(same_disparities(cpu.compute(left16, right16, params), deep));

  ASSERT_TRUE(engine.supports_float_input(params));
  const DisparityResult floats = engine.compute(test::request_of(leftf, rightf, params, maps()));
  rectify_pair(*maps(), leftf, rightf);  // NaN borders: missing pixels for the census
  EXPECT_TRUE(same_disparities(cpu.compute(leftf, rightf, params), floats));
}

TEST(CudaEngineRectification, TwoRawFramesInFlight) {
  SV_REQUIRE_CUDA_DEVICE();
  const RawPair a = raw_pair(3), b = raw_pair(7);
  cuda::CudaEngine engine;
  CpuEngine cpu;
  const StereoParams params = params_for("census-sgm");
  engine.submit(test::request_of(a.left, a.right, params, maps()));
  engine.submit(test::request_of(b.left, b.right, params, maps()));
  const DisparityResult first = engine.collect();
  const DisparityResult second = engine.collect();
  for (const auto& [raw, result] : {std::pair<const RawPair*, const DisparityResult*>{&a, &first}, {&b, &second}}) {
    ImageRgb8 left = raw->left, right = raw->right;
    rectify_pair(*maps(), left, right);
    EXPECT_TRUE(same_disparities(cpu.compute(left, right, params), *result));
    EXPECT_EQ(result->rectified_left, left);
  }
}

TEST(CudaEngineRectification, OffOnAndNewMaps) {
  SV_REQUIRE_CUDA_DEVICE();
  const RawPair raw = raw_pair(4);
  cuda::CudaEngine engine;
  CpuEngine cpu;
  const StereoParams params = params_for("census-sgm");
  // Maps, then none: the pair is matched as it is.
  engine.compute(test::request_of(raw.left, raw.right, params, maps()));
  const DisparityResult off = engine.compute(raw.left, raw.right, params);
  EXPECT_TRUE(same_disparities(cpu.compute(raw.left, raw.right, params), off));
  EXPECT_TRUE(off.rectified_left.empty());
  // Other maps (the right view's maps swapped in): uploaded anew and used.
  auto swapped = std::make_shared<RectificationMaps>(*maps());
  std::swap(swapped->left_x, swapped->right_x);
  std::swap(swapped->left_y, swapped->right_y);
  ImageRgb8 left = raw.left, right = raw.right;
  rectify_pair(*swapped, left, right);
  const DisparityResult on = engine.compute(test::request_of(raw.left, raw.right, params, swapped));
  EXPECT_EQ(on.rectified_left, left);
  EXPECT_TRUE(same_disparities(cpu.compute(left, right, params), on));
}

TEST(CudaEngineRectification, APairOfAnotherSizeOrBadMapsAreInputErrors) {
  SV_REQUIRE_CUDA_DEVICE();
  cuda::CudaEngine engine;
  const StereoParams params = params_for("census-sgm");
  const SyntheticFrame small = test::render_synthetic(kWidth - 1, kHeight, 40, 0);
  EXPECT_THROW(engine.compute(test::request_of(small.left, small.right, params, maps())), InputError);
  EXPECT_THROW(engine.compute(test::request_of(to_gray(small.left), to_gray(small.right), params, maps())),
               InputError);
  auto bad = std::make_shared<RectificationMaps>(*maps());
  bad->right_y = ImageF32(3, 3);
  const RawPair raw = raw_pair(5);
  EXPECT_THROW(engine.compute(test::request_of(raw.left, raw.right, params, bad)), InputError);
  // The engine still works with good maps.
  EXPECT_EQ(engine.compute(test::request_of(raw.left, raw.right, params, maps())).rectified_left.width(), kWidth);
}

}  // namespace
}  // namespace sv
