// CUDA-GL interop in the few explicit steps of the CUDA samples: register once, then per frame
// map, copy into the mapped array, unmap; every call checked. The only file of the CUDA layer
// that needs the GL headers (cuda_gl_interop.h includes GL/gl.h); it links no GL library.
#include "cuda/gl_interop.h"

#include <cuda_gl_interop.h>

#include <algorithm>
#include <string>

#include "cuda/cuda_check.h"
#include "src/core/error.h"

namespace sv::cuda {
namespace {

std::string size_text(size_t width, size_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

// A failed runtime call is also recorded as the thread's last error; clear it so it does not
// resurface in an unrelated launch check (SV_CUDA_CHECK_LAUNCH) later.
std::string describe_and_clear(cudaError_t status) {
  cudaGetLastError();
  return std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
}

}  // namespace

bool current_gl_context_is_on_cuda_device(std::string* reason) {
  auto say = [reason](const std::string& text) {
    if (reason) *reason = text;
  };
  int current = -1;
  const cudaError_t device_status = cudaGetDevice(&current);
  if (device_status != cudaSuccess) {
    say("no CUDA device: " + describe_and_clear(device_status));
    return false;
  }
  constexpr unsigned int kMaxDevices = 16;
  int devices[kMaxDevices] = {};
  unsigned int count = 0;
  const cudaError_t status = cudaGLGetDevices(&count, devices, kMaxDevices, cudaGLDeviceListAll);
  if (status != cudaSuccess) {
    say("the current GL context is not on a CUDA device (cudaGLGetDevices: " +
        describe_and_clear(status) + ")");
    return false;
  }
  std::string listed;
  for (unsigned int i = 0; i < std::min(count, kMaxDevices); ++i) {
    if (devices[i] == current) {
      say("GL and CUDA share CUDA device " + std::to_string(current));
      return true;
    }
    listed += (listed.empty() ? "" : ", ") + std::to_string(devices[i]);
  }
  say(listed.empty() ? "the current GL context uses no CUDA device"
                     : "the current GL context is on CUDA device " + listed +
                           ", the pipeline on CUDA device " + std::to_string(current));
  return false;
}

GlTextureInterop::GlTextureInterop(unsigned int gl_texture, int width, int height)
    : texture_(gl_texture), width_(width), height_(height) {
  if (gl_texture == 0) throw InputError("CUDA-GL interop: 0 is not a GL texture name");
  if (width <= 0 || height <= 0) {
    throw InputError("CUDA-GL interop: texture size must be positive, got " +
                     std::to_string(width) + "x" + std::to_string(height));
  }
  const cudaError_t status = cudaGraphicsGLRegisterImage(&resource_, gl_texture, GL_TEXTURE_2D,
                                                         cudaGraphicsRegisterFlagsWriteDiscard);
  if (status != cudaSuccess) {
    resource_ = nullptr;
    fail(status, "registering it (is an RGBA8 GL_TEXTURE_2D of a current context on this CUDA "
                 "device?)");
  }

  // Compare the caller's size and format with the texture's real storage once, so a stale size
  // fails here with a clear message rather than as a copy past the end of the array later.
  cudaChannelFormatDesc format{};
  cudaExtent extent{};
  unsigned int flags = 0;
  cudaError_t info_status = cudaSuccess;
  try {
    const cudaArray_t array = map(nullptr);
    info_status = cudaArrayGetInfo(&format, &extent, &flags, array);
    unmap(nullptr);
  } catch (...) {
    cudaGraphicsUnregisterResource(resource_);
    throw;
  }
  std::string problem;
  if (info_status != cudaSuccess) {
    problem = "reading its size failed: " + describe_and_clear(info_status);
  } else if (extent.width != static_cast<size_t>(width) ||
             std::max<size_t>(extent.height, 1) != static_cast<size_t>(height)) {
    // CUDA reports height 0 for an array of a single row.
    problem = "its storage is " + size_text(extent.width, std::max<size_t>(extent.height, 1)) +
              ", not " +
              size_text(width, height) + " (resized without registering again?)";
  } else if (format.x != 8 || format.y != 8 || format.z != 8 || format.w != 8 ||
             format.f != cudaChannelFormatKindUnsigned) {
    problem = "its format is not RGBA8 (channel bits " + std::to_string(format.x) + "," +
              std::to_string(format.y) + "," + std::to_string(format.z) + "," +
              std::to_string(format.w) + ")";
  }
  if (!problem.empty()) {
    cudaGraphicsUnregisterResource(resource_);
    resource_ = nullptr;
    throw InputError("CUDA-GL interop, GL texture " + std::to_string(texture_) + ": " + problem);
  }
}

GlTextureInterop::~GlTextureInterop() {
  // A destructor cannot report; a failure here (the GL context already gone) leaks nothing that
  // outlives the CUDA context.
  if (resource_) cudaGraphicsUnregisterResource(resource_);
}

void GlTextureInterop::write_rgba(const uchar4* device_rgba, cudaStream_t stream) {
  if (device_rgba == nullptr) throw InputError("CUDA-GL interop: no source image (null pointer)");
  const cudaArray_t array = map(stream);
  const size_t row_bytes = static_cast<size_t>(width_) * sizeof(uchar4);
  const cudaError_t status =
      cudaMemcpy2DToArrayAsync(array, 0, 0, device_rgba, row_bytes, row_bytes,
                               static_cast<size_t>(height_), cudaMemcpyDeviceToDevice, stream);
  if (status != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream);  // leave it usable for the next frame
    fail(status, "copying the image into it");
  }
  unmap(stream);
}

cudaArray_t GlTextureInterop::map(cudaStream_t stream) {
  cudaError_t status = cudaGraphicsMapResources(1, &resource_, stream);
  if (status != cudaSuccess) fail(status, "mapping it");
  cudaArray_t array = nullptr;
  status = cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0);
  if (status != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream);
    fail(status, "getting its mapped array");
  }
  return array;
}

void GlTextureInterop::unmap(cudaStream_t stream) {
  const cudaError_t status = cudaGraphicsUnmapResources(1, &resource_, stream);
  if (status != cudaSuccess) fail(status, "unmapping it");
}

void GlTextureInterop::fail(cudaError_t status, const std::string& step) const {
  throw CudaError("CUDA-GL interop, GL texture " + std::to_string(texture_) + " (" +
                  size_text(width_, height_) + " RGBA8): " + step + " failed: " +
                  describe_and_clear(status));
}

}  // namespace sv::cuda
