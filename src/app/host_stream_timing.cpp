#include "src/app/host_stream_timing.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "src/core/block_pool.h"
#include "src/core/error.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The milliseconds of every stage named `name` in a frame (none: 0).
double stage_ms(const StageTimings& timings, const std::string& name) {
  double sum = 0.0;
  for (const StageTiming& s : timings.stages) {
    if (s.stage == name) sum += s.milliseconds;
  }
  return sum;
}

bool has_stage(const StageTimings& timings, const std::string& name) {
  return std::any_of(timings.stages.begin(), timings.stages.end(),
                     [&](const StageTiming& s) { return s.stage == name; });
}

// A frame's stage `name` added to `values`, for the engines that have it.
void add_stage(const StageTimings& timings, const std::string& name, std::vector<double>& values) {
  if (has_stage(timings, name)) values.push_back(stage_ms(timings, name));
}

// The pair as a camera source gives it: written once into two blocks of the engine's host
// memory. The blocks outlive their pool, held by the images and, while it uploads, the engine.
template <typename Image>
std::pair<Image, Image> in_engine_memory(const StereoEngine& engine, const Image& left,
                                         const Image& right) {
  BlockPool pool(engine.host_memory(), 2);
  Image pooled_left = pooled_copy(&pool, left);
  Image pooled_right = pooled_copy(&pool, right);
  if (!pooled_left.block() || !pooled_right.block()) {
    throw RuntimeError("bench --host-to-host: no block of the engine's host memory for the pair");
  }
  return {std::move(pooled_left), std::move(pooled_right)};
}

// The request for a pair where `input` puts it; `held` keeps the pooled copies alive.
template <typename Image>
FrameRequest stream_request(const StereoEngine& engine, const Image& left, const Image& right,
                            const StereoParams& params, StreamInput input,
                            std::pair<Image, Image>& held) {
  // Staged: the caller's images as they are, which the engine copies into its staging.
  if (input == StreamInput::EngineMemory) held = in_engine_memory(engine, left, right);
  FrameRequest request;
  request.pair = input == StreamInput::EngineMemory ? PairView::of(held.first, held.second)
                                                    : PairView::of(left, right);
  request.params = params;
  request.want = ResultParts::fixed_only();
  return request;
}

}  // namespace

bool is_transfer_stage(const std::string& stage) {
  return stage == "upload" || stage == "download" || stage == "results";
}

double stages_without_transfers_ms(const StageTimings& timings) {
  double sum = 0.0;
  for (const StageTiming& s : timings.stages) {
    if (!is_transfer_stage(s.stage)) sum += s.milliseconds;
  }
  return sum;
}

namespace {

// The bench's loop on one request, submitted again for every frame.
HostStreamTimes time_requests(StereoEngine& engine, const FrameRequest& request, int warmup,
                              int runs, const CollectedResultCheck& check) {
  DisparityResult result;  // reused: the loop allocates nothing once it has the size
  const auto collect = [&] {
    engine.collect(result);
    if (check) check(result);
  };
  // Warm-up frames stream as the timed ones do (two in flight), so that every buffer and pooled
  // result block the stream needs exists before timing: warmed one frame at a time, the stream
  // met its third result block in its timed frames (a page-locked allocation of 17 MB at
  // 3840x2160, 0.3 ms a frame over 30 frames; docs/performance.md, ledger: stream-warmup).
  for (int i = 0; i < warmup; ++i) {
    engine.submit(request);
    if (engine.frames_in_flight() == 2) collect();
  }
  while (engine.frames_in_flight() > 0) collect();

  HostStreamTimes times;
  // The per-frame figures are read after each collect(), outside the engine's work but inside
  // the stream's time, as a program that looks at its results would.
  const auto note_streamed = [&] {
    collect();
    times.stream_stages_ms.push_back(stages_without_transfers_ms(result.timings));
    add_stage(result.timings, "upload", times.stream_upload_ms);
    add_stage(result.timings, "download", times.stream_download_ms);
  };
  const auto stream_start = Clock::now();
  for (int i = 0; i < runs; ++i) {
    engine.submit(request);
    if (engine.frames_in_flight() == 2) note_streamed();
  }
  while (engine.frames_in_flight() > 0) note_streamed();
  times.frames_per_second = runs / (ms_since(stream_start) / 1000.0);

  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    engine.submit(request);
    const double submitted = ms_since(start);
    const auto collect_start = Clock::now();
    engine.collect(result);
    const double collected = ms_since(collect_start);
    const double latency = ms_since(start);
    if (check) check(result);
    const StageTimings& t = result.timings;
    times.latency_ms.push_back(latency);
    times.device_ms.push_back(stages_without_transfers_ms(t));
    add_stage(t, "upload", times.upload_ms);
    add_stage(t, "results", times.results_ms);
    add_stage(t, "download", times.download_ms);
    // A host engine's frame is host time throughout (no device span).
    times.host_ms.push_back(std::max(0.0, latency - t.device_span_ms));
    if (t.device_span_ms > 0.0) times.span_gaps_ms.push_back(t.device_span_ms - t.total_ms());
    times.submit_ms.push_back(submitted);
    times.after_wait_ms.push_back(std::max(0.0, collected - t.collect_wait_ms));
  }
  return times;
}

}  // namespace

HostStreamTimes time_host_stream(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                 const StereoParams& params, StreamInput input, int warmup, int runs,
                                 const CollectedResultCheck& check) {
  std::pair<ImageU8, ImageU8> held;
  const FrameRequest request = stream_request(engine, left, right, params, input, held);
  return time_requests(engine, request, warmup, runs, check);
}

HostStreamTimes time_host_stream(StereoEngine& engine, const ImageRgb8& left,
                                 const ImageRgb8& right,
                                 std::shared_ptr<const RectificationMaps> maps,
                                 const StereoParams& params, StreamInput input, int warmup, int runs,
                                 const CollectedResultCheck& check) {
  std::pair<ImageRgb8, ImageRgb8> held;
  FrameRequest request = stream_request(engine, left, right, params, input, held);
  request.rectification = std::move(maps);
  request.want.rectified_views = true;
  return time_requests(engine, request, warmup, runs, check);
}

}  // namespace sv
