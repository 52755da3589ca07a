#include "cuda/device_disparity.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

std::shared_ptr<const DeviceDisparity> DeviceDisparityPool::copy(const int16_t* disparity,
                                                                 int width, int height,
                                                                 cudaStream_t stream) {
  std::unique_ptr<DeviceDisparity> frame = frames_.take();
  const size_t pixels = static_cast<size_t>(width) * height;
  frame->buffer_.reserve(pixels);
  frame->width_ = width;
  frame->height_ = height;
  frame->events_.wait_for_release_on(stream);  // the previous consumer's read comes first
  SV_CUDA_CHECK(cudaMemcpyAsync(frame->buffer_.data(), disparity, pixels * sizeof(int16_t),
                                cudaMemcpyDeviceToDevice, stream));
  frame->events_.mark_ready_on(stream);
  return frames_.hand_out(std::move(frame));
}

}  // namespace sv::cuda
