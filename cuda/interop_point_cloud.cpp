#include "cuda/interop_point_cloud.h"

#include <string>

#include "cuda/cuda_check.h"
#include "cuda/point_cloud_vertices.h"
#include "src/core/error.h"

namespace sv::cuda {

InteropPointCloud::InteropPointCloud() {
  SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

InteropPointCloud::~InteropPointCloud() {
  buffer_.reset();  // unregister while the stream still exists
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void InteropPointCloud::release() {
  if (buffer_) SV_CUDA_CHECK(cudaStreamSynchronize(stream_));  // no write still queued on it
  buffer_.reset();
}

void InteropPointCloud::show(const DeviceDisparity& disparity, const DeviceViews* views,
                             const ImageRgb8& left, const ImageF32& confidence,
                             const CloudProjection& projection, const CloudStyle& style,
                             unsigned int gl_buffer, size_t capacity, uint64_t generation) {
  const int width = disparity.width(), height = disparity.height();
  const size_t pixels = static_cast<size_t>(width) * height;
  if (capacity < pixels) {
    throw InputError("3D view: a vertex buffer of " + std::to_string(capacity) +
                     " vertices for " + std::to_string(width) + "x" + std::to_string(height));
  }
  const size_t bytes = capacity * sizeof(CloudVertex);
  if (!buffer_ || buffer_->buffer() != gl_buffer || buffer_->bytes() != bytes ||
      generation_ != generation) {
    buffer_.reset();
    buffer_ = std::make_unique<GlBufferInterop>(gl_buffer, bytes);
    generation_ = generation;
  }

  const uint8_t* left_device = nullptr;
  int left_channels = 0;
  if (style.colour == CloudColour::Image) {
    if (views != nullptr && views->width() == width && views->height() == height) {
      SV_CUDA_CHECK(cudaStreamWaitEvent(stream_, views->ready(), 0));
      left_device = reinterpret_cast<const uint8_t*>(views->left());
      left_channels = 4;
    } else if (left.same_size(width, height)) {
      left_.reserve(pixels * 3);
      SV_CUDA_CHECK(cudaMemcpyAsync(left_.data(), left.data(), pixels * 3,
                                    cudaMemcpyHostToDevice, stream_));
      left_device = left_.data();
      left_channels = 3;
    }
  }
  const float* confidence_device = nullptr;
  const bool needs_confidence = style.colour == CloudColour::Confidence || style.min_confidence > 0.0f;
  if (needs_confidence && confidence.same_size(width, height)) {
    confidence_.reserve(pixels);
    SV_CUDA_CHECK(cudaMemcpyAsync(confidence_.data(), confidence.data(), pixels * sizeof(float),
                                  cudaMemcpyHostToDevice, stream_));
    confidence_device = confidence_.data();
  }

  SV_CUDA_CHECK(cudaStreamWaitEvent(stream_, disparity.ready(), 0));
  auto* vertices = static_cast<CloudVertex*>(buffer_->map(stream_));
  try {
    point_cloud_vertices(disparity.data(), left_device, left_channels, confidence_device, width,
                         height, projection, style, vertices, stream_);
  } catch (...) {
    buffer_->unmap(stream_);
    throw;
  }
  disparity.mark_read_on(stream_);
  if (left_channels == 4) views->mark_read_on(stream_);
  buffer_->unmap(stream_);
}

}  // namespace sv::cuda
