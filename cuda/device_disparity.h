#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/recycled_frame.h"
#include "src/core/stereo_engine.h"

namespace sv::cuda {

// A frame's fixed-point disparity left on the GPU for display (DisparityResult::device). The
// consumer (the viewer's GL thread) makes its stream wait for ready(), reads data(), then calls
// mark_read_on(its stream) before dropping the handle, so the engine reuses the buffer only after
// that read has finished on the GPU (recycled_frame.h).
class DeviceDisparity : public DeviceResult {
 public:
  int width() const { return width_; }
  int height() const { return height_; }
  const int16_t* data() const { return buffer_.data(); }
  cudaEvent_t ready() const { return events_.ready(); }
  void mark_read_on(cudaStream_t stream) const { events_.mark_read_on(stream); }

  DeviceDisparity(const DeviceDisparity&) = delete;
  DeviceDisparity& operator=(const DeviceDisparity&) = delete;

 private:
  friend class DeviceDisparityPool;
  friend class RecycledFrames<DeviceDisparity>;
  DeviceDisparity() = default;

  DeviceBuffer<int16_t> buffer_;
  int width_ = 0, height_ = 0;
  // Declared last, destroyed first: its destructor waits for the consumer's read before
  // the buffer is freed.
  FrameEvents events_;
};

// Recycles DeviceDisparity buffers: a handle still held by a consumer is never handed out again;
// one given back is reused once its consumer's read has completed (stream-ordered, no host wait).
class DeviceDisparityPool {
 public:
  // A copy of `disparity` (width x height, device) made on `stream`, as a handle for the result.
  std::shared_ptr<const DeviceDisparity> copy(const int16_t* disparity, int width, int height,
                                              cudaStream_t stream);

 private:
  RecycledFrames<DeviceDisparity> frames_;
};

}  // namespace sv::cuda
