// The CUDA engine's frame estimate (cuda/frame_memory.h) against what its first frame takes from
// the device (the engine's own buffers, so another process on the GPU changes nothing), and the
// refusal of a frame no device holds (issue 17).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>

#include "cuda/cuda_engine.h"
#include "cuda/device_buffer.h"
#include "cuda/frame_memory.h"
#include "src/core/algorithm_registry.h"
#include "src/core/error.h"
#include "src/core/frame_budget.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

TEST(CudaFrameMemory, TheEstimateHoldsWhatTheFirstFrameTakes) {
  SV_REQUIRE_CUDA_DEVICE();
  const test::ShiftedPair pair = test::shifted_pair(1280, 720, 20, 3, 1);
  for (const auto& info : algorithm_registry()) {
    for (const int levels : {0, 2}) {
      StereoParams params;
      params.algorithm = info.name;
      params.num_disparities = 128;
      params.pyramid_levels = levels;
      params.confidence = levels == 0;
      params.speckle_size = levels == 0 ? 100 : 0;
      const uint64_t before = cuda::device_buffer_bytes();
      cuda::CudaEngine engine;
      engine.compute(pair.left, pair.right, params);
      const uint64_t taken = cuda::device_buffer_bytes() - before;
      const uint64_t estimate = engine.frame_cost(1280, 720, params).device_bytes;
      // The buffers' own bytes (cudaMalloc's page rounding and the streams are outside both).
      EXPECT_GT(taken, 0u) << info.name << " L" << levels;
      EXPECT_GE(estimate + (uint64_t{64} << 20), taken) << info.name << " L" << levels;
      EXPECT_LE(estimate, taken + taken / 2 + (uint64_t{64} << 20)) << info.name << " L" << levels;
    }
  }
}

TEST(CudaFrameMemory, AFrameNoDeviceHoldsIsRefusedBeforeAnythingIsAllocated) {
  SV_REQUIRE_CUDA_DEVICE();
  cuda::CudaEngine engine;
  StereoParams params;
  params.num_disparities = 256;
  const uint64_t before = cuda::device_buffer_bytes();
  FrameBudget budget;
  try {
    budget.check(engine, 16384, 16384, params);  // about 600 GiB of path volumes
    FAIL() << "a 16384x16384 frame with 256 disparities was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("of device memory on the cuda engine, but "),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(cuda::device_buffer_bytes(), before);
}

}  // namespace
}  // namespace sv
