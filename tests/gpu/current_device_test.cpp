// The current device's cached properties (cuda/current_device.h) against the runtime's answers,
// on the calling thread and on a second one (each host thread keeps its own copy).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <thread>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "tests/gpu/gpu_test_support.h"

namespace sv {
namespace {

void expect_runtime_values(const cuda::CurrentDevice& cached) {
  int device = -1, sms = 0, l2 = 0, major = 0;
  SV_CUDA_CHECK(cudaGetDevice(&device));
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  EXPECT_EQ(cached.ordinal, device);
  EXPECT_EQ(cached.sms, sms);
  EXPECT_EQ(cached.l2_bytes, l2);
  EXPECT_EQ(cached.compute_major, major);
  EXPECT_GT(cached.sms, 0);
}

TEST(CurrentDevice, MatchesTheRuntimeOnEveryThread) {
  SV_REQUIRE_CUDA_DEVICE();
  const cuda::CurrentDevice& first = cuda::current_device();
  expect_runtime_values(first);
  // A second call hands back the same cached entry.
  EXPECT_EQ(&cuda::current_device(), &first);
  std::thread other([] { expect_runtime_values(cuda::current_device()); });
  other.join();
}

}  // namespace
}  // namespace sv
