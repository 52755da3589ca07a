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
  // Several consumers may read one frame on their own streams (the disparity view and the 3D
  // view): each mark first waits for the one before, so the event completes only after every
  // read marked so far, not just the last.
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream, released_, 0));
  SV_CUDA_CHECK(cudaEventRecord(released_, stream));
}

void FrameEvents::wait_for_release_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream, released_, 0));
}

void FrameEvents::mark_ready_on(cudaStream_t stream) const {
  SV_CUDA_CHECK(cudaEventRecord(ready_, stream));
}

}  // namespace sv::cuda
