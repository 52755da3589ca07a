#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/core/frame_source.h"
#include "src/io/dataset_loader.h"

namespace sv {

// The pairs of a Middlebury or KITTI folder (any layout load_dataset reads), one pair per frame,
// in the loader's order. The pairs are rectified already and may differ in size from frame to
// frame (Middlebury scenes do). Ground truth stays available for evaluation.
class DatasetSource : public FrameSource {
 public:
  // InputError from load_dataset: unknown layout, missing or unreadable files.
  explicit DatasetSource(const std::string& dir, double frames_per_second = 1.0);

  std::string describe() const override;
  bool is_live() const override { return false; }
  int64_t frame_count() const override { return static_cast<int64_t>(samples_->size()); }
  double frames_per_second() const override { return fps_; }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;

  // The sample delivered as frame `index` (its name, ground truth, masks, suggested range).
  const StereoSample& sample(int64_t index) const { return samples_->at(static_cast<size_t>(index)); }
  // All of them, shared: whoever evaluates the pairs (the viewer) keeps the ground truth without
  // a copy, also after the source is gone.
  std::shared_ptr<const std::vector<StereoSample>> shared_samples() const { return samples_; }

 private:
  std::string dir_;
  std::string layout_;
  std::shared_ptr<const std::vector<StereoSample>> samples_;
  double fps_;
  int64_t next_index_ = 0;
};

}  // namespace sv
