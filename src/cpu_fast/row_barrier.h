#pragma once

#include <atomic>
#include <thread>

namespace sv {

// Makes `parties` threads meet after each image row of a sequential pass (the SGM's vertical
// and diagonal paths need the whole previous row). Rows are short, so waiting spins briefly and
// then yields, which keeps a loaded machine's other work running.
class RowBarrier {
 public:
  explicit RowBarrier(int parties) : parties_(parties) {}

  void arrive_and_wait() {
    const int generation = generation_.load(std::memory_order_acquire);
    if (waiting_.fetch_add(1, std::memory_order_acq_rel) + 1 == parties_) {
      waiting_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins) {
      if (spins > 256) std::this_thread::yield();
    }
  }

 private:
  const int parties_;
  std::atomic<int> waiting_{0};
  std::atomic<int> generation_{0};
};

}  // namespace sv
