#include "ui/gpu_memory.h"

#include <cstdio>

#ifdef STEREOVIEW_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace sv {

std::string gpu_memory_text() {
#ifdef STEREOVIEW_HAS_CUDA
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are unaffected
    return "n/a (no CUDA device)";
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.0f / %.0f MiB", (total_bytes - free_bytes) / 1048576.0,
                total_bytes / 1048576.0);
  return text;
#else
  return "n/a (built without CUDA)";
#endif
}

}  // namespace sv
