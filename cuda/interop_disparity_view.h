#pragma once

// The viewer's disparity texture written straight from the CUDA engine's result: the device
// disparity is colorized on the GPU (the same colours as sv::colorize_disparity) into a scratch
// buffer and copied into the GL texture through CUDA-GL interop. GL thread only, context current.

#include <cuda_runtime.h>

#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/device_disparity.h"
#include "cuda/gl_interop.h"
#include "src/core/colorize.h"

namespace sv::cuda {

class InteropDisparityView {
 public:
  InteropDisparityView();
  ~InteropDisparityView();
  InteropDisparityView(const InteropDisparityView&) = delete;
  InteropDisparityView& operator=(const InteropDisparityView&) = delete;

  // Colorizes `disparity` over [min_value, max_value] with `map` (invalid pixels `invalid`) into
  // `gl_texture`, an RGBA8 texture of the disparity's size. Registers the texture on first use
  // and again when its name or size changes. Waits for the engine's copy on the GPU only, and
  // marks the disparity read so the engine can reuse its buffer.
  void show(const DeviceDisparity& disparity, float min_value, float max_value, Colormap map,
            Rgb8 invalid, unsigned int gl_texture);

 private:
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<uchar4> rgba_;
  std::unique_ptr<GlTextureInterop> texture_;
};

}  // namespace sv::cuda
