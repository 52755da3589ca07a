// The engine interface (issue 18) on the CUDA engine: frames in order however many are
// submitted, only the asked-for parts (the float disparity converted on the GPU equals the host's
// conversion), device-resident input equal to host input bit for bit, the public device call on
// the caller's stream, colour pairs turned gray on the GPU, a bad frame reported for itself, and
// pairs and results in pooled pinned blocks without host copies (run under compute-sanitizer too).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "cuda/cuda_engine.h"
#include "src/core/block_pool.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

StereoParams params_with(int disparities) {
  StereoParams params;
  params.num_disparities = disparities;
  return params;
}

std::vector<SyntheticFrame> frames(int count, int width = 193, int height = 121) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = 40;
  const SyntheticScene scene(config);
  std::vector<SyntheticFrame> out;
  for (int i = 0; i < count; ++i) out.push_back(scene.render(i * 3));
  return out;
}

template <typename T>
bool same_bits(const Image<T>& a, const Image<T>& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(CudaEngineInterface, ManyFramesSubmittedComeBackInOrderEqualToTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(7);
  const StereoParams params = params_with(48);
  CpuEngine cpu;
  std::vector<ImageI16> expected;
  for (const auto& f : pairs) expected.push_back(cpu.compute(f.left, f.right, params).disparity_fixed);
  cuda::CudaEngine gpu;
  for (const auto& f : pairs) gpu.submit(test::request_of(f.left, f.right, params));  // all at once
  EXPECT_EQ(gpu.frames_in_flight(), 7);
  DisparityResult result;  // one result, reused
  for (size_t i = 0; i < pairs.size(); ++i) {
    gpu.collect(result);
    EXPECT_EQ(result.disparity_fixed, expected[i]) << i;
  }
  EXPECT_THROW(gpu.collect(), RuntimeError);
}

TEST(CudaEngineInterface, OnlyTheAskedForPartsAndTheGpuFloatEqualsTheHostConversion) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(1);
  StereoParams params = params_with(48);
  params.confidence = true;
  cuda::CudaEngine gpu;
  CpuEngine cpu;
  const DisparityResult all = gpu.compute(test::request_of(pairs[0].left, pairs[0].right, params));
  const DisparityResult reference = cpu.compute(pairs[0].left, pairs[0].right, params);
  EXPECT_EQ(all.disparity_fixed, reference.disparity_fixed);
  EXPECT_TRUE(same_bits(all.disparity, fixed_to_float_disparity(all.disparity_fixed)));
  EXPECT_TRUE(same_bits(all.disparity, reference.disparity));
  EXPECT_FALSE(all.confidence.empty());

  const DisparityResult fixed = gpu.compute(
      test::request_of(pairs[0].left, pairs[0].right, params, nullptr, ResultParts::fixed_only()));
  EXPECT_TRUE(fixed.disparity.empty());
  EXPECT_TRUE(fixed.confidence.empty());
  EXPECT_EQ(fixed.disparity_fixed, all.disparity_fixed);
  EXPECT_EQ(fixed.width, 193);
  EXPECT_GT(fixed.timings.device_span_ms, 0.0);

  // A reused result whose images are of another size or not asked for anymore.
  DisparityResult reused = all;
  gpu.submit(test::request_of(pairs[0].left, pairs[0].right, params, nullptr, ResultParts::fixed_only()));
  gpu.collect(reused);
  EXPECT_TRUE(reused.disparity.empty());
  EXPECT_EQ(reused.disparity_fixed, all.disparity_fixed);
}

TEST(CudaEngineInterface, ColourPairsAreMadeGrayOnTheGpuBitForBit) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(1, 160, 97);
  const StereoParams params = params_with(32);
  cuda::CudaEngine gpu;
  const DisparityResult colour = gpu.compute(pairs[0].left, pairs[0].right, params);
  const DisparityResult gray = gpu.compute(to_gray(pairs[0].left), to_gray(pairs[0].right), params);
  EXPECT_EQ(colour.disparity_fixed, gray.disparity_fixed);
  EXPECT_EQ(colour.disparity_fixed, CpuEngine().compute(pairs[0].left, pairs[0].right, params).disparity_fixed);
}

TEST(CudaEngineInterface, DevicePairsEqualHostPairsBitForBit) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(2);
  const StereoParams params = params_with(48);
  cuda::CudaEngine gpu;
  ASSERT_TRUE(gpu.accepts_device_input());
  for (const auto& f : pairs) {
    const ImageU8 left = to_gray(f.left), right = to_gray(f.right);
    const DisparityResult host = gpu.compute(left, right, params);
    test::GuardedDeviceArray<uint8_t> device_left(left.size(), left.data());
    test::GuardedDeviceArray<uint8_t> device_right(right.size(), right.data());
    FrameRequest request = test::request_of(left, right, params);
    request.pair.memory = MemorySpace::Device;
    request.pair.left = device_left.data();
    request.pair.right = device_right.data();
    const DisparityResult device = gpu.compute(request);
    EXPECT_EQ(device.disparity_fixed, host.disparity_fixed);
    EXPECT_TRUE(same_bits(device.disparity, host.disparity));

    // The public call on the caller's stream: results in device memory.
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    test::GuardedDeviceArray<int16_t> out_fixed(left.size());
    test::GuardedDeviceArray<float> out_float(left.size());
    gpu.compute_on_device(request.pair, params, out_fixed.data(), out_float.data(), stream);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    cudaStreamDestroy(stream);
    const std::vector<int16_t> fixed = out_fixed.download();
    const std::vector<float> floats = out_float.download();
    EXPECT_TRUE(std::equal(fixed.begin(), fixed.end(), host.disparity_fixed.data()));
    EXPECT_EQ(std::memcmp(floats.data(), host.disparity.data(), floats.size() * sizeof(float)), 0);
    EXPECT_TRUE(out_fixed.guards_intact());
    EXPECT_TRUE(out_float.guards_intact());
    EXPECT_FALSE(gpu.last_device_call_timings().stages.empty());
  }
  EXPECT_THROW(gpu.compute_on_device(test::request_of(ImageU8(8, 8), ImageU8(8, 8), params).pair,
                                     params, nullptr, nullptr, nullptr),
               InputError);
}

TEST(CudaEngineInterface, ABadFrameIsReportedForItselfAndTheNextOnesRun) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(3);
  const StereoParams params = params_with(48);
  CpuEngine cpu;
  const ImageI16 first = cpu.compute(pairs[0].left, pairs[0].right, params).disparity_fixed;
  const ImageI16 last = cpu.compute(pairs[2].left, pairs[2].right, params).disparity_fixed;
  cuda::CudaEngine gpu;
  const ImageRgb8 narrow(100, 121);
  gpu.submit(test::request_of(pairs[0].left, pairs[0].right, params));
  gpu.submit(test::request_of(pairs[1].left, narrow, params));
  gpu.submit(test::request_of(pairs[2].left, pairs[2].right, params));
  EXPECT_EQ(gpu.collect().disparity_fixed, first);
  try {
    gpu.collect();
    ADD_FAILURE() << "a pair of two sizes was matched";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("193x121 vs 100x121"), std::string::npos) << e.what();
  }
  EXPECT_EQ(gpu.collect().disparity_fixed, last);
}

// Frames without host copies (issue 18): pairs in pooled blocks of the engine's pinned memory
// are uploaded from there and give the results of ordinary host images bit for bit; the blocks
// stay with the engine until their upload has read them and then go back to their pool; results
// arrive in pooled pinned blocks, and past the pool's bound through staging, equal either way.
bool in_pinned_block(const void* pixels, const std::shared_ptr<PixelBlock>& block) {
  return block && block->memory().pinned() && block->data() == pixels;
}

TEST(CudaPooledFrames, PinnedPooledInputEqualsHostInputBitForBit) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(2);
  const StereoParams params = params_with(48);
  cuda::CudaEngine gpu;
  ASSERT_TRUE(gpu.host_memory()->pinned());
  BlockPool pool(gpu.host_memory(), 8);
  for (const SyntheticFrame& f : pairs) {
    // Colour pairs, as the sources deliver them, and gray pairs.
    const DisparityResult host = gpu.compute(test::request_of(f.left, f.right, params));
    const ImageRgb8 left = pooled_copy(&pool, f.left), right = pooled_copy(&pool, f.right);
    ASSERT_TRUE(in_pinned_block(left.data(), left.block()));
    const DisparityResult pooled = gpu.compute(test::request_of(left, right, params));
    EXPECT_TRUE(same_bits(pooled.disparity_fixed, host.disparity_fixed));
    EXPECT_TRUE(same_bits(pooled.disparity, host.disparity));
    EXPECT_EQ(pooled.timings.host_copy_ms, 0.0) << "nothing copied on the host, in or out";
    EXPECT_GT(host.timings.host_copy_ms, 0.0) << "host images are copied into staging";

    const ImageU8 gray_left = to_gray(f.left), gray_right = to_gray(f.right);
    const DisparityResult gray_host = gpu.compute(test::request_of(gray_left, gray_right, params));
    const ImageU8 pooled_left = pooled_copy(&pool, gray_left);
    const ImageU8 pooled_right = pooled_copy(&pool, gray_right);
    const DisparityResult gray_pooled =
        gpu.compute(test::request_of(pooled_left, pooled_right, params));
    EXPECT_TRUE(same_bits(gray_pooled.disparity_fixed, gray_host.disparity_fixed));
    EXPECT_TRUE(same_bits(gray_pooled.disparity_fixed, host.disparity_fixed));

    // 16-bit pairs (what 16-bit sources deliver into pooled blocks): the low byte carries detail
    // the 8-bit view does not, so a plane read from the wrong place would change the result.
    const auto deep = [](const ImageU8& gray, int salt) {
      ImageU16 image(gray.width(), gray.height());
      for (size_t i = 0; i < image.size(); ++i) {
        image.data()[i] = static_cast<uint16_t>(gray.data()[i] * 256 + (i * 37 + salt) % 251);
      }
      return image;
    };
    const ImageU16 left16 = deep(gray_left, 1), right16 = deep(gray_right, 2);
    const DisparityResult deep_host = gpu.compute(test::request_of(left16, right16, params));
    const ImageU16 pooled_left16 = pooled_copy(&pool, left16);
    const ImageU16 pooled_right16 = pooled_copy(&pool, right16);
    ASSERT_TRUE(in_pinned_block(pooled_left16.data(), pooled_left16.block()));
    const DisparityResult deep_pooled =
        gpu.compute(test::request_of(pooled_left16, pooled_right16, params));
    EXPECT_TRUE(same_bits(deep_pooled.disparity_fixed, deep_host.disparity_fixed));
    EXPECT_TRUE(same_bits(deep_pooled.disparity, deep_host.disparity));
    EXPECT_EQ(deep_pooled.timings.host_copy_ms, 0.0) << "a pooled 16-bit pair goes up as it is";
    EXPECT_GT(deep_host.timings.host_copy_ms, 0.0);
  }
}

TEST(CudaPooledFrames, ResultsArriveInPooledPinnedBlocks) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(1);
  StereoParams params = params_with(48);
  params.confidence = true;
  cuda::CudaEngine gpu;
  const DisparityResult r = gpu.compute(test::request_of(pairs[0].left, pairs[0].right, params));
  EXPECT_TRUE(in_pinned_block(r.disparity_fixed.data(), r.disparity_fixed.block()));
  EXPECT_TRUE(in_pinned_block(r.disparity.data(), r.disparity.block()));
  EXPECT_TRUE(in_pinned_block(r.confidence.data(), r.confidence.block()));
  const DisparityResult cpu = CpuEngine().compute(pairs[0].left, pairs[0].right, params);
  EXPECT_TRUE(same_bits(r.disparity_fixed, cpu.disparity_fixed));
}

// Two frames in flight, each pair written into a block as soon as the pool gives one: a block
// handed back before its upload had read it would be overwritten by a later pair, and that frame
// would no longer equal the CPU's.
TEST(CudaPooledFrames, TwoFramesInFlightRecycleTheirBlocksOnlyAfterTheUpload) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(6);
  const StereoParams params = params_with(48);
  CpuEngine cpu;
  std::vector<ImageI16> expected;
  for (const auto& f : pairs)
    expected.push_back(cpu.compute(f.left, f.right, params).disparity_fixed);
  cuda::CudaEngine gpu;
  BlockPool pool(gpu.host_memory(), 6);
  DisparityResult result;
  int collected = 0, pooled_pairs = 0;
  constexpr int kFrames = 40;
  for (int n = 0; n < kFrames; ++n) {
    const SyntheticFrame& f = pairs[n % pairs.size()];
    {
      const ImageRgb8 left = pooled_copy(&pool, f.left), right = pooled_copy(&pool, f.right);
      pooled_pairs += left.block() && right.block() ? 1 : 0;
      gpu.submit(test::request_of(left, right, params, nullptr, ResultParts::fixed_only()));
    }  // the caller lets go at once: only the engine holds the blocks now
    if (gpu.frames_in_flight() == 2) {
      gpu.collect(result);
      EXPECT_TRUE(same_bits(result.disparity_fixed, expected[collected % pairs.size()]))
          << "frame " << collected;
      ++collected;
    }
  }
  while (gpu.frames_in_flight() > 0) {
    gpu.collect(result);
    EXPECT_TRUE(same_bits(result.disparity_fixed, expected[collected % pairs.size()]))
        << "frame " << collected;
    ++collected;
  }
  EXPECT_EQ(collected, kFrames);
  EXPECT_EQ(pooled_pairs, kFrames) << "the engine's holds never exhausted the pool";
  EXPECT_LE(pool.blocks(), 6);
  EXPECT_EQ(pool.blocks_out(), 0) << "every block went back once its upload completed";
}

// A caller that keeps many results: once the engine's result blocks are all out, the results come
// through staging (a host copy) and are still equal.
TEST(CudaPooledFrames, ResultsPastThePoolsBoundAreCopiedAndEqual) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto pairs = frames(2);
  const StereoParams params = params_with(48);
  CpuEngine cpu;
  const ImageI16 expected = cpu.compute(pairs[1].left, pairs[1].right, params).disparity_fixed;
  cuda::CudaEngine gpu;
  std::deque<DisparityResult> kept;
  bool some_copied = false;
  for (int n = 0; n < 40; ++n) {
    kept.push_back(gpu.compute(test::request_of(pairs[1].left, pairs[1].right, params)));
    const DisparityResult& r = kept.back();
    EXPECT_TRUE(same_bits(r.disparity_fixed, expected)) << n;
    if (!r.disparity_fixed.block()) some_copied = true;
  }
  EXPECT_TRUE(some_copied) << "40 results of two parts each outnumber the engine's blocks";
  kept.clear();
  const DisparityResult again =
      gpu.compute(test::request_of(pairs[1].left, pairs[1].right, params));
  EXPECT_TRUE(again.disparity_fixed.block()) << "blocks let go are used again";
  EXPECT_TRUE(same_bits(again.disparity_fixed, expected));
}

}  // namespace
}  // namespace sv
