// Rectification inside the CUDA engine (FrameRequest::rectification, can_rectify): the engine given RAW
// pairs and the maps must give exactly what the CPU engine gives on the pair rectified on the
// host (remap_bilinear), for colour, gray, 16-bit and float input, with the rectified colour
// views in the result equal to the host's; a raw 16-bit or float pair's colour views and planes
// rectified on the GPU too (FrameRequest::views), from host, pooled pinned or device memory; two
// raw frames in flight; turning it off and on; and a pair of the wrong size refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "cuda/cuda_engine.h"
#include "cuda/device_buffer.h"
#include "src/core/block_pool.h"
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

// The views and planes of a raw deep pair, and the result's: bit for bit, NaN where NaN (the
// GPU's and the host's arithmetic make NaNs of different sign and payload; all mean missing).
template <typename T>
bool same_bits(const Image<T>& a, const Image<T>& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
bool same_bits(const ImageF32& a, const ImageF32& b) {
  if (!a.same_size(b)) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (std::isnan(x) != std::isnan(y)) return false;
    if (!std::isnan(x) && std::memcmp(&x, &y, sizeof x) != 0) return false;
  }
  return true;
}

struct DeepRawPair {
  ImageRgb8 views_left, views_right;
  ImageU16 left16, right16;
  ImageF32 leftf, rightf;
};

DeepRawPair deep_raw_pair(int frame) {
  const RawPair raw = raw_pair(frame);
  DeepRawPair pair{raw.left, raw.right, ImageU16(kWidth, kHeight), ImageU16(kWidth, kHeight),
                   ImageF32(kWidth, kHeight), ImageF32(kWidth, kHeight)};
  const ImageU8 gray_left = to_gray(raw.left), gray_right = to_gray(raw.right);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      pair.left16.at(x, y) = static_cast<uint16_t>(gray_left.at(x, y) * 256 + test::hash_value(x, y, 3));
      pair.right16.at(x, y) = static_cast<uint16_t>(gray_right.at(x, y) * 256 + test::hash_value(x, y, 4));
      pair.leftf.at(x, y) = pair.left16.at(x, y) / 64.0f;
      pair.rightf.at(x, y) = pair.right16.at(x, y) / 64.0f;
    }
  }
  pair.leftf.at(kWidth / 2, kHeight / 3) = std::nanf("");  // a missing pixel remaps to NaN around it
  return pair;
}

// What the GPU returns for a raw deep pair with its views equals the CPU engine's host remap.
void expect_rectified_as_on_the_cpu(const DisparityResult& gpu, const DisparityResult& cpu) {
  EXPECT_TRUE(same_disparities(cpu, gpu));
  EXPECT_EQ(gpu.rectified_left, cpu.rectified_left);
  EXPECT_EQ(gpu.rectified_right, cpu.rectified_right);
  EXPECT_TRUE(same_bits(gpu.rectified_left16, cpu.rectified_left16));
  EXPECT_TRUE(same_bits(gpu.rectified_right16, cpu.rectified_right16));
  EXPECT_TRUE(same_bits(gpu.rectified_leftf, cpu.rectified_leftf));
  EXPECT_TRUE(same_bits(gpu.rectified_rightf, cpu.rectified_rightf));
}

TEST(CudaEngineRectification, RawDeepPairsComeBackRectifiedWithTheirViews) {
  SV_REQUIRE_CUDA_DEVICE();
  const DeepRawPair raw = deep_raw_pair(6);
  cuda::CudaEngine engine;
  CpuEngine cpu;
  const StereoParams params = params_for("census-sgm");
  BlockPool pool(engine.host_memory(), 8);
  for (const bool floats : {false, true}) {
    SCOPED_TRACE(floats ? "float" : "16-bit");
    FrameRequest request = floats ? test::request_of(raw.leftf, raw.rightf, params, maps())
                                  : test::request_of(raw.left16, raw.right16, params, maps());
    request.views = PairView::of(raw.views_left, raw.views_right);
    const DisparityResult expected = cpu.compute(request);
    ASSERT_FALSE(expected.rectified_left.empty());
    ASSERT_NE(expected.rectified_left, raw.views_left);  // the maps do move the views
    EXPECT_EQ(floats, expected.rectified_left16.empty());

    // From host memory, with the views and disparity kept on the device as well.
    request.want.device = true;
    const DisparityResult host = engine.compute(request);
    expect_rectified_as_on_the_cpu(host, expected);
    EXPECT_TRUE(host.device_views != nullptr) << "the display's views stay on the GPU too";

    // From pooled pinned blocks: nothing copied on the host, in or out.
    const ImageRgb8 views_left = pooled_copy(&pool, raw.views_left);
    const ImageRgb8 views_right = pooled_copy(&pool, raw.views_right);
    const ImageU16 left16 = pooled_copy(&pool, raw.left16), right16 = pooled_copy(&pool, raw.right16);
    const ImageF32 leftf = pooled_copy(&pool, raw.leftf), rightf = pooled_copy(&pool, raw.rightf);
    FrameRequest pooled = floats ? test::request_of(leftf, rightf, params, maps())
                                 : test::request_of(left16, right16, params, maps());
    pooled.views = PairView::of(views_left, views_right);
    const DisparityResult from_pool = engine.compute(pooled);
    expect_rectified_as_on_the_cpu(from_pool, expected);
    EXPECT_EQ(from_pool.timings.host_copy_ms, 0.0);

    // From device memory.
    const size_t pixels = static_cast<size_t>(kWidth) * kHeight;
    const size_t plane_bytes = pixels * (floats ? sizeof(float) : sizeof(uint16_t));
    cuda::DeviceBuffer<uint8_t> d_left(plane_bytes), d_right(plane_bytes);
    cuda::DeviceBuffer<Rgb8> d_views_left(pixels), d_views_right(pixels);
    SV_CUDA_CHECK(cudaMemcpy(d_left.data(), request.pair.left, plane_bytes, cudaMemcpyHostToDevice));
    SV_CUDA_CHECK(cudaMemcpy(d_right.data(), request.pair.right, plane_bytes, cudaMemcpyHostToDevice));
    SV_CUDA_CHECK(cudaMemcpy(d_views_left.data(), raw.views_left.data(), pixels * sizeof(Rgb8),
                             cudaMemcpyHostToDevice));
    SV_CUDA_CHECK(cudaMemcpy(d_views_right.data(), raw.views_right.data(), pixels * sizeof(Rgb8),
                             cudaMemcpyHostToDevice));
    FrameRequest on_device = request;
    on_device.want.device = false;
    on_device.pair.memory = on_device.views.memory = MemorySpace::Device;
    on_device.pair.left = d_left.data();
    on_device.pair.right = d_right.data();
    on_device.pair.left_block = on_device.pair.right_block = nullptr;
    on_device.views.left = d_views_left.data();
    on_device.views.right = d_views_right.data();
    on_device.views.left_block = on_device.views.right_block = nullptr;
    expect_rectified_as_on_the_cpu(engine.compute(on_device), expected);

    // Views of another size, or in other memory than the pair, are refused; the engine goes on.
    FrameRequest mixed = on_device;
    mixed.views = PairView::of(raw.views_left, raw.views_right);
    EXPECT_THROW(engine.compute(mixed), InputError);
    const ImageRgb8 narrow(kWidth - 1, kHeight);
    FrameRequest wrong = request;
    wrong.views = PairView::of(narrow, narrow);
    EXPECT_THROW(engine.compute(wrong), InputError);
    expect_rectified_as_on_the_cpu(engine.compute(request), expected);
  }
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
