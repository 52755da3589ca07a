#include "ui/source_truth.h"

#include "src/io/dataset_source.h"

namespace sv {

SourceTruth SourceTruth::of_synthetic(const SyntheticSceneConfig& scene) {
  SourceTruth truth;
  truth.synthetic_ = scene;
  return truth;
}

SourceTruth SourceTruth::of_source(const FrameSource& source) {
  SourceTruth truth;
  const auto* dataset = dynamic_cast<const DatasetSource*>(&source);
  if (!dataset) return truth;
  truth.dataset_ = dataset->shared_samples();
  return truth;
}

std::optional<PairTruth> SourceTruth::at(int64_t index) const {
  if (synthetic_) {
    SyntheticFrame frame = SyntheticScene(*synthetic_).render(static_cast<int>(index));
    PairTruth truth{std::move(frame.ground_truth), {}};
    truth.masks.nonocc = std::move(frame.nonoccluded_mask);
    return truth;
  }
  if (dataset_ && index >= 0 && index < static_cast<int64_t>(dataset_->size())) {
    const StereoSample& sample = (*dataset_)[static_cast<size_t>(index)];
    return PairTruth{sample.ground_truth, sample.masks};
  }
  return std::nullopt;
}

const char* SourceTruth::region_of(const PairTruth& truth) {
  return truth.masks.nonocc.empty() ? "all" : "nonocc";
}

}  // namespace sv
