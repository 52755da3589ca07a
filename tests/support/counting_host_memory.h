#pragma once

// Plain host memory that counts its allocations and frees and says whose blocks are whose: the
// tests' way to see that a frame loop's steady state allocates nothing and that pairs reach the
// engine in its memory.
#include <atomic>
#include <new>

#include "src/core/host_memory.h"

namespace sv::test {

class CountingHostMemory : public HostMemory {
 public:
  void* allocate(size_t bytes) override {
    ++allocations;
    return ::operator new(bytes, std::align_val_t(64));
  }
  void free(void* data) noexcept override {
    ++frees;
    ::operator delete(data, std::align_val_t(64));
  }
  const char* name() const override { return "counting"; }

  std::atomic<int> allocations{0};
  std::atomic<int> frees{0};
};

}  // namespace sv::test
