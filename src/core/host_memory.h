#pragma once

#include <cstddef>
#include <memory>

namespace sv {

// Where an engine's host-side images live: memory it copies to and from its device without
// staging them first (page-locked memory on the CUDA engine, plain memory on the CPU engines).
// A frame loop takes its input pairs from a pool of it (block_pool.h), and the CUDA engine's
// results arrive in blocks of it, so no frame is copied on the host on its way in or out.
class HostMemory {
 public:
  virtual ~HostMemory() = default;
  // `bytes` of memory aligned to at least 64 bytes; throws RuntimeError when none can be had.
  virtual void* allocate(size_t bytes) = 0;
  virtual void free(void* data) noexcept = 0;
  // Whether an engine's device can copy it asynchronously (cudaMemcpyAsync from pinned memory).
  virtual bool pinned() const { return false; }
  virtual const char* name() const = 0;
};

// Ordinary memory (operator new, 64-byte aligned), shared by every caller.
std::shared_ptr<HostMemory> plain_host_memory();

// A piece of host memory of one HostMemory, handed out by a BlockPool; shared_ptr owners give it
// back to its pool when the last of them lets go.
class PixelBlock {
 public:
  PixelBlock(void* data, size_t bytes, HostMemory* memory)
      : data_(data), bytes_(bytes), memory_(memory) {}
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  HostMemory& memory() const { return *memory_; }

 private:
  void* data_;
  size_t bytes_;
  HostMemory* memory_;
};

}  // namespace sv
