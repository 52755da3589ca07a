#pragma once

#include "src/core/frame_source.h"
#include "src/core/synthetic_scene.h"

namespace sv {

// The built-in default source: the moving synthetic scene, endless, paced at 30 frames/s.
// ground_truth(index) gives the exact disparity of any pair it delivered.
class SyntheticSource : public FrameSource {
 public:
  explicit SyntheticSource(SyntheticSceneConfig config = {}) : scene_(config) {}
  std::string describe() const override;
  bool is_live() const override { return false; }
  double frames_per_second() const override { return 30.0; }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;
  const SyntheticScene& scene() const { return scene_; }

 private:
  SyntheticScene scene_;
  int64_t next_index_ = 0;
};

}  // namespace sv
