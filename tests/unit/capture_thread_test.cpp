#include "src/app/capture_thread.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace sv {
namespace {

using namespace std::chrono_literals;

// Pairs whose left pixel (0, 0) carries the index, so the order can be checked.
class CountingSource : public FrameSource {
 public:
  CountingSource(int64_t count, bool live, double fps = 0.0, int64_t fail_at = -1)
      : count_(count), live_(live), fps_(fps), fail_at_(fail_at) {}
  std::string describe() const override { return "counting"; }
  bool is_live() const override { return live_; }
  int64_t frame_count() const override { return count_; }
  double frames_per_second() const override { return fps_; }
  std::optional<StereoPair> next() override {
    if (next_ == fail_at_) throw std::runtime_error("camera unplugged");
    if (count_ >= 0 && next_ >= count_) return std::nullopt;
    StereoPair pair;
    pair.index = next_;
    pair.left = ImageRgb8(2, 1, Rgb8{static_cast<uint8_t>(next_ & 0xff), 0, 0});
    pair.right = pair.left;
    ++next_;
    return pair;
  }

 private:
  int64_t count_;
  bool live_;
  double fps_;
  int64_t fail_at_;
  int64_t next_ = 0;
};

TEST(CaptureThread, DeliversAFiniteSourceInOrderAndClosesTheQueue) {
  PairQueue queue(2, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(50, false), queue, false);
  capture.start();
  std::vector<int64_t> indices;
  while (auto pair = queue.pop()) {
    EXPECT_EQ(pair->left.at(0, 0).r, pair->index & 0xff);
    indices.push_back(pair->index);
  }
  ASSERT_EQ(indices.size(), 50u);
  for (size_t i = 0; i < indices.size(); ++i) EXPECT_EQ(indices[i], static_cast<int64_t>(i));
  capture.stop();
  const CaptureStatus status = capture.status();
  EXPECT_TRUE(status.finished);
  EXPECT_EQ(status.delivered, 50);
  EXPECT_EQ(status.dropped, 0u);
  EXPECT_EQ(status.error, "");
  EXPECT_EQ(status.source, "counting");
}

TEST(CaptureThread, StopsPromptlyWhileBlockedOnAFullQueue) {
  PairQueue queue(1, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(-1, false), queue, false);
  capture.start();
  std::this_thread::sleep_for(30ms);  // the queue is full and nobody reads it
  const auto start = std::chrono::steady_clock::now();
  capture.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_TRUE(capture.status().finished);
  EXPECT_TRUE(queue.closed());
}

TEST(CaptureThread, StopsPromptlyWhilePacingASlowSource) {
  PairQueue queue(4, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(-1, false, 0.5), queue, true);
  capture.start();
  std::this_thread::sleep_for(30ms);  // delivered one pair, now sleeping for 2 s
  const auto start = std::chrono::steady_clock::now();
  capture.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_EQ(capture.status().delivered, 1);
}

TEST(CaptureThread, PacesAtTheSourceRate) {
  PairQueue queue(16, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(6, false, 50.0), queue, true);
  const auto start = std::chrono::steady_clock::now();
  capture.start();
  int received = 0;
  while (queue.pop()) ++received;
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(received, 6);
  // Six pairs at 50/s: the sixth leaves 5 periods (100 ms) after the first.
  EXPECT_GE(elapsed, 95ms);
  EXPECT_LT(elapsed, 3s);
}

TEST(CaptureThread, LiveSourceDropsTheOldestWhenTheConsumerIsBehind) {
  PairQueue queue(2, QueueFullPolicy::DropOldest);
  CaptureThread capture(std::make_unique<CountingSource>(20, true), queue, false);
  capture.start();
  while (!capture.status().finished) std::this_thread::sleep_for(1ms);
  // Nobody read: only the two newest pairs are left.
  EXPECT_EQ(queue.pop()->index, 18);
  EXPECT_EQ(queue.pop()->index, 19);
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_EQ(capture.status().dropped, 18u);
  EXPECT_EQ(capture.status().delivered, 20);
}

TEST(CaptureThread, ASourceFailureIsReportedAndEndsTheStream) {
  PairQueue queue(8, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(-1, false, 0.0, 3), queue, false);
  capture.start();
  int received = 0;
  while (queue.pop()) ++received;
  EXPECT_EQ(received, 3);
  const CaptureStatus status = capture.status();
  EXPECT_TRUE(status.finished);
  EXPECT_EQ(status.error, "camera unplugged");
}

// A camera that fails twice (unplugged, then replugged) keeps delivering after the retries.
class FlakyCamera : public FrameSource {
 public:
  std::string describe() const override { return "flaky camera"; }
  bool is_live() const override { return true; }
  std::optional<StereoPair> next() override {
    ++calls_;
    if (calls_ == 2 || calls_ == 3) throw std::runtime_error("camera lost");
    if (calls_ > 5) return std::nullopt;  // fewer pairs than the queue holds: nothing is dropped
    StereoPair pair;
    pair.index = calls_;
    pair.left = ImageRgb8(2, 1);
    pair.right = pair.left;
    return pair;
  }

 private:
  int calls_ = 0;
};

TEST(CaptureThread, ALiveSourceIsRetriedAfterAFailure) {
  PairQueue queue(8, QueueFullPolicy::DropOldest);
  CaptureThread capture(std::make_unique<FlakyCamera>(), queue, false);
  capture.start();
  std::vector<int64_t> indices;
  while (auto pair = queue.pop()) indices.push_back(pair->index);
  EXPECT_EQ(indices, (std::vector<int64_t>{1, 4, 5}));  // calls 2 and 3 failed and were retried
  const CaptureStatus status = capture.status();
  EXPECT_EQ(status.retries, 2);
  EXPECT_EQ(status.error, "");  // cleared once pairs flowed again
  EXPECT_TRUE(status.finished);
}

TEST(CaptureThread, StopWithoutStartAndTwiceIsHarmless) {
  PairQueue queue(1, QueueFullPolicy::Block);
  CaptureThread capture(std::make_unique<CountingSource>(3, false), queue, false);
  capture.stop();
  capture.stop();
  EXPECT_TRUE(queue.closed());
}

TEST(QueuePolicy, LiveSourcesDropFilesBlock) {
  EXPECT_EQ(queue_policy_for(CountingSource(1, true)), QueueFullPolicy::DropOldest);
  EXPECT_EQ(queue_policy_for(CountingSource(1, false)), QueueFullPolicy::Block);
}

}  // namespace
}  // namespace sv
