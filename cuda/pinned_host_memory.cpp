#include "cuda/pinned_host_memory.h"

#include <cuda_runtime.h>

#include "cuda/cuda_check.h"

namespace sv::cuda {
namespace {

class PinnedHostMemory : public HostMemory {
 public:
  // cudaHostAlloc returns page-aligned memory (4 KiB and more), beyond the 64 bytes promised.
  void* allocate(size_t bytes) override {
    void* data = nullptr;
    SV_CUDA_CHECK(cudaHostAlloc(&data, bytes, cudaHostAllocDefault));
    return data;
  }
  void free(void* data) noexcept override {
    // Nothing to report to at this point (a block going back as its pool or engine goes).
    cudaFreeHost(data);
  }
  bool pinned() const override { return true; }
  const char* name() const override { return "pinned"; }
};

}  // namespace

std::shared_ptr<HostMemory> pinned_host_memory() {
  static const std::shared_ptr<HostMemory> memory = std::make_shared<PinnedHostMemory>();
  return memory;
}

}  // namespace sv::cuda
