#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <vector>

#include "cuda/device_buffer.h"
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
  cudaEvent_t ready() const { return ready_; }
  void mark_read_on(cudaStream_t stream) const;

  ~DeviceViews() override;
  DeviceViews(const DeviceViews&) = delete;
  DeviceViews& operator=(const DeviceViews&) = delete;

 private:
  friend class DeviceViewsPool;
  DeviceViews();
  size_t pixels() const { return static_cast<size_t>(width_) * height_; }

  DeviceBuffer<uchar4> buffer_;  // left, then right
  int width_ = 0, height_ = 0;
  cudaEvent_t ready_ = nullptr;     // the packing into buffer_ has finished
  cudaEvent_t released_ = nullptr;  // the consumer's last read has finished
};

// Recycles DeviceViews buffers like DeviceDisparityPool: a handle still held is never handed out
// again; one given back is reused once its consumer's reads have completed (stream-ordered).
class DeviceViewsPool {
 public:
  DeviceViewsPool() = default;
  DeviceViewsPool(const DeviceViewsPool&) = delete;
  DeviceViewsPool& operator=(const DeviceViewsPool&) = delete;

  // The two RGB views (width x height each, device) packed into RGBA on `stream`, as a handle
  // for the result. InputError for a null view or a size that is not positive.
  std::shared_ptr<const DeviceViews> copy(const Rgb8* left, const Rgb8* right, int width,
                                          int height, cudaStream_t stream);

 private:
  struct Shared {
    std::mutex mutex;
    std::vector<std::unique_ptr<DeviceViews>> free;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace sv::cuda
