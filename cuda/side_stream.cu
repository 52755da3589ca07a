#include "cuda/side_stream.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

SideStream::~SideStream() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
  if (forked_ != nullptr) cudaEventDestroy(forked_);
  if (done_ != nullptr) cudaEventDestroy(done_);
}

cudaStream_t SideStream::fork(cudaStream_t main) {
  if (stream_ == nullptr) {
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    SV_CUDA_CHECK(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
    SV_CUDA_CHECK(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
  }
  SV_CUDA_CHECK(cudaEventRecord(forked_, main));
  SV_CUDA_CHECK(cudaStreamWaitEvent(stream_, forked_, 0));
  return stream_;
}

void SideStream::join(cudaStream_t main) {
  SV_CUDA_CHECK(cudaEventRecord(done_, stream_));
  SV_CUDA_CHECK(cudaStreamWaitEvent(main, done_, 0));
}

}  // namespace sv::cuda
