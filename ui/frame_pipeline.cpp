#include "ui/frame_pipeline.h"

#include "src/app/engine_factory.h"

namespace sv {

FramePipeline::FramePipeline(std::unique_ptr<FrameSource> source, std::optional<StereoPair> first,
                             bool loop, bool paced, NoticeSink notices,
                             const std::string& engine_kind, const StereoParams& params,
                             bool keep_device_results)
    : frame_count_(source->frame_count()),
      is_live_(source->is_live()),
      playback_(std::make_shared<PlaybackControls>(loop, paced)) {
  auto playback = std::make_unique<PlaybackSource>(std::move(source), playback_, std::move(first),
                                                   std::move(notices));
  FrameSource& reader = *playback;  // owned by the capture thread, which starts in start()
  // One pair in the engine, one waiting: the display is at most a pair behind the source.
  queue_ = std::make_unique<PairQueue>(1, queue_policy_for(*playback));
  engine_queue_ = std::make_shared<PairQueue>(1, queue_->policy());
  capture_ = std::make_unique<CaptureThread>(std::move(playback), *queue_, /*pace=*/false);
  fan_out_ = std::make_unique<PairFanOut>(*queue_);
  fan_out_->attach(engine_queue_);
  processing_ = std::make_unique<ProcessingThread>(*engine_queue_, make_engine, engine_kind, params);
  // The source writes its pairs into the engine's kind of memory: the CUDA engine uploads them
  // without a host copy. Set before the capture thread starts.
  reader.use_pair_memory(processing_->pair_pool());
  // With CUDA-GL interop the engine keeps each disparity on the GPU for the display.
  ResultParts want;
  want.device = keep_device_results;
  processing_->set_result_parts(want);
}

void FramePipeline::start() {
  capture_->start();
  fan_out_->start();
  processing_->start();
}

FramePipeline::~FramePipeline() {
  playback_->cancel();  // a source holding at its end, or pacing, lets go at once
  processing_->stop();
  fan_out_->stop();
  capture_->stop();
}

}  // namespace sv
