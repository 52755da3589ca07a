#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "src/app/bounded_queue.h"
#include "src/core/frame_source.h"
#include "src/app/timing_history.h"

namespace sv {

using PairQueue = BoundedQueue<StereoPair>;

// The queue a source needs: newest-wins for a live source, back-pressure for files
// (shared/ARCHITECTURE.md). Two slots: one pair being processed, one waiting.
inline QueueFullPolicy queue_policy_for(const FrameSource& source) {
  return source.is_live() ? QueueFullPolicy::DropOldest : QueueFullPolicy::Block;
}

struct CaptureStatus {
  std::string source;      // the source's describe()
  int64_t delivered = 0;   // pairs pushed into the queue
  uint64_t dropped = 0;    // pairs the queue threw away (live sources only)
  double frames_per_second = 0.0;          // measured delivery rate
  double nominal_frames_per_second = 0.0;  // the source's own rate; 0 when it has none
  bool finished = false;   // the source ended, failed or the thread was stopped
  std::string error;       // the source's failure, for the UI; empty when none
  int64_t retries = 0;     // failed reads of a live source, each retried after a pause
};

// Owns a FrameSource and feeds its pairs into `queue` on its own thread, so a slow camera or
// decoder never stalls the GL thread. With `pace` the pairs leave at the source's nominal rate
// (a synthetic scene or a file would otherwise run as fast as the engine). At the end of the
// source, on an error of a file source and on stop() the queue is closed, which tells the
// consumer; a live source's error is shown in the status and the read retried every 0.5 s.
class CaptureThread {
 public:
  CaptureThread(std::unique_ptr<FrameSource> source, PairQueue& queue, bool pace);
  ~CaptureThread();
  CaptureThread(const CaptureThread&) = delete;
  CaptureThread& operator=(const CaptureThread&) = delete;

  void start();
  // Returns once the thread has ended; safe to call twice, and while push() is blocked.
  void stop();
  CaptureStatus status() const;

 private:
  void run();
  // Sleeps until `deadline` unless stop() comes first; false when stopping.
  bool wait_until(std::chrono::steady_clock::time_point deadline);

  std::unique_ptr<FrameSource> source_;
  PairQueue& queue_;
  const bool pace_;
  std::thread thread_;
  std::atomic<bool> stop_requested_{false};

  mutable std::mutex mutex_;  // guards the fields below and wakes the pacing sleep
  std::condition_variable wake_;
  CaptureStatus status_;
  RateMeter rate_;
};

}  // namespace sv
