#pragma once

#include <vector>

#include "cuda/cuda_engine.h"

namespace sv::cuda {

// The bench's device-to-device figure through the public device call: the pair is uploaded once,
// then CudaEngine::compute_on_device runs `warmup` + `runs` times on a stream of the caller's,
// each call between two CUDA events on that stream. Milliseconds per timed call; the last call's
// stage timings in `stages`, every timed call's in `each_call` (read after the call's time is
// taken, so reading them adds nothing to it). Throws what compute_on_device throws.
std::vector<double> time_device_calls(CudaEngine& engine, const ImageU8& left, const ImageU8& right,
                                      const StereoParams& params, int warmup, int runs,
                                      StageTimings* stages,
                                      std::vector<StageTimings>* each_call = nullptr);

}  // namespace sv::cuda
