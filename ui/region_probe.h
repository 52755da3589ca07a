#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/core/region_statistics.h"
#include "ui/viewer_settings.h"

namespace sv {

// The region statistics of the rectangle drawn on the views (ViewerSettings::region), kept up
// to date as frames come: recomputed at once for a new rectangle, calibration or source of
// truth, and for new frames at most every kMinIntervalS (the synthetic scene's ground truth
// costs a render of the frame).
class RegionProbe {
 public:
  static constexpr double kMinIntervalS = 0.25;
  using TruthFn = std::function<ImageF32()>;  // the frame's ground truth; empty image: none

  // `truth` null when the source has none.
  void update(const RegionRect& rect, const ImageF32& disparity, int64_t sequence,
              const DepthCalibration& calibration, const TruthFn& truth, double now_s);
  // nullopt while no rectangle is set (or no frame came).
  const std::optional<RegionStatistics>& statistics() const { return statistics_; }

 private:
  std::optional<RegionStatistics> statistics_;
  RegionRect rect_;
  int64_t sequence_ = -1;
  double computed_s_ = -1e300;
  DepthCalibration calibration_;
  bool had_truth_ = false;
};

// The statistics as the panel and the screenshot log show them, one line each.
std::vector<std::string> region_statistics_lines(const RegionStatistics& s);

}  // namespace sv
