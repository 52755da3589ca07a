#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "src/core/stage_timings.h"

namespace sv::cuda {

// Per-stage GPU timings from pairs of CUDA events recorded on the pipeline's stream. Events are
// created once and reused frame after frame; collect() reads them after the frame's final
// synchronization, so timing never adds a wait of its own.
class StageEvents {
 public:
  explicit StageEvents(cudaStream_t stream) : stream_(stream) {}
  ~StageEvents();
  StageEvents(const StageEvents&) = delete;
  StageEvents& operator=(const StageEvents&) = delete;

  void begin_frame() { used_ = 0; names_.clear(); }
  // Records the start / end event of a stage on the default stream of this object, or on
  // `stream` for stages that run elsewhere (the upload).
  void begin(const std::string& stage) { begin(stage, stream_); }
  void begin(const std::string& stage, cudaStream_t stream);
  void end() { end(stream_); }
  void end(cudaStream_t stream);
  // Only after the streams have finished the frame; the span runs from the first stage's start
  // to the last stage's end (the last recorded must be the last to run).
  StageTimings collect() const;

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;  // start, end, start, end, ...
  std::vector<std::string> names_;
  size_t used_ = 0;
};

// Records `stage` around a scope.
class ScopedStage {
 public:
  ScopedStage(StageEvents& events, const std::string& stage) : events_(events) {
    events_.begin(stage);
  }
  ~ScopedStage() { events_.end(); }
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;

 private:
  StageEvents& events_;
};

}  // namespace sv::cuda
