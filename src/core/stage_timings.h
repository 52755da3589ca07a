#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace sv {

// Wall time of each pipeline stage of one frame, in the order the stages ran. The CUDA engine
// fills the same structure from CUDA events.
struct StageTiming {
  std::string stage;
  double milliseconds = 0.0;
};

struct StageTimings {
  std::vector<StageTiming> stages;
  // Engines with a device: the time from the frame's first GPU event (its upload) to its last
  // (its download). A frame's wall time minus this is the host's own time. 0 on the host.
  double device_span_ms = 0.0;
  // How long collect() was blocked waiting for the engine's work on this frame: a CPU engine's
  // worker computing it, the CUDA engine's synchronize on its last event. A frame loop's own time
  // on the frame minus this is its host time (frame_pipeline_queue.h), which then never counts
  // the engine's compute, on the host or on the GPU. 0 when the frame was ready.
  double collect_wait_ms = 0.0;
  // Host time the engine spent copying this frame's pixels on the host (into upload staging, out
  // of download staging): the part of the host time a frame loop can save with pooled pairs
  // (StereoEngine::host_memory) and pooled results. 0 when nothing was copied.
  double host_copy_ms = 0.0;

  void add(const std::string& stage, double ms) { stages.push_back({stage, ms}); }
  double total_ms() const {
    double sum = 0.0;
    for (const auto& s : stages) sum += s.milliseconds;
    return sum;
  }
};

// Adds the time from construction to destruction to `timings` under `stage`.
class ScopedStageTimer {
 public:
  ScopedStageTimer(StageTimings& timings, std::string stage)
      : timings_(timings), stage_(std::move(stage)), start_(std::chrono::steady_clock::now()) {}
  ~ScopedStageTimer() {
    const auto end = std::chrono::steady_clock::now();
    timings_.add(stage_, std::chrono::duration<double, std::milli>(end - start_).count());
  }
  ScopedStageTimer(const ScopedStageTimer&) = delete;
  ScopedStageTimer& operator=(const ScopedStageTimer&) = delete;

 private:
  StageTimings& timings_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sv
