#include "cuda/fast_sgm.h"

#include "cuda/confidence_stages.h"
#include "cuda/cuda_check.h"
#include "cuda/stages.h"
#include "src/core/census_cost.h"

namespace sv::cuda {

bool FastSgm::supports(int width, int count, const SgmSettings& sgm) {
  return width >= 1 && sgm_path_costs_supported(count, sgm);
}

size_t FastSgm::cells_per_pixel(int count) {
  return static_cast<size_t>(32) * sgm_path_cells_per_lane(count);
}

void FastSgm::write_costs(const Frame& f, cudaStream_t stream, StageEvents& events, const std::string& prefix) {
  const size_t stride = cells_per_pixel(f.count);
  events.begin(prefix + "cost");
  if (f.rank_left != nullptr) {
    rank_cost_volume(f.rank_left, f.rank_right, f.width, f.height, f.rank_window,
                     DeviceSearchRange{f.base, nullptr, f.count}, static_cast<int>(stride),
                     costs_.data(), stream);
  } else {
    census_cost_volume_strided(f.census_left, f.census_right, f.width, f.height, f.base, f.count,
                               static_cast<int>(stride), f.window_bits, costs_.data(), stream);
  }
  events.end();
}

void FastSgm::run(const Frame& f, cudaStream_t stream, StageEvents& events, const std::string& prefix) {
  const size_t pixels = static_cast<size_t>(f.width) * f.height;
  const size_t stride = cells_per_pixel(f.count);
  costs_.reserve(pixels * stride);
  volumes_.reserve(pixels * stride * f.sgm.paths);
  right_view_keys_.reserve(pixels);
  row_clocks_.reserve(static_cast<size_t>(sgm_path_costs_clock_words(f.height)));
  write_costs(f, stream, events, prefix);
  events.begin(prefix + "sgm");
  // The right view's keys are cleared beside the walks, off the frame's critical path.
  if (f.lr_check) clear_right_view_keys(right_view_keys_.data(), pixels, side_.fork(stream));
  sgm_path_costs(costs_.data(), f.guide, f.width, f.height, f.base, f.count, f.sgm, volumes_.data(),
                 stream, PathScheduling{PathSchedule::kAuto, row_clocks_.data(), &side_, &block_order_});
  if (f.lr_check) side_.join(stream);
  events.end();
  events.begin(prefix + (f.lr_check ? "wta+lr" : "wta"));
  select_disparity_from_path_costs(volumes_.data(), f.sgm.paths, f.width, f.height, f.base, f.count,
                                   f.wta, f.lr_check, f.lr_max_diff, right_view_keys_.data(),
                                   f.disparity_fixed, stream, f.peaks, kMaxMatchCost + f.sgm.p2,
                                   /*keys_cleared=*/true);
  if (f.lr_check && f.right_view != nullptr) {
    right_view_from_keys(right_view_keys_.data(), f.width, f.height, f.base, f.right_view, stream);
  }
  events.end();
}

}  // namespace sv::cuda
