#pragma once

#include <memory>
#include <string>

#include "src/app/capture_thread.h"
#include "src/app/processing_thread.h"
#include "src/core/synthetic_scene.h"

namespace sv {

// The viewer's frame loop behind the GL thread (shared/ARCHITECTURE.md): the synthetic source on
// a capture thread, a bounded queue, the engine on a processing thread. Replaced whole when
// the source changes; the GL thread only talks to processing() and reads capture().status().
class FramePipeline {
 public:
  // Throws what make_engine throws (e.g. --engine cuda without a device) and InputError for a
  // bad scene size.
  FramePipeline(const SyntheticSceneConfig& scene, const std::string& engine_kind,
                const StereoParams& params);
  ~FramePipeline();
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;

  CaptureThread& capture() { return *capture_; }
  ProcessingThread& processing() { return *processing_; }

 private:
  // Declared in the order they are built; destroyed in reverse: the processing thread stops
  // first, then the capture thread (closing the queue), then the queue goes.
  std::unique_ptr<PairQueue> queue_;
  std::unique_ptr<CaptureThread> capture_;
  std::unique_ptr<ProcessingThread> processing_;
};

}  // namespace sv
