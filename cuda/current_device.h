#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace sv::cuda {

// The fixed properties of the calling thread's current device that launch decisions read every
// frame. Read from the runtime once per device and host thread (thread-local, so engines on
// several threads need no lock), instead of a handful of runtime queries a frame.
struct CurrentDevice {
  int ordinal = -1;
  int sms = 0;
  int l2_bytes = 0;
  int compute_major = 0;
};

const CurrentDevice& current_device();

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for one kernel and block size, remembered per
// device and host thread: each launcher that asks owns one of these, next to its kernel.
class OccupancyCache {
 public:
  template <typename Kernel>
  int blocks_per_sm(Kernel kernel, int threads) {
    const int device = current_device().ordinal;
    if (device != device_) {
      blocks_ = query(reinterpret_cast<const void*>(kernel), threads);
      device_ = device;
    }
    return blocks_;
  }

 private:
  static int query(const void* kernel, int threads);
  int device_ = -1;
  int blocks_ = 0;
};

// A kernel's opt-in to more than 48 KB of dynamic shared memory
// (cudaFuncAttributeMaxDynamicSharedMemorySize), set only when a launch needs more than the kernel
// was last given on this device and host thread, instead of a runtime call every launch: each
// launcher that needs it owns one of these (thread_local), next to its kernel.
class SharedMemoryOptIn {
 public:
  static constexpr size_t kDefaultBytes = 48 * 1024;

  template <typename Kernel>
  void allow(Kernel kernel, size_t bytes) {
    if (bytes <= kDefaultBytes) return;
    const int device = current_device().ordinal;
    if (device != device_) {
      device_ = device;
      bytes_ = kDefaultBytes;
    }
    if (bytes > bytes_) {
      set(reinterpret_cast<const void*>(kernel), bytes);
      bytes_ = bytes;
    }
  }

 private:
  static void set(const void* kernel, size_t bytes);
  int device_ = -1;
  size_t bytes_ = kDefaultBytes;
};

}  // namespace sv::cuda
