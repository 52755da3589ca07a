#pragma once

// The viewer's left and right view textures written straight from the CUDA engine's rectified
// views (DeviceViews): no host round trip, the counterpart of InteropDisparityView for the views.
// GL thread only, context current.

#include <cuda_runtime.h>

#include <memory>

#include "cuda/device_views.h"
#include "cuda/gl_interop.h"

namespace sv::cuda {

class InteropViews {
 public:
  InteropViews();
  ~InteropViews();
  InteropViews(const InteropViews&) = delete;
  InteropViews& operator=(const InteropViews&) = delete;

  // Copies the views into `left_texture` and `right_texture`, RGBA8 textures of the views' size.
  // Registers each texture on first use and again when its name or the size changes. Waits for
  // the engine's copy on the GPU only, and marks the views read (also when a copy fails) so the
  // engine can reuse their buffer. InputError when a texture's storage is not the views' size.
  void show(const DeviceViews& views, unsigned int left_texture, unsigned int right_texture);

 private:
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<GlTextureInterop> left_, right_;
};

}  // namespace sv::cuda
