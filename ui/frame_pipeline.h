#pragma once

#include <memory>
#include <optional>
#include <string>

#include "src/app/capture_thread.h"
#include "src/app/pair_fan_out.h"
#include "src/app/playback_source.h"
#include "src/app/processing_thread.h"
#include "src/core/frame_source.h"

namespace sv {

// The viewer's frame loop behind the GL thread (shared/ARCHITECTURE.md): a source on a capture
// thread, a bounded queue, the engine on a processing thread. Replaced whole when the source
// changes; the GL thread only talks to processing(), playback() and reads capture().status().
// The source is wrapped in a PlaybackSource, which paces it (the capture thread itself does
// not), so the user can seek, loop and change the pace while it plays. A fan-out between the
// capture queue and the engine's lets a second processing thread (A/B, ab_comparison.h) take a
// copy of every pair.
class FramePipeline {
 public:
  // `first`: a pair already read from `source`, delivered first. Throws what make_engine throws
  // (e.g. --engine cuda without a device). The threads start with start(), so a second consumer
  // can attach to fan_out() before the first pair goes by.
  FramePipeline(std::unique_ptr<FrameSource> source, std::optional<StereoPair> first, bool loop,
                bool paced, NoticeSink notices, const std::string& engine_kind,
                const StereoParams& params, bool keep_device_results = false);
  ~FramePipeline();
  void start();
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;

  CaptureThread& capture() { return *capture_; }
  ProcessingThread& processing() { return *processing_; }
  PlaybackControls& playback() { return *playback_; }
  // Where a second consumer attaches, and the policy its queue must have (the source's).
  PairFanOut& fan_out() { return *fan_out_; }
  QueueFullPolicy queue_policy() const { return queue_->policy(); }
  // The source's length (-1: endless or unknown) and whether it is a camera.
  int64_t frame_count() const { return frame_count_; }
  bool is_live() const { return is_live_; }

 private:
  int64_t frame_count_ = -1;
  bool is_live_ = false;
  std::shared_ptr<PlaybackControls> playback_;
  // Declared in the order they are built; destroyed in reverse: the processing thread stops
  // first, then the fan-out, then the capture thread (closing the queue), then the queues go.
  std::unique_ptr<PairQueue> queue_;
  std::shared_ptr<PairQueue> engine_queue_;  // the fan-out's output to processing_
  std::unique_ptr<CaptureThread> capture_;
  std::unique_ptr<PairFanOut> fan_out_;
  std::unique_ptr<ProcessingThread> processing_;
};

}  // namespace sv
