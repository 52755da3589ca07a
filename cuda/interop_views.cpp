#include "cuda/interop_views.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {
namespace {

// The registration of `texture` for a width x height image, made again when it no longer fits.
void register_for(std::unique_ptr<GlTextureInterop>& interop, unsigned int texture, int width,
                  int height) {
  if (interop && interop->texture() == texture && interop->width() == width &&
      interop->height() == height) {
    return;
  }
  interop.reset();
  interop = std::make_unique<GlTextureInterop>(texture, width, height);
}

}  // namespace

InteropViews::InteropViews() {
  SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

InteropViews::~InteropViews() {
  left_.reset();  // unregister while the stream still exists
  right_.reset();
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void InteropViews::show(const DeviceViews& views, unsigned int left_texture,
                        unsigned int right_texture) {
  register_for(left_, left_texture, views.width(), views.height());
  register_for(right_, right_texture, views.width(), views.height());
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream_, views.ready(), 0));
  try {
    left_->write_rgba(views.left(), stream_);
    right_->write_rgba(views.right(), stream_);
  } catch (...) {
    views.mark_read_on(stream_);  // a copy already queued must still finish before reuse
    throw;
  }
  views.mark_read_on(stream_);
}

}  // namespace sv::cuda
