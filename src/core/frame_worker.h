#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "src/core/host_pair.h"
#include "src/core/stereo_engine.h"

namespace sv {

// The asynchronous half of StereoEngine for engines that compute on the host: submit() copies the
// pair and queues it, one worker thread computes the frames in order, collect() hands back the
// oldest (or throws its error). Holding it as an engine's LAST member stops the worker before
// the rest of the engine goes.
class FrameWorker {
 public:
  // Computes one frame on the worker thread; what it throws becomes that frame's error.
  using Compute = std::function<DisparityResult(HostPair& pair, const FrameRequest& request)>;

  FrameWorker(std::string engine_name, Compute compute);
  ~FrameWorker();  // drops frames not yet computed, waits for the one computing
  FrameWorker(const FrameWorker&) = delete;
  FrameWorker& operator=(const FrameWorker&) = delete;

  // Drops frames not yet computed and waits for the one computing; later submits are refused. An
  // engine whose compute function reads its own members calls it first in its destructor.
  void stop();

  void submit(const FrameRequest& request);
  void collect(DisparityResult& result);
  int frames_in_flight() const;

 private:
  struct Job {
    FrameRequest request;  // its pair's planes point nowhere: `pair` holds them
    HostPair pair;
    std::exception_ptr error;  // set at submit (a device pair): passed on, not computed
    double copy_ms = 0.0;      // the submit's copy of the pair (StageTimings::host_copy_ms)
  };
  struct Outcome {
    DisparityResult result;
    std::exception_ptr error;
  };
  void run();

  const std::string engine_name_;
  const Compute compute_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> jobs_;
  std::deque<Outcome> outcomes_;
  bool computing_ = false;
  bool stopping_ = false;
  std::thread thread_;  // started at the first submit
};

}  // namespace sv
