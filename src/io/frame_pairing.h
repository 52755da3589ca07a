#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace sv {

struct PairingStats {
  int64_t pairs = 0;
  int64_t unpaired_left = 0;   // left frames dropped without a partner
  int64_t unpaired_right = 0;  // right frames dropped without a partner
};

// Pairs the frames of two independently clocked streams (two cameras) by nearest timestamp.
// Both streams must use the same clock and arrive in time order. Rule, applied to the oldest
// frame of each side, l and r:
//   - |l - r| > tolerance: the older one can no longer find a partner; it is dropped and counted.
//   - otherwise the earlier of the two is paired with the other, unless the other side already
//     holds a later frame that is closer to it, in which case the earlier one is dropped.
// A pair is given out as soon as it is decided (a live pipeline wants no extra frame of latency),
// so a closer frame that has not arrived yet cannot win. Each side holds at most `max_pending`
// frames; beyond that its oldest is dropped and counted.
template <typename Frame>
class TimestampPairer {
 public:
  struct Stamped {
    double timestamp_s = 0.0;
    Frame frame;
  };
  struct Pair {
    Stamped left;
    Stamped right;
  };

  explicit TimestampPairer(double tolerance_s, size_t max_pending = 8)
      : tolerance_s_(tolerance_s), max_pending_(max_pending < 1 ? 1 : max_pending) {}

  void push_left(double timestamp_s, Frame frame) {
    push(left_, Stamped{timestamp_s, std::move(frame)}, stats_.unpaired_left);
  }
  void push_right(double timestamp_s, Frame frame) {
    push(right_, Stamped{timestamp_s, std::move(frame)}, stats_.unpaired_right);
  }

  // The next matched pair, or nullopt until more frames arrive.
  std::optional<Pair> pop() {
    while (!left_.empty() && !right_.empty()) {
      const double l = left_.front().timestamp_s;
      const double r = right_.front().timestamp_s;
      const double gap = std::fabs(l - r);
      if (gap > tolerance_s_) {
        drop_front(l <= r ? left_ : right_, l <= r ? stats_.unpaired_left : stats_.unpaired_right);
        continue;
      }
      if (l <= r && left_.size() > 1 && std::fabs(left_[1].timestamp_s - r) < gap) {
        drop_front(left_, stats_.unpaired_left);
        continue;
      }
      if (r < l && right_.size() > 1 && std::fabs(right_[1].timestamp_s - l) < gap) {
        drop_front(right_, stats_.unpaired_right);
        continue;
      }
      Pair pair{std::move(left_.front()), std::move(right_.front())};
      left_.pop_front();
      right_.pop_front();
      ++stats_.pairs;
      return pair;
    }
    return std::nullopt;
  }

  // Forgets every waiting frame without counting it (after a camera is reopened).
  void clear() {
    left_.clear();
    right_.clear();
  }

  const PairingStats& stats() const { return stats_; }
  double tolerance_s() const { return tolerance_s_; }

 private:
  void push(std::deque<Stamped>& side, Stamped frame, int64_t& dropped) {
    side.push_back(std::move(frame));
    while (side.size() > max_pending_) drop_front(side, dropped);
  }
  static void drop_front(std::deque<Stamped>& side, int64_t& dropped) {
    side.pop_front();
    ++dropped;
  }

  double tolerance_s_;
  size_t max_pending_;
  std::deque<Stamped> left_;
  std::deque<Stamped> right_;
  PairingStats stats_;
};

}  // namespace sv
