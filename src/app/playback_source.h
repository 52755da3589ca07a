#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "src/core/frame_source.h"
#include "src/io/notice_sink.h"

namespace sv {

// How the viewer steers a file while the capture thread reads it: the GL thread calls these,
// the PlaybackSource on the capture thread acts on them before its next pair. Thread-safe.
class PlaybackControls {
 public:
  PlaybackControls(bool loop, bool paced) : loop_(loop), paced_(paced) {}

  // The next pair delivered is `index` (clamped to the file; a source that cannot seek says so
  // in a notice and plays on).
  void request_seek(int64_t index);
  void set_loop(bool loop);
  bool loop() const;
  // Paced: a file plays at its own frame rate; otherwise as fast as the engine takes pairs.
  void set_paced(bool paced);
  bool paced() const;
  // The file ended (and does not loop): the source holds until a seek or the loop switch.
  bool at_end() const;
  // From now on next() returns nullopt at once: the pipeline is shutting down.
  void cancel();

 private:
  friend class PlaybackSource;
  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  std::optional<int64_t> seek_;
  bool loop_;
  bool paced_;
  bool at_end_ = false;
  bool cancelled_ = false;
};

// Wraps the viewer's source so the user can scrub, loop and change the pace without reopening
// it: a finite source that ends waits for a seek (or the loop switch) instead of ending, so the
// last frame stays on screen and the file can still be played again. Indices are the inner
// source's (positions in the file), so "frame i / N" reads straight off a pair. `first` is a
// pair already read from `inner` (the viewer reads one to check a new source before switching
// to it); it is delivered first. Live sources pass through unpaced and end when they end.
class PlaybackSource : public FrameSource {
 public:
  PlaybackSource(std::unique_ptr<FrameSource> inner, std::shared_ptr<PlaybackControls> controls,
                 std::optional<StereoPair> first = {}, NoticeSink notices = {});

  std::string describe() const override { return inner_->describe(); }
  bool is_live() const override { return inner_->is_live(); }
  int64_t frame_count() const override { return inner_->frame_count(); }
  double frames_per_second() const override { return inner_->frames_per_second(); }
  std::optional<StereoPair> next() override;
  bool seek(int64_t index) override;
  void use_pair_memory(std::shared_ptr<BlockPool> pool) override {
    inner_->use_pair_memory(std::move(pool));
  }

 private:
  using Clock = std::chrono::steady_clock;
  // Runs a pending seek; called with the controls' mutex held, which it releases meanwhile.
  void do_seek(std::unique_lock<std::mutex>& lock);
  // Waits for the pace of the source; false when cancelled.
  bool wait_for_pace(std::unique_lock<std::mutex>& lock);

  std::unique_ptr<FrameSource> inner_;
  std::shared_ptr<PlaybackControls> controls_;
  std::optional<StereoPair> first_;
  NoticeSink notices_;
  bool schedule_started_ = false;
  Clock::time_point due_;
};

}  // namespace sv
