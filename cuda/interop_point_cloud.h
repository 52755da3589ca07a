#pragma once

// The 3D view's vertex buffer written straight from the CUDA engine's result: the vertex kernel
// (point_cloud_vertices.h) reads the device disparity and writes the GL buffer registered with
// CUDA; no vertex crosses the host. GL thread only, context current.

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "cuda/device_buffer.h"
#include "cuda/device_disparity.h"
#include "cuda/device_views.h"
#include "cuda/gl_buffer_interop.h"
#include "src/core/image.h"
#include "src/core/point_cloud_math.h"

namespace sv::cuda {

class InteropPointCloud {
 public:
  InteropPointCloud();
  ~InteropPointCloud();
  InteropPointCloud(const InteropPointCloud&) = delete;
  InteropPointCloud& operator=(const InteropPointCloud&) = delete;

  // Writes one vertex per pixel of `disparity` into `gl_buffer` (of `capacity` vertices, at
  // least the disparity's pixels). Colours by image come from `views` (the views the engine left
  // on the GPU) when given, else from `left` (the host view, copied up: only the image, never
  // the vertices); the confidence, when the style needs it, from `confidence` (may be empty).
  // Registers the buffer on first use and again when its name or `generation` changes. Waits
  // for the engine on the GPU only, and marks the device results read.
  void show(const DeviceDisparity& disparity, const DeviceViews* views, const ImageRgb8& left,
            const ImageF32& confidence, const CloudProjection& projection,
            const CloudStyle& style, unsigned int gl_buffer, size_t capacity,
            uint64_t generation);
  // Unregisters the buffer: call before its storage is re-specified (glBufferData), as CUDA
  // requires of a registered resource; the next show() registers it again.
  void release();

 private:
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<uint8_t> left_;
  DeviceBuffer<float> confidence_;
  std::unique_ptr<GlBufferInterop> buffer_;
  uint64_t generation_ = 0;
};

}  // namespace sv::cuda
