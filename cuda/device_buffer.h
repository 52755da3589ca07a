#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuda/cuda_check.h"

namespace sv::cuda {

// The bytes every DeviceBuffer of this process holds: the engines' own device memory, which a
// test can hold against the frame estimate whatever other processes take from the same GPU.
inline std::atomic<uint64_t>& device_buffer_bytes() {
  static std::atomic<uint64_t> bytes{0};
  return bytes;
}

// Device memory that only grows: reserve() reallocates when more is needed and otherwise keeps
// the allocation, so steady-state frames allocate nothing.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) { reserve(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }

  void reserve(size_t count) {
    if (count <= capacity_) return;
    release();
    SV_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
    capacity_ = count;
    device_buffer_bytes() += count * sizeof(T);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  void release() {
    if (data_) {
      cudaFree(data_);
      device_buffer_bytes() -= capacity_ * sizeof(T);
    }
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

// Pinned host memory for asynchronous copies; grows like DeviceBuffer.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void reserve(size_t count) {
    if (count <= capacity_) return;
    if (data_) cudaFreeHost(data_);
    data_ = nullptr;
    capacity_ = 0;
    SV_CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(T)));
    capacity_ = count;
  }
  T* data() { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace sv::cuda
