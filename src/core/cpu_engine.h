#pragma once

#include <functional>
#include <mutex>

#include "src/core/stereo_engine.h"
#include "src/core/temporal_filter.h"

namespace sv {

// The reference engine: every stage in plain C++, multi-threaded over rows, deterministic. Its
// results define what the CUDA engine must reproduce.
class CpuEngine : public StereoEngine {
 public:
  std::string name() const override { return "cpu"; }
  DisparityResult compute(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override;
  // ESAW / ESMP with colour weights (uses_colour_weights); everything else on the gray views.
  DisparityResult compute(const ImageRgb8& left, const ImageRgb8& right,
                          const StereoParams& params) override;
  // Census algorithms on the 16-bit values (high_bit_depth.h).
  DisparityResult compute(const ImageU16& left, const ImageU16& right,
                          const StereoParams& params) override;
  bool supports_high_bit_depth(const StereoParams& params) const override;
  // Census algorithms on the float values (high_bit_depth.h).
  DisparityResult compute(const ImageF32& left, const ImageF32& right,
                          const StereoParams& params) override;
  bool supports_float_input(const StereoParams& params) const override;
  // Host memory and time on worker_count() threads (cpu_frame_cost.h).
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;

  // The pipeline's step over time, run on the disparity before hole filling.
  using OverTimeStage = std::function<void(ImageI16& disparity_fixed, StageTimings& timings)>;

 private:
  // The temporal filter (params.temporal_filter) over this engine's stream of results; the only
  // state the engine keeps between frames, dropped while the filter is off.
  OverTimeStage over_time(const StereoParams& params);

  std::mutex temporal_mutex_;
  TemporalFilter temporal_;
  StereoParams temporal_params_;  // the parameters of temporal_'s history
};

}  // namespace sv
