// SharedMemoryOptIn (cuda/current_device.h): a kernel gets the dynamic shared memory a launch
// asks for, and the runtime is called only when a launch needs more than the kernel was given.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/current_device.h"
#include "tests/gpu/gpu_test_support.h"

namespace sv {
namespace {

// Writes through the last word of its dynamic shared memory, so a launch fails unless all of it
// was granted.
__global__ void touch_last_shared_word(int words, int* out) {
  extern __shared__ int shared[];
  if (threadIdx.x == 0) shared[words - 1] = words;
  __syncthreads();
  if (threadIdx.x == 0) *out = shared[words - 1];
}

int granted_bytes() {
  cudaFuncAttributes attributes{};
  SV_CUDA_CHECK(cudaFuncGetAttributes(&attributes, touch_last_shared_word));
  return attributes.maxDynamicSharedSizeBytes;
}

int launch_with(size_t bytes) {
  int* out = nullptr;
  SV_CUDA_CHECK(cudaMalloc(&out, sizeof(int)));
  const int words = static_cast<int>(bytes / sizeof(int));
  touch_last_shared_word<<<1, 32, bytes>>>(words, out);
  SV_CUDA_CHECK_LAUNCH();
  int value = 0;
  SV_CUDA_CHECK(cudaMemcpy(&value, out, sizeof(int), cudaMemcpyDeviceToHost));
  SV_CUDA_CHECK(cudaFree(out));
  return value;
}

TEST(SharedMemoryOptIn, RaisesTheLimitOnlyWhenALaunchNeedsMore) {
  SV_REQUIRE_CUDA_DEVICE();
  int device = 0, optin = 0;
  SV_CUDA_CHECK(cudaGetDevice(&device));
  SV_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  constexpr size_t kDefault = cuda::SharedMemoryOptIn::kDefaultBytes;
  if (static_cast<size_t>(optin) < kDefault + 8 * 1024) GTEST_SKIP() << "this GPU grants " << optin << " bytes";
  const size_t more = kDefault + 4 * 1024, most = static_cast<size_t>(optin);

  cuda::SharedMemoryOptIn opt_in;
  opt_in.allow(touch_last_shared_word, kDefault);  // within the default: nothing to set
  EXPECT_LE(granted_bytes(), static_cast<int>(kDefault));
  opt_in.allow(touch_last_shared_word, more);
  EXPECT_EQ(granted_bytes(), static_cast<int>(more));
  EXPECT_EQ(launch_with(more), static_cast<int>(more / sizeof(int)));

  // Lowered behind its back: a launch that needs no more than it was given makes no runtime call,
  // so the lowered limit stays (the way to see that no call was made).
  SV_CUDA_CHECK(cudaFuncSetAttribute(touch_last_shared_word, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(kDefault)));
  opt_in.allow(touch_last_shared_word, more - 1024);
  EXPECT_EQ(granted_bytes(), static_cast<int>(kDefault));

  // More than it was given: raised again, and the launch gets all of it.
  opt_in.allow(touch_last_shared_word, most);
  EXPECT_EQ(granted_bytes(), static_cast<int>(most));
  EXPECT_EQ(launch_with(most), static_cast<int>(most / sizeof(int)));
}

}  // namespace
}  // namespace sv
