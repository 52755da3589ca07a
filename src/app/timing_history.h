#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "src/core/stage_timings.h"

namespace sv {

// Last, mean and maximum of one stage over the recent window of frames.
struct StageSummary {
  std::string stage;
  double last_ms = 0.0;
  double mean_ms = 0.0;
  double max_ms = 0.0;
  size_t samples = 0;  // frames of the window in which the stage ran
};

// The timings panel's data: per-stage statistics over the last `window` frames, plus the total
// frame time of each of those frames for the history plot. Stages keep the order in which they
// first appeared, so the table reads like the pipeline. Not thread-safe: one owner (the GL thread).
class TimingHistory {
 public:
  explicit TimingHistory(size_t window = 120);

  void add(const StageTimings& timings, double frame_ms);
  void clear();

  size_t window() const { return window_; }
  size_t frames() const { return frames_.size(); }
  std::vector<StageSummary> summary() const;
  // Oldest first, at most window() values: what ImGui::PlotLines draws.
  std::vector<float> frame_times_ms() const;

 private:
  struct Frame {
    StageTimings timings;
    double frame_ms = 0.0;
  };
  size_t window_;
  std::deque<Frame> frames_;
  std::vector<std::string> stage_order_;
};

// A GPU frame's stages plus a last row, kHostStage, for the host's own time in the frame
// (ProcessedFrame::host_ms: the processing thread's time on it less collect()'s wait for the
// GPU, frame_pipeline_queue.h). CPU frames come back as they are: their stages are the engine's
// compute on the host, which that row must not be mistaken for.
inline constexpr const char* kHostStage = "host (outside GPU)";
StageTimings with_host_time(StageTimings timings, double host_ms);

// Events per second over the last second or so (capture, processing and display rates).
// The caller passes the time, so tests need no clock.
class RateMeter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RateMeter(double window_s = 1.0) : window_s_(window_s) {}
  void tick(Clock::time_point now = Clock::now());
  // 0 until two events were seen within the window.
  double per_second(Clock::time_point now = Clock::now()) const;

 private:
  double window_s_;
  std::deque<Clock::time_point> ticks_;
};

}  // namespace sv
