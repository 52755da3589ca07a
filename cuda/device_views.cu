#include "cuda/device_views.h"

#include <string>

#include "cuda/cuda_check.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

constexpr int kThreads = 256;

// RGB to RGBA with alpha 255 for both views in one launch. Memory bound: 3 bytes in, 4 out per
// pixel; one thread per pixel of the two views laid end to end.
__global__ void pack_views_kernel(const Rgb8* left, const Rgb8* right, size_t pixels,
                                  uchar4* rgba) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= 2 * pixels) return;
  const Rgb8 c = i < pixels ? left[i] : right[i - pixels];
  rgba[i] = make_uchar4(c.r, c.g, c.b, 255);
}

}  // namespace

DeviceViews::DeviceViews() {
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&released_, cudaEventDisableTiming));
}

DeviceViews::~DeviceViews() {
  cudaEventSynchronize(released_);  // never free memory a consumer's queued read still uses
  cudaEventDestroy(ready_);
  cudaEventDestroy(released_);
}

void DeviceViews::mark_read_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaEventRecord(released_, stream));
}

std::shared_ptr<const DeviceViews> DeviceViewsPool::copy(const Rgb8* left, const Rgb8* right,
                                                         int width, int height,
                                                         cudaStream_t stream) {
  if (left == nullptr || right == nullptr) throw InputError("device views: a view is missing");
  if (width <= 0 || height <= 0) {
    throw InputError("device views: size must be positive, got " + std::to_string(width) + "x" +
                     std::to_string(height));
  }
  std::unique_ptr<DeviceViews> frame;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    if (!shared_->free.empty()) {
      frame = std::move(shared_->free.back());
      shared_->free.pop_back();
    }
  }
  if (!frame) frame.reset(new DeviceViews());
  const size_t pixels = static_cast<size_t>(width) * height;
  frame->buffer_.reserve(2 * pixels);
  frame->width_ = width;
  frame->height_ = height;
  // The previous consumer's reads (if any) come first; a never-recorded event counts as done.
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream, frame->released_, 0));
  const unsigned blocks = static_cast<unsigned>((2 * pixels + kThreads - 1) / kThreads);
  pack_views_kernel<<<blocks, kThreads, 0, stream>>>(left, right, pixels, frame->buffer_.data());
  SV_CUDA_CHECK_LAUNCH();
  SV_CUDA_CHECK(cudaEventRecord(frame->ready_, stream));
  // Given back to the pool (or freed with it) when the last handle goes.
  std::weak_ptr<Shared> pool = shared_;
  return std::shared_ptr<const DeviceViews>(frame.release(), [pool](const DeviceViews* f) {
    std::unique_ptr<DeviceViews> owned(const_cast<DeviceViews*>(f));
    if (auto shared = pool.lock()) {
      std::lock_guard<std::mutex> lock(shared->mutex);
      shared->free.push_back(std::move(owned));
    }
  });
}

}  // namespace sv::cuda
