#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "cuda/device_buffer.h"
#include "src/core/stereo_engine.h"

namespace sv::cuda {

// A frame's fixed-point disparity left on the GPU for display (DisparityResult::device). The
// consumer (the viewer's GL thread) makes its stream wait for ready(), reads data(), then calls
// mark_read_on(its stream) before dropping the handle, so the engine reuses the buffer only after
// that read has finished on the GPU.
class DeviceDisparity : public DeviceResult {
 public:
  int width() const { return width_; }
  int height() const { return height_; }
  const int16_t* data() const { return buffer_.data(); }
  cudaEvent_t ready() const { return ready_; }
  void mark_read_on(cudaStream_t stream) const;

  ~DeviceDisparity() override;
  DeviceDisparity(const DeviceDisparity&) = delete;
  DeviceDisparity& operator=(const DeviceDisparity&) = delete;

 private:
  friend class DeviceDisparityPool;
  DeviceDisparity();

  DeviceBuffer<int16_t> buffer_;
  int width_ = 0, height_ = 0;
  cudaEvent_t ready_ = nullptr;     // the copy into buffer_ has finished
  cudaEvent_t released_ = nullptr;  // the consumer's last read has finished
};

// Recycles DeviceDisparity buffers: a handle still held by a consumer is never handed out again;
// one given back is reused once its consumer's read has completed (stream-ordered, no host wait).
class DeviceDisparityPool {
 public:
  DeviceDisparityPool() = default;
  DeviceDisparityPool(const DeviceDisparityPool&) = delete;
  DeviceDisparityPool& operator=(const DeviceDisparityPool&) = delete;

  // A copy of `disparity` (width x height, device) made on `stream`, as a handle for the result.
  std::shared_ptr<const DeviceDisparity> copy(const int16_t* disparity, int width, int height,
                                              cudaStream_t stream);

 private:
  struct Shared {
    std::mutex mutex;
    std::vector<std::unique_ptr<DeviceDisparity>> free;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace sv::cuda
