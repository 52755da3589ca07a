#pragma once

#include "src/core/frame_worker.h"
#include "src/core/stereo_engine.h"

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

  // One frame on the calling thread: what the worker runs.
  static DisparityResult compute_now(HostPair& pair, const FrameRequest& request);

 private:
  FrameWorker worker_;  // last: stopped first
};

}  // namespace sv
