#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "src/core/evaluation.h"
#include "src/core/frame_source.h"
#include "src/core/image.h"
#include "src/core/synthetic_scene.h"
#include "src/io/dataset_loader.h"

namespace sv {

// The ground truth of one pair and the pixels its errors are counted over.
struct PairTruth {
  ImageF32 disparity;       // non-finite: unknown
  EvaluationMasks masks;    // nonocc empty: errors over every pixel with known truth ("all")
};

// The ground truth of the pairs the viewer shows, where its source has one (issue 22): the
// synthetic scene's exact truth (a render of the frame, so call it off the GL thread when it
// may be slow) or a dataset's files (Middlebury, KITTI: the loader's samples, shared with the
// source, so nothing is read or held twice). Other sources have none. Cheap to copy; at() copies
// the one pair's truth it returns.
class SourceTruth {
 public:
  SourceTruth() = default;  // none
  static SourceTruth of_synthetic(const SyntheticSceneConfig& scene);
  // The dataset's truth when `source` is a dataset read as it is stored; a source with its views
  // swapped (wrapped) has none: the truth is the named left view's.
  static SourceTruth of_source(const FrameSource& source);

  bool known() const { return synthetic_.has_value() || dataset_ != nullptr; }
  // Pair `index`'s truth; nullopt when there is none for it.
  std::optional<PairTruth> at(int64_t index) const;
  // The name of the region errors are counted over: "nonocc" (the synthetic scene, datasets
  // with an occlusion mask) or "all".
  static const char* region_of(const PairTruth& truth);

 private:
  std::optional<SyntheticSceneConfig> synthetic_;
  std::shared_ptr<const std::vector<StereoSample>> dataset_;  // the source's, shared
};

}  // namespace sv
