#pragma once

// A GL buffer object written by CUDA (the 3D view's vertex buffer), in the CUDA samples' steps
// (simpleGL): register once, then per frame map, get the device pointer, write, unmap. GL names
// travel as `unsigned int`, as in gl_interop.h. GL thread only, the buffer's context current.

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace sv::cuda {

class GlBufferInterop {
 public:
  // Registers `gl_buffer` (an existing buffer object of at least `bytes` bytes) write-discard:
  // CUDA overwrites what it writes. Throws InputError for a zero name or size, or a buffer
  // smaller than `bytes` (checked once, mapped), CudaError when CUDA refuses.
  GlBufferInterop(unsigned int gl_buffer, size_t bytes);
  ~GlBufferInterop();
  GlBufferInterop(const GlBufferInterop&) = delete;
  GlBufferInterop& operator=(const GlBufferInterop&) = delete;

  // Maps the buffer on `stream`: its device address, valid until unmap(stream). GL commands
  // issued after unmap see what was written before it on the stream.
  void* map(cudaStream_t stream);
  void unmap(cudaStream_t stream);

  unsigned int buffer() const { return buffer_; }
  size_t bytes() const { return bytes_; }

 private:
  [[noreturn]] void fail(cudaError_t status, const std::string& step) const;

  unsigned int buffer_ = 0;
  size_t bytes_ = 0;
  cudaGraphicsResource_t resource_ = nullptr;
};

}  // namespace sv::cuda
