#include "src/app/playback_source.h"

#include <algorithm>

namespace sv {

void PlaybackControls::request_seek(int64_t index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    seek_ = std::max<int64_t>(0, index);
  }
  wake_.notify_all();
}

void PlaybackControls::set_loop(bool loop) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    loop_ = loop;
  }
  wake_.notify_all();
}

bool PlaybackControls::loop() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loop_;
}

void PlaybackControls::set_paced(bool paced) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paced_ = paced;
  }
  wake_.notify_all();
}

bool PlaybackControls::paced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return paced_;
}

bool PlaybackControls::at_end() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return at_end_;
}

void PlaybackControls::cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  wake_.notify_all();
}

PlaybackSource::PlaybackSource(std::unique_ptr<FrameSource> inner,
                               std::shared_ptr<PlaybackControls> controls,
                               std::optional<StereoPair> first, NoticeSink notices)
    : inner_(std::move(inner)),
      controls_(std::move(controls)),
      first_(std::move(first)),
      notices_(std::move(notices)) {}

bool PlaybackSource::seek(int64_t index) {
  if (inner_->is_live() || index < 0) return false;
  controls_->request_seek(index);
  return true;
}

void PlaybackSource::do_seek(std::unique_lock<std::mutex>& lock) {
  int64_t index = *controls_->seek_;
  controls_->seek_.reset();
  controls_->at_end_ = false;
  lock.unlock();
  const int64_t count = inner_->frame_count();
  if (count > 0) index = std::min(index, count - 1);
  first_.reset();
  if (!inner_->seek(index)) {
    post_notice(notices_, inner_->describe() + ": cannot seek to frame " + std::to_string(index));
  }
  schedule_started_ = false;  // the pace starts again from the new position
  lock.lock();
}

bool PlaybackSource::wait_for_pace(std::unique_lock<std::mutex>& lock) {
  const double fps = inner_->frames_per_second();
  if (!controls_->paced_ || inner_->is_live() || fps <= 0.0) {
    schedule_started_ = false;
    return !controls_->cancelled_;
  }
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps));
  const auto now = Clock::now();
  if (!schedule_started_ || due_ + period < now) {
    // The first pair, or processing fell behind: go now and count the schedule from here.
    schedule_started_ = true;
    due_ = now;
    return !controls_->cancelled_;
  }
  due_ += period;
  // A seek or a switch to "as fast as possible" also ends the wait.
  controls_->wake_.wait_until(lock, due_, [&] {
    return controls_->cancelled_ || controls_->seek_ || !controls_->paced_;
  });
  return !controls_->cancelled_;
}

std::optional<StereoPair> PlaybackSource::next() {
  std::unique_lock<std::mutex> lock(controls_->mutex_);
  while (!controls_->cancelled_) {
    if (controls_->seek_) do_seek(lock);
    std::optional<StereoPair> pair;
    lock.unlock();
    if (first_) {
      pair = std::move(first_);
      first_.reset();
    } else {
      pair = inner_->next();  // may throw: the capture thread reports it
    }
    lock.lock();
    if (!pair) {
      if (inner_->is_live() || inner_->frame_count() == 0) return std::nullopt;
      if (controls_->seek_) continue;
      if (controls_->loop_) {
        lock.unlock();
        const bool rewound = inner_->seek(0);
        lock.lock();
        if (rewound) continue;
      }
      // Hold at the end until the user seeks or switches looping on (or the pipeline stops).
      controls_->at_end_ = true;
      const bool loop_before = controls_->loop_;
      controls_->wake_.wait(lock, [&] {
        return controls_->cancelled_ || controls_->seek_ || controls_->loop_ != loop_before;
      });
      if (!controls_->seek_ && controls_->loop_ && !controls_->cancelled_) controls_->seek_ = 0;
      continue;
    }
    controls_->at_end_ = false;
    if (!wait_for_pace(lock)) return std::nullopt;
    return pair;
  }
  return std::nullopt;
}

}  // namespace sv
