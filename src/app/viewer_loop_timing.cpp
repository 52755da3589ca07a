#include "src/app/viewer_loop_timing.h"

#include <chrono>
#include <thread>

#include "src/app/processing_thread.h"
#include "src/core/block_pool.h"
#include "src/core/error.h"

namespace sv {
namespace {

using Clock = std::chrono::steady_clock;
// Long enough for any frame the bench allows, short enough that a stuck thread ends the bench.
constexpr auto kMaxWaitForAFrame = std::chrono::seconds(60);

}  // namespace

ViewerLoopTimes time_viewer_loop(const EngineFactory& factory, const std::string& engine_kind,
                                 const StereoPair& pair, const StereoParams& params,
                                 bool device_results, int warmup, int runs) {
  const int64_t total = static_cast<int64_t>(warmup) + runs;
  PairQueue queue(2, QueueFullPolicy::Block);
  ProcessingThread processing(queue, factory, engine_kind, params);
  ResultParts want;
  want.device = device_results;
  processing.set_result_parts(want);
  processing.start();
  // The capture side: the same pair again and again, as fast as the thread takes them, each
  // written into the thread's pair pool as a source decodes into it (FrameSource::use_pair_memory).
  const std::shared_ptr<BlockPool> pool = processing.pair_pool();
  std::thread feeder([&] {
    for (int64_t i = 0; i < total; ++i) {
      StereoPair copy;  // the bench's pairs are colour views alone (bench_command.cpp)
      copy.left = pooled_copy(pool.get(), pair.left);
      copy.right = pooled_copy(pool.get(), pair.right);
      copy.timestamp_s = pair.timestamp_s;
      copy.index = i;
      if (!queue.push(std::move(copy))) break;
    }
    queue.close();
  });
  ViewerLoopTimes times;
  int64_t seen = 0;
  // The rate counts the frames published after the newest warm-up frame seen (or the start):
  // take_latest() may skip frames, and a loaded machine may show one timed frame alone, whose
  // rate would otherwise be unknown.
  auto last_progress = Clock::now();
  Clock::time_point reference_time = last_progress, last_timed = last_progress;
  int64_t reference_sequence = 0;
  std::string error;
  // take_latest() keeps only the newest result, so polling often sees (nearly) every frame.
  while (seen < total) {
    if (std::optional<ProcessedFrame> frame = processing.take_latest()) {
      seen = frame->sequence;
      last_progress = Clock::now();
      if (frame->sequence > warmup) {
        times.host_ms.push_back(frame->host_ms);
        times.copy_ms.push_back(frame->result.timings.host_copy_ms);
        last_timed = last_progress;
      } else {
        reference_time = last_progress;
        reference_sequence = frame->sequence;
      }
      continue;
    }
    const ProcessingStatus status = processing.status();
    if (!status.error.empty()) {
      error = status.error;
      break;
    }
    if (Clock::now() - last_progress > kMaxWaitForAFrame) {
      error = "no frame for " + std::to_string(kMaxWaitForAFrame.count()) + " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  queue.close();
  feeder.join();
  processing.stop();
  if (!error.empty()) throw RuntimeError("bench --viewer-loop: " + error);
  const double seconds = std::chrono::duration<double>(last_timed - reference_time).count();
  if (!times.host_ms.empty() && seconds > 0.0) {
    // The frames published after the reference, seen or not.
    times.frames_per_second = static_cast<double>(total - reference_sequence) / seconds;
  }
  return times;
}

}  // namespace sv
