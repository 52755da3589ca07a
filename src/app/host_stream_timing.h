#pragma once

#include <vector>

#include "src/core/stereo_engine.h"

namespace sv {

// A frame loop as a program sees it: 8-bit pairs from host memory, the fixed-point disparity back
// in host memory, through the engine's submit() / collect() with two frames in flight.
struct HostStreamTimes {
  double frames_per_second = 0.0;   // of the pipelined stream
  std::vector<double> latency_ms;   // one frame alone: submit to collected result, per run
  std::vector<double> host_ms;      // of each such frame, the time outside the GPU's span
  std::vector<double> device_ms;    // of each such frame, its stages without the transfers
};

// `warmup` untimed frames, then `runs` pipelined frames for the rate and `runs` single frames for
// the latency. Throws what the engine throws.
HostStreamTimes time_host_stream(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                 const StereoParams& params, int warmup, int runs);

// The stages that move data between host and device rather than compute.
bool is_transfer_stage(const std::string& stage);

}  // namespace sv
