#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/app/bounded_queue.h"
#include "src/core/point_cloud_math.h"

namespace sv {

// The 3D view's live recording: the cloud of every shown frame, as shown (its visible points in
// their colours), as a binary PLY `cloud_<index>.ply` (the frame's source index) in a folder.
// The files are written on a thread of its own, each whole or not at all, so the display never
// waits for the disk: a queue of kQueued clouds; a cloud that finds it full pushes out the
// oldest, which is counted as dropped. A write that fails (a full disk) stops the recording with
// its reason; the files written before it stay.
class CloudRecorder {
 public:
  static constexpr size_t kQueued = 4;

  // Creates `folder` (and its parents); RuntimeError naming it when that fails.
  explicit CloudRecorder(const std::string& folder);
  // Writes what is still queued, then stops (finish()).
  ~CloudRecorder();
  CloudRecorder(const CloudRecorder&) = delete;
  CloudRecorder& operator=(const CloudRecorder&) = delete;

  // `units` goes into the files' comment ("metres", "pixels").
  void add(int64_t index, std::vector<CloudVertex> vertices, const std::string& units);
  // Writes what is still queued and stops the thread; later add() calls are ignored.
  void finish();

  struct Status {
    int64_t written = 0;
    int64_t dropped = 0;
    std::string error;  // why it stopped; empty while it works
  };
  Status status() const;
  const std::string& folder() const { return folder_; }

 private:
  struct Cloud {
    int64_t index = 0;
    std::vector<CloudVertex> vertices;
    std::string units;
  };
  void run();

  std::string folder_;
  BoundedQueue<Cloud> queue_{kQueued, QueueFullPolicy::DropOldest};
  std::atomic<int64_t> written_{0};
  mutable std::mutex error_mutex_;
  std::string error_;
  std::thread thread_;
};

}  // namespace sv
