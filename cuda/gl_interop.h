#pragma once

// CUDA-GL interop for the viewer: the CUDA pipeline writes RGBA8 images straight into GL
// textures, with no host round trip. GL names travel as plain `unsigned int` so this header
// needs no GL header and callers keep their own loader (GLAD in the viewer, libOpenGL in tests).
// Every call here must run on the GL thread with the texture's context current.

#include <cuda_runtime.h>

#include <string>

namespace sv::cuda {

// True when the GL context current on this thread runs on the current CUDA device, i.e. interop
// can work; false with no current context, a GL on another GPU, or Mesa's software GL (Xvfb),
// where the viewer uploads from the host instead. `reason`, when given, receives a one-line
// explanation either way, for the UI to say which path is active and why.
bool current_gl_context_is_on_cuda_device(std::string* reason = nullptr);

// One RGBA8 GL_TEXTURE_2D registered with CUDA once (write-discard: CUDA overwrites all of it).
// A texture whose storage is re-specified (resized) must be registered again: destroy this
// object first, resize, then construct a new one. Not copyable; hold it by unique_ptr/optional.
class GlTextureInterop {
 public:
  // Registers `gl_texture` (an existing GL_TEXTURE_2D with GL_RGBA8 storage of exactly
  // width x height, level 0) and checks its size and format through CUDA. Throws InputError for
  // a bad size or a texture that does not match it, CudaError (cuda/cuda_check.h) when CUDA
  // refuses (no current context, a context on another device, an unsupported format).
  GlTextureInterop(unsigned int gl_texture, int width, int height);
  ~GlTextureInterop();
  GlTextureInterop(const GlTextureInterop&) = delete;
  GlTextureInterop& operator=(const GlTextureInterop&) = delete;

  // Copies width x height RGBA8 pixels (dense rows, row 0 first = GL's row 0) from device memory
  // into the texture, ordered on `stream`: map, device-to-array copy, unmap. GL commands issued
  // after this return see the new contents; the host does not wait.
  void write_rgba(const uchar4* device_rgba, cudaStream_t stream);

  unsigned int texture() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  cudaArray_t map(cudaStream_t stream);
  void unmap(cudaStream_t stream);
  [[noreturn]] void fail(cudaError_t status, const std::string& step) const;

  unsigned int texture_ = 0;
  int width_ = 0;
  int height_ = 0;
  cudaGraphicsResource_t resource_ = nullptr;
};

}  // namespace sv::cuda
