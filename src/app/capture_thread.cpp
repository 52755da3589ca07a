#include "src/app/capture_thread.h"

#include <exception>

namespace sv {

CaptureThread::CaptureThread(std::unique_ptr<FrameSource> source, PairQueue& queue, bool pace)
    : source_(std::move(source)), queue_(queue), pace_(pace) {
  status_.source = source_->describe();
  status_.nominal_frames_per_second = source_->frames_per_second();
}

CaptureThread::~CaptureThread() { stop(); }

void CaptureThread::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void CaptureThread::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  wake_.notify_all();
  queue_.close();  // wakes a push() blocked on a full queue
  if (thread_.joinable()) thread_.join();
}

CaptureStatus CaptureThread::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  CaptureStatus copy = status_;
  copy.dropped = queue_.dropped();
  copy.frames_per_second = rate_.per_second();
  return copy;
}

bool CaptureThread::wait_until(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return !wake_.wait_until(lock, deadline, [&] { return stop_requested_.load(); });
}

void CaptureThread::run() {
  constexpr auto kLiveRetryDelay = std::chrono::milliseconds(500);
  const double fps = source_->frames_per_second();
  const bool paced = pace_ && fps > 0.0;
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(paced ? 1.0 / fps : 0.0));
  auto next_due = std::chrono::steady_clock::now();
  std::string error;
  while (!stop_requested_) {
    std::optional<StereoPair> pair;
    try {
      pair = source_->next();
    } catch (const std::exception& e) {
      error = e.what();
      if (!source_->is_live()) break;
      // A camera that stalls or is unplugged is retried (its next() reopens it); the error stays
      // visible until a pair arrives again.
      {
        std::lock_guard<std::mutex> lock(mutex_);
        status_.error = error;
        ++status_.retries;
      }
      if (!wait_until(std::chrono::steady_clock::now() + kLiveRetryDelay)) break;
      continue;
    }
    if (!error.empty()) {
      error.clear();
      std::lock_guard<std::mutex> lock(mutex_);
      status_.error.clear();
    }
    if (!pair) break;  // end of a finite source
    if (!queue_.push(std::move(*pair))) break;  // closed: stopping
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++status_.delivered;
      rate_.tick();
    }
    if (paced) {
      next_due += period;
      // After a long stall (back-pressure), restart the schedule instead of bursting to catch up.
      const auto now = std::chrono::steady_clock::now();
      if (next_due < now) next_due = now;
      if (!wait_until(next_due)) break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_.finished = true;
    status_.error = error;
  }
  queue_.close();
}

}  // namespace sv
