#include "cuda/interop_disparity_view.h"

#include "cuda/cuda_check.h"
#include "cuda/stages.h"

namespace sv::cuda {

InteropDisparityView::InteropDisparityView() {
  SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

InteropDisparityView::~InteropDisparityView() {
  texture_.reset();  // unregister while the stream still exists
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void InteropDisparityView::show(const DeviceDisparity& disparity, float min_value,
                                float max_value, Colormap map, Rgb8 invalid,
                                unsigned int gl_texture) {
  const int width = disparity.width(), height = disparity.height();
  if (!texture_ || texture_->texture() != gl_texture || texture_->width() != width ||
      texture_->height() != height) {
    texture_.reset();
    texture_ = std::make_unique<GlTextureInterop>(gl_texture, width, height);
  }
  rgba_.reserve(static_cast<size_t>(width) * height);
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream_, disparity.ready(), 0));
  colorize_disparity(disparity.data(), width, height, min_value,
                     colorize_inverse_range(min_value, max_value), map, invalid, rgba_.data(),
                     stream_);
  disparity.mark_read_on(stream_);
  texture_->write_rgba(rgba_.data(), stream_);
}

}  // namespace sv::cuda
