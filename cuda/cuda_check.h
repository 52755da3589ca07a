#pragma once

#include <cuda_runtime.h>

#include <string>

#include "src/core/error.h"

namespace sv::cuda {

// A failed CUDA call, with the call's text, file:line and the runtime's name for the error.
class CudaError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                          int line) {
  throw CudaError(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                  cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace sv::cuda

#define SV_CUDA_CHECK(call)                                                       \
  do {                                                                            \
    const cudaError_t sv_status_ = (call);                                        \
    if (sv_status_ != cudaSuccess) ::sv::cuda::throw_cuda_error(sv_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After every <<<>>> launch: reports launch-configuration errors at once.
#define SV_CUDA_CHECK_LAUNCH() SV_CUDA_CHECK(cudaGetLastError())
