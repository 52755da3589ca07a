#include "cuda/stage_events.h"

#include "cuda/cuda_check.h"

namespace sv::cuda {

StageEvents::~StageEvents() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

void StageEvents::begin(const std::string& stage, cudaStream_t stream) {
  while (events_.size() < used_ + 2) {
    cudaEvent_t e = nullptr;
    SV_CUDA_CHECK(cudaEventCreate(&e));
    events_.push_back(e);
  }
  names_.push_back(stage);
  SV_CUDA_CHECK(cudaEventRecord(events_[used_], stream));
  used_ += 2;
}

void StageEvents::end(cudaStream_t stream) {
  SV_CUDA_CHECK(cudaEventRecord(events_[used_ - 1], stream));
}

StageTimings StageEvents::collect() const {
  StageTimings timings;
  for (size_t i = 0; i < names_.size(); ++i) {
    float ms = 0.0f;
    SV_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[2 * i], events_[2 * i + 1]));
    timings.add(names_[i], ms);
  }
  if (!names_.empty()) {
    float span = 0.0f;
    SV_CUDA_CHECK(cudaEventElapsedTime(&span, events_[0], events_[used_ - 1]));
    timings.device_span_ms = span;
  }
  return timings;
}

}  // namespace sv::cuda
