#pragma once

#include <memory>

#include "src/core/host_memory.h"

namespace sv::cuda {

// Page-locked host memory (cudaHostAlloc), which the GPU copies asynchronously without staging:
// the CUDA engine's HostMemory (StereoEngine::host_memory), shared by every engine of the process.
std::shared_ptr<HostMemory> pinned_host_memory();

}  // namespace sv::cuda
