#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/app/capture_thread.h"
#include "src/app/engine_factory.h"
#include "src/app/frame_pipeline_queue.h"
#include "src/app/timing_history.h"
#include "src/core/block_pool.h"
#include "src/core/frame_budget.h"
#include "src/core/stereo_engine.h"

namespace sv {

// One result as the display needs it: the pair it was computed from, the disparity and its
// stage timings, and the exact parameters used (the colour bar and the readout follow them).
struct ProcessedFrame {
  int64_t sequence = 0;           // 1 for the first result of this thread, then 2, 3, ...
  StereoPair pair;
  DisparityResult result;
  StereoParams params;
  uint64_t params_generation = 0;  // set_params() calls that `params` includes
  std::string engine;              // the engine's name()
  double processing_ms = 0.0;      // wall time of the frame, from its submit to its result
  // The thread's own time on the frame, outside the engine's work (FramePipelineQueue's host_ms):
  // with the CUDA engine the host time outside the GPU.
  double host_ms = 0.0;
};

struct ProcessingStatus {
  std::string engine;
  int64_t processed = 0;
  double frames_per_second = 0.0;
  bool paused = false;
  bool input_ended = false;  // the capture side closed the queue
  std::string error;         // the failure of the latest attempt; empty once a frame succeeds
};

// Runs a StereoEngine on its own thread over the pairs of a queue (shared/ARCHITECTURE.md).
// The GL thread never waits for it: it hands over parameter snapshots and engine requests,
// which take effect at the next frame boundary, and collects the newest result with
// take_latest() (older, uncollected results are replaced: the display wants the newest).
// Paused, it takes no new pairs but recomputes the last one when the parameters or the engine
// change, so tuning works on a still frame. An engine exception becomes an error message and
// the thread goes on with the next frame. While pairs keep coming (a camera, a video) two frames
// are in flight: the next pair is submitted before the last result is collected; results are
// published in order, each with the parameters it was computed with, and an engine switch
// first collects the frames of the old engine.
class ProcessingThread {
 public:
  // Makes the first engine here, on the caller's thread, so a bad --engine fails at start-up:
  // throws what the factory throws.
  ProcessingThread(PairQueue& input, EngineFactory factory, const std::string& engine_kind,
                   StereoParams params);
  ~ProcessingThread();
  ProcessingThread(const ProcessingThread&) = delete;
  ProcessingThread& operator=(const ProcessingThread&) = delete;

  void start();
  void stop();  // does not close the input queue (that is the capture side's)
  // What later frames' results carry (the viewer asks for device results with CUDA-GL interop).
  void set_result_parts(const ResultParts& want);
  // The pool the capture side's source writes its pairs into (FrameSource::use_pair_memory):
  // memory of the current engine's kind (pinned for the CUDA engine, which then uploads the
  // pairs without a host copy), switched with the engine.
  std::shared_ptr<BlockPool> pair_pool() const { return pair_pool_; }

  // Returns the new generation; frames computed from then on carry it.
  uint64_t set_params(const StereoParams& params);
  StereoParams params() const;
  uint64_t params_generation() const;
  // Switches engines on the processing thread (a CUDA start-up may take a while); a failure is
  // reported through take_messages() and the current engine stays.
  void request_engine(const std::string& kind);
  void set_paused(bool paused);
  // While paused: process exactly one more pair.
  void step();

  std::optional<ProcessedFrame> take_latest();
  // Errors and notices since the last call, oldest first, each a line for the log and the UI.
  std::vector<std::string> take_messages();
  ProcessingStatus status() const;

 private:
  void run();
  bool switch_engine(const std::string& kind);  // false when it failed
  // Submits a copy of `pair` with the current parameters; returns their generation. A raw pair
  // from a rectifying source comes out rectified (request_for_pair: by the engine where it
  // can, else here).
  uint64_t submit(const StereoPair& pair);
  // Collects the oldest frame in flight and publishes it (or reports its error).
  void collect_and_publish();
  void collect_notices();
  void report_error(const std::string& message);

  PairQueue& input_;
  EngineFactory factory_;
  std::ostringstream notices_;  // written only on the processing thread (and the constructor)
  std::unique_ptr<StereoEngine> engine_;
  std::shared_ptr<BlockPool> pair_pool_;  // of engine_'s host memory (pair_pool())
  // What a frame in flight was submitted with.
  struct FrameSettings {
    StereoParams params;
    uint64_t params_generation = 0;
    std::string engine;
  };
  std::optional<FramePipelineQueue<FrameSettings>> in_flight_;  // on engine_, made with it
  FrameBudget budget_;  // used only on the processing thread
  std::thread thread_;

  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  bool stop_requested_ = false;
  bool paused_ = false;
  int steps_pending_ = 0;
  std::string engine_request_;
  StereoParams params_;
  ResultParts want_;  // what the results carry (set_result_parts)
  uint64_t params_generation_ = 0;
  bool input_ended_ = false;
  std::optional<ProcessedFrame> latest_;
  std::vector<std::string> messages_;
  std::string engine_name_;
  int64_t processed_ = 0;
  std::string error_;
  RateMeter rate_;
};

}  // namespace sv
