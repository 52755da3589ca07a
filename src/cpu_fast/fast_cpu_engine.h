#pragma once

#include <memory>
#include <string>

#include "src/core/cpu_engine.h"

namespace sv {

// The CPU engine users run (`--engine cpu`): census-SGM with SIMD stages (packed census, cost,
// path aggregation, WTA and backward matching on Google Highway, dispatched at run time to the
// best instruction set of the CPU), bit for bit the CPU reference's result. Everything it does
// not accelerate (other algorithms, the confidence and repair) runs on the reference it derives
// from. The median is SIMD too; LR check, speckle and fill are the reference's own stages.
class FastCpuEngine : public CpuEngine {
 public:
  std::string name() const override { return "cpu"; }
  DisparityResult compute(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override;
  DisparityResult compute(const ImageU16& left, const ImageU16& right,
                          const StereoParams& params) override;
  DisparityResult compute(const ImageF32& left, const ImageF32& right,
                          const StereoParams& params) override;
  using CpuEngine::compute;  // colour input: the reference converts to gray and calls back here
  // The reference's estimate, with this engine's volumes (padded, plus the backward sweep's) and
  // its time where it accelerates `params`.
  FrameCost frame_cost(int width, int height, const StereoParams& params) const override;

  // Whether the SIMD pipeline computes `params` (else the reference does).
  static bool accelerates(const StereoParams& params);

  // The cost volumes, kept from frame to frame (fast_cpu_engine.cpp).
  struct Volumes;

  FastCpuEngine();
  ~FastCpuEngine() override;

 private:
  std::unique_ptr<Volumes> volumes_;
};

// The SIMD target the fast stages run on now, e.g. "AVX3" or "AVX2" (Highway's name).
std::string fast_cpu_target_name();

}  // namespace sv
