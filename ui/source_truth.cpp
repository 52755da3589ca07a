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
  auto samples = std::make_shared<std::vector<PairTruth>>();
  for (int64_t i = 0; i < dataset->frame_count(); ++i) {
    const StereoSample& sample = dataset->sample(i);
    samples->push_back(PairTruth{sample.ground_truth, sample.masks});
  }
  truth.dataset_ = std::move(samples);
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
    return (*dataset_)[static_cast<size_t>(index)];
  }
  return std::nullopt;
}

const char* SourceTruth::region_of(const PairTruth& truth) {
  return truth.masks.nonocc.empty() ? "all" : "nonocc";
}

}  // namespace sv
