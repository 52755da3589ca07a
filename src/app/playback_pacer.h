#pragma once

#include <chrono>

namespace sv {

// Holds a file back to its own frame rate (--realtime): wait() returns when the next frame is due,
// counting from the first call. When processing falls behind, frames go out at once and the
// schedule restarts from now instead of rushing to catch up. A rate of 0 never waits.
class PlaybackPacer {
 public:
  explicit PlaybackPacer(double frames_per_second) : fps_(frames_per_second) {}
  void wait();

 private:
  using Clock = std::chrono::steady_clock;
  double fps_;
  bool started_ = false;
  Clock::time_point due_;
};

}  // namespace sv
