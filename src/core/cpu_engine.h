#pragma once

#include "src/core/stereo_engine.h"

namespace sv {

// The reference engine: every stage in plain C++, multi-threaded over rows, deterministic. Its
// results define what the CUDA engine must reproduce.
class CpuEngine : public StereoEngine {
 public:
  std::string name() const override { return "cpu"; }
  DisparityResult compute(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override;
};

}  // namespace sv
