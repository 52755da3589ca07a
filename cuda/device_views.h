#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/recycled_frame.h"
#include "src/core/image.h"
#include "src/core/stereo_engine.h"

namespace sv::cuda {

// A frame's rectified colour views left on the GPU for display (DisparityResult::device_views),
// as RGBA8 with alpha 255: the layout CUDA can copy into a registered GL texture, and the pixels
// the host path's glTexSubImage2D of the RGB views gives. The consumer (the viewer's GL thread)
// makes its stream wait for ready(), reads left() and right(), then calls mark_read_on(its
// stream) before dropping the handle, so the engine reuses the buffers only after those reads
// have finished on the GPU (as DeviceDisparity).
class DeviceViews : public DeviceResult {
 public:
  int width() const { return width_; }
  int height() const { return height_; }
  const uchar4* left() const { return buffer_.data(); }
  const uchar4* right() const { return buffer_.data() + pixels(); }
  cudaEvent_t ready() const { return events_.ready(); }
  void mark_read_on(cudaStream_t stream) const { events_.mark_read_on(stream); }

  DeviceViews(const DeviceViews&) = delete;
  DeviceViews& operator=(const DeviceViews&) = delete;

 private:
  friend class DeviceViewsPool;
  friend class RecycledFrames<DeviceViews>;
  DeviceViews() = default;
  size_t pixels() const { return static_cast<size_t>(width_) * height_; }

  DeviceBuffer<uchar4> buffer_;  // left, then right
  int width_ = 0, height_ = 0;
  // Declared last, destroyed first: its destructor waits for the consumer's reads before
  // the buffer is freed.
  FrameEvents events_;
};

// Recycles DeviceViews buffers like DeviceDisparityPool: a handle still held is never handed out
// again; one given back is reused once its consumer's reads have completed (stream-ordered).
class DeviceViewsPool {
 public:
  // The two RGB views (width x height each, device) packed into RGBA on `stream`, as a handle
  // for the result. InputError for a null view or a size that is not positive.
  std::shared_ptr<const DeviceViews> copy(const Rgb8* left, const Rgb8* right, int width,
                                          int height, cudaStream_t stream);

 private:
  RecycledFrames<DeviceViews> frames_;
};

}  // namespace sv::cuda
