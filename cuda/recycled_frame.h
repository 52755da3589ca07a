#pragma once

// What DeviceDisparity and DeviceViews share: a frame's device buffer handed to a consumer (the
// viewer's GL thread) and reused by the engine only after the consumer's read has finished on the
// GPU, without a host wait. The producer records ready() after filling the buffer; the consumer
// makes its stream wait for ready(), reads, then calls mark_read_on(its stream) before dropping
// the handle; the next fill of the recycled frame waits for that on the producer's stream.
#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace sv::cuda {

// The two events of a handed-out frame.
class FrameEvents {
 public:
  FrameEvents();
  ~FrameEvents();  // waits for the consumer's queued read: memory it uses is never freed early
  FrameEvents(const FrameEvents&) = delete;
  FrameEvents& operator=(const FrameEvents&) = delete;

  cudaEvent_t ready() const { return ready_; }
  void mark_read_on(cudaStream_t stream) const;
  // On the producer's stream: wait for the last consumer's read (a never-recorded event counts
  // as done), and later mark the new contents ready.
  void wait_for_release_on(cudaStream_t stream) const;
  void mark_ready_on(cudaStream_t stream) const;

 private:
  cudaEvent_t ready_ = nullptr;     // the producer's fill has finished
  cudaEvent_t released_ = nullptr;  // the consumer's last read has finished
};

// Frames of type Frame, recycled: a frame whose handle a consumer still holds is never handed out
// again; one given back (its last handle dropped) returns here for the next take(). Frame must be
// default-constructible by the pool (befriend RecycledFrames<Frame>).
template <class Frame>
class RecycledFrames {
 public:
  RecycledFrames() = default;
  RecycledFrames(const RecycledFrames&) = delete;
  RecycledFrames& operator=(const RecycledFrames&) = delete;

  // A frame to fill: a recycled one, or a new one when none is free.
  std::unique_ptr<Frame> take() {
    {
      std::lock_guard<std::mutex> lock(shared_->mutex);
      if (!shared_->free.empty()) {
        std::unique_ptr<Frame> frame = std::move(shared_->free.back());
        shared_->free.pop_back();
        return frame;
      }
    }
    return std::unique_ptr<Frame>(new Frame());
  }

  // The consumer's handle for a filled frame; the frame comes back when the last copy goes (or is
  // freed, when the pool is gone by then).
  std::shared_ptr<const Frame> hand_out(std::unique_ptr<Frame> frame) {
    std::weak_ptr<Shared> pool = shared_;
    return std::shared_ptr<const Frame>(frame.release(), [pool](const Frame* f) {
      std::unique_ptr<Frame> owned(const_cast<Frame*>(f));
      if (auto shared = pool.lock()) {
        std::lock_guard<std::mutex> lock(shared->mutex);
        shared->free.push_back(std::move(owned));
      }
    });
  }

 private:
  struct Shared {
    std::mutex mutex;
    std::vector<std::unique_ptr<Frame>> free;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

}  // namespace sv::cuda
