#include "src/app/playback_pacer.h"

#include <thread>

namespace sv {

void PlaybackPacer::wait() {
  if (fps_ <= 0) return;
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps_));
  const auto now = Clock::now();
  if (!started_ || now > due_ + period) {
    started_ = true;
    due_ = now + period;
    return;
  }
  std::this_thread::sleep_until(due_);
  due_ += period;
}

}  // namespace sv
