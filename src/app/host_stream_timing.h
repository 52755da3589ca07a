#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/core/remap.h"
#include "src/core/stereo_engine.h"

namespace sv {

// Where the bench's pairs lie before they are submitted.
enum class StreamInput {
  // As a camera source gives them (issue 18): in two blocks of the engine's own host memory
  // (StereoEngine::host_memory, page-locked on the CUDA engine), written once and submitted for
  // every frame (the engine only reads them), so the CUDA engine uploads them as they are.
  EngineMemory,
  // Ordinary host images, which the engine copies into its upload staging every frame
  // (`bench --host-to-host --staged-input`, the bench's input before issue 18's pooled pairs).
  Staged,
};

// A frame loop as a program sees it: 8-bit pairs from host memory, the fixed-point disparity back
// in host memory, through the engine's submit() / collect() with two frames in flight; and where
// each frame's time goes, from the stage timings the engine returns with it.
struct HostStreamTimes {
  // The pipelined stream.
  double frames_per_second = 0.0;
  std::vector<double> stream_stages_ms;    // each frame's stages without the transfers
  std::vector<double> stream_upload_ms;    // each frame's upload stage (none on a host engine)
  std::vector<double> stream_download_ms;  // each frame's download stage (none on a host engine)
  // One frame alone, per run.
  std::vector<double> latency_ms;  // submit to collected result
  std::vector<double> host_ms;     // the time outside the device's span (all of it on the host)
  std::vector<double> device_ms;   // its stages without the transfers
  // Its transfer stages (none on a host engine): the upload, the copy of the result out of the
  // pipeline's buffers on the device, the download.
  std::vector<double> upload_ms, results_ms, download_ms;
  // The device's span less every stage in it: where the device waited inside the frame (kernel
  // launches the host had not issued yet, hand-overs between streams). Only with a device span.
  std::vector<double> span_gaps_ms;
  // The host's part of the latency: submit()'s own time (what it does before and while it queues
  // the frame), and collect()'s time after its wait for the engine (reading the timings, handing
  // over the result).
  std::vector<double> submit_ms;
  std::vector<double> after_wait_ms;
};

// A host-to-host row's yardstick: the CUDA engine's device call on the same pair in the same run
// (what bench --device times), each call's time and its stages without the transfers. Empty for
// an engine without that call.
struct DeviceCallTimes {
  std::vector<double> call_ms, stages_ms;
};

// Called with every collected result (warm-up, streamed and alone, in that order): the tests'
// way to check what the bench computed.
using CollectedResultCheck = std::function<void(const DisparityResult&)>;

// `warmup` untimed frames, then `runs` pipelined frames for the rate and `runs` single frames for
// the latency, the pair where `input` puts it. Throws what the engine throws.
HostStreamTimes time_host_stream(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                 const StereoParams& params, StreamInput input, int warmup, int runs,
                                 const CollectedResultCheck& check = nullptr);

// The same for a calibrated colour camera's frames (`bench --host-to-host --rectify`): the RAW
// colour pair goes to the engine with `maps`, and the rectified views come back with the
// fixed-point disparity (what the frame loops ask for such a pair).
HostStreamTimes time_host_stream(StereoEngine& engine, const ImageRgb8& left,
                                 const ImageRgb8& right,
                                 std::shared_ptr<const RectificationMaps> maps,
                                 const StereoParams& params, StreamInput input, int warmup, int runs,
                                 const CollectedResultCheck& check = nullptr);

// The stages that move data between host and device rather than compute.
bool is_transfer_stage(const std::string& stage);
// A frame's stages without the transfers: the engine's own work on it.
double stages_without_transfers_ms(const StageTimings& timings);

}  // namespace sv
