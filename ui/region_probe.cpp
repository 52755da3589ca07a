#include "ui/region_probe.h"

#include <cstdio>

namespace sv {

void RegionProbe::update(const RegionRect& rect, const ImageF32& disparity, int64_t sequence,
                         const DepthCalibration& calibration, const TruthFn& truth,
                         double now_s) {
  if (rect.empty() || disparity.empty()) {
    statistics_.reset();
    rect_ = RegionRect{};
    return;
  }
  const bool same_rect = rect.x == rect_.x && rect.y == rect_.y && rect.width == rect_.width &&
                         rect.height == rect_.height;
  const bool same_setup = same_rect && statistics_ &&
                          calibration.focal_px == calibration_.focal_px &&
                          calibration.baseline_m == calibration_.baseline_m &&
                          had_truth_ == static_cast<bool>(truth);
  if (same_setup && (sequence == sequence_ || now_s - computed_s_ < kMinIntervalS)) return;
  const ImageF32 ground_truth = truth ? truth() : ImageF32();
  const ImageF32* usable_truth = ground_truth.same_size(disparity) ? &ground_truth : nullptr;
  statistics_ = region_statistics(disparity, rect, calibration.focal_px, calibration.baseline_m,
                                  usable_truth);
  rect_ = rect;
  sequence_ = sequence;
  computed_s_ = now_s;
  calibration_ = calibration;
  had_truth_ = static_cast<bool>(truth);
}

std::vector<std::string> region_statistics_lines(const RegionStatistics& s) {
  std::vector<std::string> lines;
  char line[160];
  std::snprintf(line, sizeof line, "region %d %d %dx%d: valid %.1f %% of %lld px", s.rect.x,
                s.rect.y, s.rect.width, s.rect.height, 100.0 * s.valid_fraction, s.pixels);
  lines.push_back(line);
  if (s.valid == 0) return lines;
  std::snprintf(line, sizeof line, "disparity mean %.3f, median %.3f, std %.3f px", s.mean,
                s.median, s.std_dev);
  lines.push_back(line);
  if (s.has_depth && s.depth_pixels > 0) {
    std::snprintf(line, sizeof line, "depth mean %.3f, median %.3f, std %.3f m", s.mean_depth,
                  s.median_depth, s.std_depth);
    lines.push_back(line);
  }
  if (s.plane_fitted) {
    std::snprintf(line, sizeof line, "plane d = %.4f x %+.4f y %+.2f, rms %.3f px", s.plane_a,
                  s.plane_b, s.plane_c, s.plane_rms);
    lines.push_back(line);
  }
  if (s.has_truth && s.truth_pixels > 0) {
    std::snprintf(line, sizeof line, "bad-1 %.2f %%, bad-2 %.2f %% of %lld px with truth",
                  s.bad_1, s.bad_2, s.truth_pixels);
    lines.push_back(line);
  }
  return lines;
}

}  // namespace sv
