#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "src/app/capture_thread.h"

namespace sv {

// Hands every pair of one queue to several consumers (the viewer's A/B comparison, issue 22:
// two processing threads on the same frames), on its own thread. Each attached output queue gets
// its own copy of every pair taken after it was attached, in order; the queues' own policies
// decide what a full one does (a file's back-pressure makes the fan-out wait for the slowest
// consumer, so both sides see every pair; a live source's newest-wins drops in each alone).
// When the input ends the outputs are closed, so their consumers see the end too.
class PairFanOut {
 public:
  explicit PairFanOut(PairQueue& input);
  ~PairFanOut();
  PairFanOut(const PairFanOut&) = delete;
  PairFanOut& operator=(const PairFanOut&) = delete;

  // May be called before or after start(). An output attached after the input ended is closed
  // at once.
  void attach(std::shared_ptr<PairQueue> output);
  // Closes `output` (a consumer waiting on it sees the end; a push blocked on it gives up) and
  // sends it nothing more.
  void detach(const std::shared_ptr<PairQueue>& output);

  void start();
  // Returns once the thread has ended; closes every output (a push blocked on one returns).
  // Safe to call twice. Does not close the input (that is the capture side's).
  void stop();

  // Pairs taken from the input so far.
  int64_t forwarded() const { return forwarded_.load(); }

 private:
  void run();
  void close_outputs();

  PairQueue& input_;
  std::thread thread_;
  std::atomic<bool> stop_requested_{false};
  std::atomic<int64_t> forwarded_{0};
  mutable std::mutex mutex_;  // guards the fields below
  std::vector<std::shared_ptr<PairQueue>> outputs_;
  bool input_ended_ = false;
};

}  // namespace sv
