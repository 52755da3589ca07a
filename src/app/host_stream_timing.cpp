#include "src/app/host_stream_timing.h"

#include <algorithm>
#include <chrono>

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

bool is_transfer_stage(const std::string& stage) {
  return stage == "upload" || stage == "download" || stage == "results";
}

HostStreamTimes time_host_stream(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                 const StereoParams& params, int warmup, int runs) {
  FrameRequest request;
  request.pair = PairView::of(left, right);
  request.params = params;
  request.want = ResultParts::fixed_only();
  DisparityResult result;  // reused: the loop allocates nothing once it has the size
  for (int i = 0; i < warmup; ++i) {
    engine.submit(request);
    engine.collect(result);
  }

  HostStreamTimes times;
  const auto stream_start = Clock::now();
  for (int i = 0; i < runs; ++i) {
    engine.submit(request);
    if (engine.frames_in_flight() == 2) engine.collect(result);
  }
  while (engine.frames_in_flight() > 0) engine.collect(result);
  times.frames_per_second = runs / (ms_since(stream_start) / 1000.0);

  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    engine.submit(request);
    engine.collect(result);
    const double latency = ms_since(start);
    double device = 0.0;
    for (const StageTiming& s : result.timings.stages) {
      if (!is_transfer_stage(s.stage)) device += s.milliseconds;
    }
    times.latency_ms.push_back(latency);
    times.device_ms.push_back(device);
    // A host engine's frame is host time throughout (no device span).
    times.host_ms.push_back(std::max(0.0, latency - result.timings.device_span_ms));
  }
  return times;
}

}  // namespace sv
