#include "ui/frame_pipeline.h"

#include "src/app/engine_factory.h"
#include "src/app/synthetic_source.h"

namespace sv {

FramePipeline::FramePipeline(const SyntheticSceneConfig& scene, const std::string& engine_kind,
                             const StereoParams& params) {
  auto source = std::make_unique<SyntheticSource>(scene);
  // One pair in the engine, one waiting: the display is at most a pair behind the source.
  queue_ = std::make_unique<PairQueue>(1, queue_policy_for(*source));
  capture_ = std::make_unique<CaptureThread>(std::move(source), *queue_, /*pace=*/true);
  processing_ = std::make_unique<ProcessingThread>(*queue_, make_engine, engine_kind, params);
  capture_->start();
  processing_->start();
}

FramePipeline::~FramePipeline() {
  processing_->stop();
  capture_->stop();
}

}  // namespace sv
