#pragma once

#include <memory>
#include <string>

#include "src/core/cpu_engine.h"

namespace sv {

// The CPU engine users run (`--engine cpu`): census-SGM with SIMD stages (packed census, cost,
// path aggregation, WTA and backward matching on Google Highway, dispatched at run time to the
// best instruction set of the CPU) and block-matching SAD with SIMD window sums, bit for bit the
// CPU reference's result. Everything it does
// not accelerate (other algorithms, the confidence and repair) runs on the reference it derives
// from. The median is SIMD too; LR check, speckle and fill are the reference's own stages.
class FastCpuEngine : public CpuEngine {
 public:
  std::string name() const override { return "cpu"; }
  // The reference's estimate, with this engine's volumes (padded, plus the backward sweep's) and
  // its time where it accelerates `params`.
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;
  // The same estimate on `threads` threads (frame_cost takes worker_count()).
  static FrameCost frame_cost_on(int width, int height, const StereoParams& params, int threads);

  // Whether the SIMD pipeline computes `params` (else the reference does).
  static bool accelerates(const StereoParams& params);

  // The cost volumes, kept from frame to frame (fast_cpu_engine.cpp).
  struct Volumes;

  FastCpuEngine();
  ~FastCpuEngine() override;

 protected:
  // Census-SGM and BM SAD without confidence, on any input depth census takes (colour pairs by
  // their gray).
  std::optional<DisparityResult> compute_accelerated(const HostPair& pair, const StereoParams& params,
                                                     const OverTimeStage& over_time,
                                                     PixelCosts* probe) override;

 private:
  std::unique_ptr<Volumes> volumes_;
};

// The SIMD target the fast stages run on now, e.g. "AVX3" or "AVX2" (Highway's name).
std::string fast_cpu_target_name();

}  // namespace sv
