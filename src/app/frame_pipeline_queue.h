#pragma once

#include <chrono>
#include <deque>
#include <exception>
#include <utility>

#include "src/app/pair_matching.h"
#include "src/core/frame_source.h"
#include "src/core/stereo_engine.h"

namespace sv {

// How many frames the loops keep in an engine: the next pair is read and submitted while the
// previous frame computes (and its upload or the last download overlaps on the CUDA engine).
constexpr int kFramesInFlight = 2;
// Blocks of a loop's pair pool (block_pool.h): both views of the frames in flight and of the
// pairs held around them: in the viewer the one being read, one in each of the two queues and
// the fan-out, the published result's and the one on display (the kept pair shares a frame's).
// Made only as needed (the headless run uses about six). Past them a source writes into memory
// of its own, and the engine copies that pair to staging.
constexpr int kPairPoolBlocks = 2 * (kFramesInFlight + 6);

// The frames a loop has handed to its engine and not yet taken back, oldest first (issue 18).
// A loop submits pair n+1 before it collects frame n, so the engine works while the loop reads
// the next pair and writes out the last result. Each frame keeps its pair and what the loop needs
// for its outputs (`Extra`: its number, ground truth, parameters) until its result comes back;
// a frame that failed before it reached the engine keeps its place, so every outcome leaves in
// the order the pairs came. The queue belongs to one engine: drain it before the engine goes.
template <typename Extra>
class FramePipelineQueue {
 public:
  using Clock = std::chrono::steady_clock;

  // A frame as it leaves the queue; its result went to collect()'s `result`, unless `error`.
  struct Collected {
    StereoPair pair;  // with the rectified views where the engine rectified it
    Extra extra;
    std::exception_ptr error;  // the frame's own failure (its collect() threw, or earlier)
    double latency_ms = 0.0;   // from the start of its submit() to its result
    // The loop's own time on the frame: making and submitting its request and taking its result
    // back, less the time collect() waited for the engine's work (collect_wait_ms). With the CUDA
    // engine this is the host time outside the GPU; with a CPU engine it leaves out the worker's
    // compute. Reading the source and writing outputs are the loop's other work, not in it.
    double host_ms = 0.0;
  };

  explicit FramePipelineQueue(StereoEngine& engine) : engine_(engine) {}

  bool empty() const { return frames_.empty(); }
  // kFramesInFlight frames wait: collect the oldest before the next submit.
  bool full() const { return frames_.size() >= static_cast<size_t>(kFramesInFlight); }

  // Makes the pair's request (request_for_pair) and submits it. A failure to make the request
  // (a pair the host cannot rectify) is this frame's error, reported in its turn.
  void submit(StereoPair pair, Extra extra, const StereoParams& params, const ResultParts& want) {
    const Clock::time_point start = Clock::now();
    frames_.push_back(Frame{std::move(pair), std::move(extra), nullptr, false, start, 0.0});
    Frame& frame = frames_.back();  // a deque keeps its elements in place
    try {
      engine_.submit(request_for_pair(engine_, frame.pair, params, want));
      frame.submitted = true;
    } catch (...) {
      frame.error = std::current_exception();
    }
    frame.host_ms = elapsed_ms(start);
  }

  // A frame that failed before it reached the engine (a bad pair, a size that cannot fit).
  void add_failed(StereoPair pair, Extra extra, std::exception_ptr error) {
    frames_.push_back(
        Frame{std::move(pair), std::move(extra), std::move(error), false, Clock::now(), 0.0});
  }

  // Takes the oldest frame, waiting for its result, which lands in `result` (its buffers reused).
  // Requires !empty().
  Collected collect(DisparityResult& result) {
    Frame frame = std::move(frames_.front());
    frames_.pop_front();
    Collected out{std::move(frame.pair), std::move(frame.extra), frame.error, 0.0, 0.0};
    if (!frame.submitted) return out;
    const Clock::time_point start = Clock::now();
    try {
      engine_.collect(result);
      take_rectified_views(out.pair, result);
    } catch (...) {
      out.error = std::current_exception();
      return out;
    }
    const Clock::time_point end = Clock::now();
    out.latency_ms = std::chrono::duration<double, std::milli>(end - frame.submitted_at).count();
    const double in_collect_ms = std::chrono::duration<double, std::milli>(end - start).count();
    const double host_ms = frame.host_ms + in_collect_ms - result.timings.collect_wait_ms;
    out.host_ms = host_ms > 0.0 ? host_ms : 0.0;
    return out;
  }

 private:
  struct Frame {
    StereoPair pair;
    Extra extra;
    std::exception_ptr error;
    bool submitted;  // in the engine: collect() takes it back from there
    Clock::time_point submitted_at;
    double host_ms;  // the time of its submit()
  };
  static double elapsed_ms(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
  }

  StereoEngine& engine_;
  std::deque<Frame> frames_;
};

}  // namespace sv
