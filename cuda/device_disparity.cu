#include "cuda/device_disparity.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

DeviceDisparity::DeviceDisparity() {
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&released_, cudaEventDisableTiming));
}

DeviceDisparity::~DeviceDisparity() {
  cudaEventSynchronize(released_);  // never free memory a consumer's queued read still uses
  cudaEventDestroy(ready_);
  cudaEventDestroy(released_);
}

void DeviceDisparity::mark_read_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaEventRecord(released_, stream));
}

std::shared_ptr<const DeviceDisparity> DeviceDisparityPool::copy(const int16_t* disparity,
                                                                 int width, int height,
                                                                 cudaStream_t stream) {
  std::unique_ptr<DeviceDisparity> frame;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    if (!shared_->free.empty()) {
      frame = std::move(shared_->free.back());
      shared_->free.pop_back();
    }
  }
  if (!frame) frame.reset(new DeviceDisparity());
  const size_t pixels = static_cast<size_t>(width) * height;
  frame->buffer_.reserve(pixels);
  frame->width_ = width;
  frame->height_ = height;
  // The previous consumer's read (if any) comes first; a never-recorded event counts as done.
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream, frame->released_, 0));
  SV_CUDA_CHECK(cudaMemcpyAsync(frame->buffer_.data(), disparity, pixels * sizeof(int16_t),
                                cudaMemcpyDeviceToDevice, stream));
  SV_CUDA_CHECK(cudaEventRecord(frame->ready_, stream));
  // Given back to the pool (or freed with it) when the last handle goes.
  std::weak_ptr<Shared> pool = shared_;
  return std::shared_ptr<const DeviceDisparity>(frame.release(), [pool](const DeviceDisparity* f) {
    std::unique_ptr<DeviceDisparity> owned(const_cast<DeviceDisparity*>(f));
    if (auto shared = pool.lock()) {
      std::lock_guard<std::mutex> lock(shared->mutex);
      shared->free.push_back(std::move(owned));
    }
  });
}

}  // namespace sv::cuda
