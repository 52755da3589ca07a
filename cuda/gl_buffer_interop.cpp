#include "cuda/gl_buffer_interop.h"

#include <cuda_gl_interop.h>

#include "cuda/cuda_check.h"
#include "src/core/error.h"

namespace sv::cuda {

GlBufferInterop::GlBufferInterop(unsigned int gl_buffer, size_t bytes)
    : buffer_(gl_buffer), bytes_(bytes) {
  if (gl_buffer == 0) throw InputError("CUDA-GL interop: 0 is not a GL buffer name");
  if (bytes == 0) throw InputError("CUDA-GL interop: a buffer of 0 bytes");
  const cudaError_t status = cudaGraphicsGLRegisterBuffer(&resource_, gl_buffer,
                                                          cudaGraphicsRegisterFlagsWriteDiscard);
  if (status != cudaSuccess) {
    resource_ = nullptr;
    fail(status, "registering it (a buffer object of a current context on this CUDA device?)");
  }
  // Its real size once, so a stale size fails here rather than as a write past its end.
  size_t mapped = 0;
  try {
    SV_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, nullptr));
    void* pointer = nullptr;
    const cudaError_t got = cudaGraphicsResourceGetMappedPointer(&pointer, &mapped, resource_);
    cudaGraphicsUnmapResources(1, &resource_, nullptr);
    if (got != cudaSuccess) fail(got, "getting its mapped address");
  } catch (...) {
    cudaGraphicsUnregisterResource(resource_);
    throw;
  }
  if (mapped < bytes) {
    cudaGraphicsUnregisterResource(resource_);
    resource_ = nullptr;
    throw InputError("CUDA-GL interop, GL buffer " + std::to_string(buffer_) + ": it holds " +
                     std::to_string(mapped) + " bytes, not " + std::to_string(bytes) +
                     " (resized without registering again?)");
  }
}

GlBufferInterop::~GlBufferInterop() {
  if (resource_) cudaGraphicsUnregisterResource(resource_);
}

void* GlBufferInterop::map(cudaStream_t stream) {
  cudaError_t status = cudaGraphicsMapResources(1, &resource_, stream);
  if (status != cudaSuccess) fail(status, "mapping it");
  void* pointer = nullptr;
  size_t size = 0;
  status = cudaGraphicsResourceGetMappedPointer(&pointer, &size, resource_);
  if (status != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream);
    fail(status, "getting its mapped address");
  }
  return pointer;
}

void GlBufferInterop::unmap(cudaStream_t stream) {
  const cudaError_t status = cudaGraphicsUnmapResources(1, &resource_, stream);
  if (status != cudaSuccess) fail(status, "unmapping it");
}

void GlBufferInterop::fail(cudaError_t status, const std::string& step) const {
  cudaGetLastError();  // not to resurface in a later launch check
  throw CudaError("CUDA-GL interop, GL buffer " + std::to_string(buffer_) + " (" +
                  std::to_string(bytes_) + " bytes): " + step + " failed: " +
                  cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace sv::cuda
