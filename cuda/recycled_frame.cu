#include "cuda/recycled_frame.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

FrameEvents::FrameEvents() {
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
  SV_CUDA_CHECK(cudaEventCreateWithFlags(&released_, cudaEventDisableTiming));
}

FrameEvents::~FrameEvents() {
  cudaEventSynchronize(released_);
  cudaEventDestroy(ready_);
  cudaEventDestroy(released_);
}

void FrameEvents::mark_read_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaEventRecord(released_, stream));
}

void FrameEvents::wait_for_release_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream, released_, 0));
}

void FrameEvents::mark_ready_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaEventRecord(ready_, stream));
}

}  // namespace sv::cuda
