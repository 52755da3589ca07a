// The frames a loop keeps in flight (issue 18): outcomes leave in the order the pairs came, a
// frame that failed before the engine keeps its place, and the host time of a frame leaves out
// the time collect() waited for the engine's work.
#include "src/app/frame_pipeline_queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "src/core/error.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

using namespace std::chrono_literals;

// Fills the disparity with the left pixel (0, 0); throws InputError on the marker `bad`.
class MarkerEngine : public test::FakeEngine {
 public:
  explicit MarkerEngine(int bad = -1) : bad_(bad) {}
  std::string name() const override { return "marker"; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams&) override {
    if (left.at(0, 0) == bad_) throw InputError("bad marker");
    DisparityResult result;
    result.disparity = ImageF32(left.width(), left.height(), left.at(0, 0));
    return result;
  }

 private:
  int bad_;
};

StereoPair marked_pair(int marker) {
  StereoPair pair;
  pair.index = marker;
  const uint8_t v = static_cast<uint8_t>(marker);
  pair.left = ImageRgb8(4, 3, Rgb8{v, v, v});
  pair.right = pair.left;
  return pair;
}

TEST(FramePipelineQueue, OutcomesLeaveInOrderWithTheFailedFramesInTheirPlace) {
  MarkerEngine engine(3);
  FramePipelineQueue<std::string> queue(engine);
  EXPECT_TRUE(queue.empty());
  queue.submit(marked_pair(1), "one", StereoParams{}, ResultParts{});
  EXPECT_FALSE(queue.full());
  queue.add_failed(marked_pair(2), "two", std::make_exception_ptr(InputError("refused")));
  EXPECT_TRUE(queue.full());
  DisparityResult result;

  auto first = queue.collect(result);
  EXPECT_FALSE(first.error);
  EXPECT_EQ(first.extra, "one");
  EXPECT_EQ(first.pair.index, 1);
  EXPECT_EQ(result.disparity.at(0, 0), 1.0f);

  queue.submit(marked_pair(3), "three", StereoParams{}, ResultParts{});  // the engine fails it
  queue.submit(marked_pair(4), "four", StereoParams{}, ResultParts{});
  EXPECT_EQ(engine.frames_in_flight(), 2);  // the failed frame 2 never reached the engine

  auto second = queue.collect(result);
  ASSERT_TRUE(second.error);
  EXPECT_EQ(second.extra, "two");
  EXPECT_THROW(std::rethrow_exception(second.error), InputError);

  auto third = queue.collect(result);
  ASSERT_TRUE(third.error);
  EXPECT_EQ(third.pair.index, 3);

  auto fourth = queue.collect(result);
  EXPECT_FALSE(fourth.error);
  EXPECT_EQ(fourth.extra, "four");
  EXPECT_EQ(result.disparity.at(0, 0), 4.0f);
  EXPECT_TRUE(queue.empty());
}

// Works `submit_ms` on the caller's thread in submit(), then blocks `wait_ms` in collect() and
// says so (collect_wait_ms), as an engine computing elsewhere does.
class WaitingEngine : public MarkerEngine {
 public:
  WaitingEngine(double submit_ms, double wait_ms) : submit_ms_(submit_ms), wait_ms_(wait_ms) {}
  void submit(const FrameRequest& request) override {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(submit_ms_));
    MarkerEngine::submit(request);
  }
  void collect(DisparityResult& result) override {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(wait_ms_));
    MarkerEngine::collect(result);
    result.timings.collect_wait_ms = wait_ms_;
  }
  using StereoEngine::collect;

 private:
  double submit_ms_, wait_ms_;
};

TEST(FramePipelineQueue, HostTimeIsTheLoopsTimeOnTheFrameLessTheEnginesWait) {
  WaitingEngine engine(20.0, 100.0);
  FramePipelineQueue<int> queue(engine);
  queue.submit(marked_pair(1), 1, StereoParams{}, ResultParts{});
  std::this_thread::sleep_for(50ms);  // the loop's other work: not the frame's host time
  DisparityResult result;
  const auto frame = queue.collect(result);
  ASSERT_FALSE(frame.error);
  EXPECT_GE(frame.latency_ms, 170.0);  // submit + other work + wait
  EXPECT_GE(frame.host_ms, 20.0);      // the submit's work
  EXPECT_LT(frame.host_ms, 50.0);      // neither the other work nor the 100 ms wait
}

}  // namespace
}  // namespace sv
