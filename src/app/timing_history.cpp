#include "src/app/timing_history.h"

#include <algorithm>

namespace sv {

StageTimings with_host_time(StageTimings timings, double host_ms) {
  if (timings.device_span_ms > 0.0) timings.add(kHostStage, host_ms);
  return timings;
}

TimingHistory::TimingHistory(size_t window) : window_(window < 1 ? 1 : window) {}

void TimingHistory::add(const StageTimings& timings, double frame_ms) {
  for (const StageTiming& s : timings.stages) {
    if (std::find(stage_order_.begin(), stage_order_.end(), s.stage) == stage_order_.end()) {
      stage_order_.push_back(s.stage);
    }
  }
  frames_.push_back({timings, frame_ms});
  while (frames_.size() > window_) frames_.pop_front();
}

void TimingHistory::clear() {
  frames_.clear();
  stage_order_.clear();
}

std::vector<StageSummary> TimingHistory::summary() const {
  std::vector<StageSummary> rows;
  for (const std::string& stage : stage_order_) {
    StageSummary row;
    row.stage = stage;
    double sum = 0.0;
    for (const Frame& frame : frames_) {
      // A stage may run more than once in a frame (one pass per pyramid level): a frame's
      // figure for it is the sum of its runs.
      double frame_total = 0.0;
      bool ran = false;
      for (const StageTiming& s : frame.timings.stages) {
        if (s.stage == stage) {
          frame_total += s.milliseconds;
          ran = true;
        }
      }
      if (!ran) continue;
      sum += frame_total;
      row.max_ms = row.samples == 0 ? frame_total : std::max(row.max_ms, frame_total);
      row.last_ms = frame_total;
      ++row.samples;
    }
    // Stages of frames that have left the window drop out of the table.
    if (row.samples == 0) continue;
    row.mean_ms = sum / static_cast<double>(row.samples);
    rows.push_back(row);
  }
  return rows;
}

std::vector<float> TimingHistory::frame_times_ms() const {
  std::vector<float> values;
  values.reserve(frames_.size());
  for (const Frame& frame : frames_) values.push_back(static_cast<float>(frame.frame_ms));
  return values;
}

void RateMeter::tick(Clock::time_point now) {
  ticks_.push_back(now);
  const auto window = std::chrono::duration<double>(window_s_);
  while (ticks_.size() > 2 && now - ticks_.front() > window) ticks_.pop_front();
}

double RateMeter::per_second(Clock::time_point now) const {
  if (ticks_.size() < 2) return 0.0;
  // A source that stopped delivering reads 0, not its last rate.
  if (std::chrono::duration<double>(now - ticks_.back()).count() > 2.0 * window_s_) return 0.0;
  const double span = std::chrono::duration<double>(ticks_.back() - ticks_.front()).count();
  return span > 0.0 ? static_cast<double>(ticks_.size() - 1) / span : 0.0;
}

}  // namespace sv
