#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/device_info.h"
#include "src/core/image.h"

// Skips the current test, with the runtime's reason, on a machine without a CUDA device (CI).
#define SV_REQUIRE_CUDA_DEVICE()                                                    \
  do {                                                                              \
    const ::sv::cuda::DeviceInfo sv_device_ = ::sv::cuda::query_device();           \
    if (!sv_device_.available) GTEST_SKIP() << "needs a CUDA device: " << sv_device_.reason; \
  } while (0)

namespace sv::test {

// A device copy of host data, with poison bytes before and after it: a kernel that reads or
// writes past the ends touches the guards, and compute-sanitizer reports the access.
template <typename T>
class GuardedDeviceArray {
 public:
  static constexpr size_t kGuard = 256;  // elements on each side

  explicit GuardedDeviceArray(size_t count, const T* host = nullptr) : count_(count) {
    SV_CUDA_CHECK(cudaMalloc(&base_, (count + 2 * kGuard) * sizeof(T)));
    SV_CUDA_CHECK(cudaMemset(base_, 0xA5, (count + 2 * kGuard) * sizeof(T)));
    if (host) SV_CUDA_CHECK(cudaMemcpy(data(), host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~GuardedDeviceArray() { cudaFree(base_); }
  GuardedDeviceArray(const GuardedDeviceArray&) = delete;
  GuardedDeviceArray& operator=(const GuardedDeviceArray&) = delete;

  T* data() { return base_ + kGuard; }
  size_t size() const { return count_; }

  std::vector<T> download() const {
    std::vector<T> host(count_);
    SV_CUDA_CHECK(cudaMemcpy(host.data(), base_ + kGuard, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  // True when no guard element changed (no out-of-bounds write).
  bool guards_intact() const {
    std::vector<unsigned char> guard(kGuard * sizeof(T));
    std::vector<unsigned char> expected(kGuard * sizeof(T), 0xA5);
    SV_CUDA_CHECK(cudaMemcpy(guard.data(), base_, guard.size(), cudaMemcpyDeviceToHost));
    if (guard != expected) return false;
    SV_CUDA_CHECK(cudaMemcpy(guard.data(), base_ + kGuard + count_, guard.size(), cudaMemcpyDeviceToHost));
    return guard == expected;
  }

 private:
  T* base_ = nullptr;
  size_t count_ = 0;
};

template <typename T>
Image<T> to_image(const std::vector<T>& pixels, int width, int height) {
  Image<T> image(width, height);
  std::copy(pixels.begin(), pixels.end(), image.data());
  return image;
}

}  // namespace sv::test
