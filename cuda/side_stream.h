#pragma once

#include <cuda_runtime.h>

namespace sv::cuda {

// A second stream for work that runs beside a frame's main stream: fork() makes it wait for what
// the main stream queued so far, join() makes the main stream wait for what was queued on it.
// Created on first use (so that owners can exist before a CUDA context does); not copyable.
class SideStream {
 public:
  SideStream() = default;
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;
  ~SideStream();

  cudaStream_t fork(cudaStream_t main);
  void join(cudaStream_t main);

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t forked_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

}  // namespace sv::cuda
