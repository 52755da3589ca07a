#pragma once

#include <functional>
#include <mutex>
#include <optional>

#include "src/core/frame_worker.h"
#include "src/core/stereo_engine.h"
#include "src/core/temporal_filter.h"

namespace sv {

// The reference engine: every stage in plain C++, multi-threaded over rows, deterministic. Its
// results define what the CUDA engine must reproduce. Frames are computed on the engine's own
// worker thread (FrameWorker), in the order they were submitted.
class CpuEngine : public StereoEngine {
 public:
  CpuEngine();
  std::string name() const override { return "cpu"; }
  void submit(const FrameRequest& request) override { worker_.submit(request); }
  void collect(DisparityResult& result) override { worker_.collect(result); }
  using StereoEngine::collect;
  int frames_in_flight() const override { return worker_.frames_in_flight(); }
  // Census algorithms on the 16-bit or float values (high_bit_depth.h).
  bool supports_high_bit_depth(const StereoParams& params) const override;
  bool supports_float_input(const StereoParams& params) const override;
  // Host memory and time on worker_count() threads (cpu_frame_cost.h).
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;

  // The pipeline's step over time, run on the disparity before hole filling.
  using OverTimeStage = std::function<void(ImageI16& disparity_fixed, StageTimings& timings)>;

 protected:
  // A derived engine's faster pipeline for the frames it accelerates (the result in
  // disparity_fixed, bit for bit the reference's), or nullopt for the reference to compute it.
  // Runs on the worker thread. `probe` (null when not asked for) has its pixel set; the engine
  // fills in the pixel's costs and selection as the reference does (PixelCosts).
  virtual std::optional<DisparityResult> compute_accelerated(const HostPair& /*pair*/,
                                                             const StereoParams& /*params*/,
                                                             const OverTimeStage& /*over_time*/,
                                                             PixelCosts* /*probe*/) {
    return std::nullopt;
  }
  // A derived engine's destructor calls this first, so no frame runs on a half-destroyed engine.
  void stop_worker() { worker_.stop(); }

 private:
  // One frame on the worker thread.
  DisparityResult compute_now(HostPair& pair, const FrameRequest& request);
  // The temporal filter (params.temporal_filter) over this engine's stream of results; the only
  // state the engine keeps between frames, dropped while the filter is off.
  OverTimeStage over_time(const StereoParams& params);

  std::mutex temporal_mutex_;
  TemporalFilter temporal_;
  StereoParams temporal_params_;  // the parameters of temporal_'s history
  FrameWorker worker_;  // last: stopped first
};

// The filters after the selection, in the reference's order, each timed under its stage name:
// median (`median`, the reference's or the SIMD engine's, which is bit for bit the same),
// speckles, the engine's step over time, hole filling. `probe` (may be null) follows its pixel
// through them (PixelCosts::follow).
using MedianFilter = ImageI16 (*)(const ImageI16& disparity_fixed, int size);
void filter_disparity(ImageI16& disparity, const StereoParams& params,
                      const CpuEngine::OverTimeStage& over_time, StageTimings& timings,
                      MedianFilter median, PixelCosts* probe);

}  // namespace sv
