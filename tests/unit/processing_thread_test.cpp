#include "src/app/processing_thread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

#include "src/app/engine_factory.h"
#include "src/app/synthetic_source.h"
#include "src/core/block_pool.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "tests/support/counting_host_memory.h"
#include "tests/support/fake_engine.h"

#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/device_info.h"
#endif

namespace sv {
namespace {

using namespace std::chrono_literals;

// Writes params.p1 + left pixel (0, 0) / 100 into every pixel, so a result shows which
// parameters and which pair made it; throws on the pair whose marker equals `fail_marker`.
class MarkerEngine : public test::FakeEngine {
 public:
  explicit MarkerEngine(std::string name = "marker", int fail_marker = -1)
      : name_(std::move(name)), fail_marker_(fail_marker) {}
  std::string name() const override { return name_; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams& params) override {
    if (left.at(0, 0) == fail_marker_) throw RuntimeError("boom");
    DisparityResult result;
    result.disparity = ImageF32(left.width(), left.height(),
                                static_cast<float>(params.p1) + left.at(0, 0) / 100.0f);
    result.timings.add("mark", 0.5);
    return result;
  }

 private:
  std::string name_;
  int fail_marker_;
};

EngineFactory marker_factory(int fail_marker = -1) {
  return [fail_marker](const std::string& kind, std::ostream& notices) {
    if (kind == "broken") throw RuntimeError("no such device");
    notices << "note: made " << kind << "\n";
    return std::unique_ptr<StereoEngine>(new MarkerEngine(kind, fail_marker));
  };
}

// Gray pairs whose pixel (0, 0) is 1, 2, 3, ... (the marker); gray 255/255/255 keeps its value.
StereoPair marked_pair(int marker) {
  StereoPair pair;
  pair.index = marker;
  const uint8_t v = static_cast<uint8_t>(marker);
  pair.left = ImageRgb8(4, 3, Rgb8{v, v, v});
  pair.right = pair.left;
  return pair;
}

// Polls take_latest() until `accept` says yes or 5 s pass.
std::optional<ProcessedFrame> wait_for(ProcessingThread& thread,
                                       const std::function<bool(const ProcessedFrame&)>& accept) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto frame = thread.take_latest()) {
      if (accept(*frame)) return frame;
    }
    std::this_thread::sleep_for(1ms);
  }
  return std::nullopt;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(ProcessingThread, ResultsArriveWithTheirPairAndTimings) {
  PairQueue queue(2, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(), "fake", StereoParams{});
  EXPECT_TRUE(contains(processing.take_messages(), "note: made fake"));
  processing.start();
  queue.push(marked_pair(7));
  auto frame = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->sequence, 1);
  EXPECT_EQ(frame->pair.index, 7);
  EXPECT_EQ(frame->engine, "fake");
  EXPECT_FLOAT_EQ(frame->result.disparity.at(3, 2), 12.07f);  // default p1 12 + 7/100
  ASSERT_EQ(frame->result.timings.stages.size(), 1u);
  EXPECT_EQ(frame->result.timings.stages[0].stage, "mark");
  EXPECT_EQ(processing.status().processed, 1);
}

TEST(ProcessingThread, AParameterChangeTakesEffectOnALaterFrame) {
  PairQueue queue(2, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(), "fake", StereoParams{});
  processing.start();
  std::thread producer([&] {
    for (int i = 1; queue.push(marked_pair(i % 200 + 1)); ++i) std::this_thread::sleep_for(2ms);
  });
  ASSERT_TRUE(wait_for(processing, [](const ProcessedFrame& f) { return f.params.p1 == 12; }));
  StereoParams changed;
  changed.p1 = 77;
  const uint64_t generation = processing.set_params(changed);
  EXPECT_EQ(generation, 1u);
  auto frame = wait_for(processing, [&](const ProcessedFrame& f) {
    // Until the change arrives, every frame still carries the old snapshot, consistently.
    EXPECT_EQ(f.params.p1, f.params_generation >= generation ? 77 : 12);
    return f.params_generation >= generation;
  });
  queue.close();
  producer.join();
  ASSERT_TRUE(frame);
  EXPECT_EQ(static_cast<int>(frame->result.disparity.at(0, 0)), 77);
  EXPECT_EQ(processing.params().p1, 77);
}

TEST(ProcessingThread, AnEngineExceptionBecomesAMessageAndTheThreadGoesOn) {
  PairQueue queue(8, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(2), "fake", StereoParams{});
  processing.start();
  for (int i = 1; i <= 3; ++i) queue.push(marked_pair(i));
  auto frame = wait_for(processing, [](const ProcessedFrame& f) { return f.pair.index == 3; });
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->sequence, 2);  // pair 2 failed and produced no result
  const auto messages = processing.take_messages();
  EXPECT_TRUE(contains(messages, "error: frame 2: boom")) << ::testing::PrintToString(messages);
  EXPECT_EQ(processing.status().error, "");  // cleared by the good frame after it
}

// An engine whose frames of more than `max_width` px need more memory than any machine has.
class HungryEngine : public MarkerEngine {
 public:
  explicit HungryEngine(int max_width) : MarkerEngine("hungry"), max_width_(max_width) {}
  DisparityResult match(const ImageU8& left, const ImageU8& right, const StereoParams& params) override {
    if (left.width() > max_width_) ADD_FAILURE() << "a frame that cannot fit was computed";
    return MarkerEngine::match(left, right, params);
  }
  FrameCost frame_cost(int width, int, const StereoParams&) const override {
    FrameCost cost;
    cost.host_bytes = width > max_width_ ? uint64_t{1} << 62 : 1;
    return cost;
  }

 private:
  int max_width_;
};

// Issue 17: the viewer's frames are checked before they are computed; one that cannot fit is an
// error message and the thread goes on with the next frame.
// An engine that works 20 ms in submit() on the caller's thread, then makes collect() wait 40 ms
// for a "device" and says so (collect_wait_ms), as the CUDA engine does.
class DeviceSpanEngine : public MarkerEngine {
 public:
  void submit(const FrameRequest& request) override {
    std::this_thread::sleep_for(20ms);
    MarkerEngine::submit(request);
  }
  void collect(DisparityResult& result) override {
    std::this_thread::sleep_for(40ms);
    MarkerEngine::collect(result);
    result.timings.device_span_ms = 40.0;
    result.timings.collect_wait_ms = 40.0;
  }
  using StereoEngine::collect;
};

// The host's own time of a frame (issue 18): the thread's time on it less what collect() waited
// for the engine, which the viewer's timings panel shows; the frame's wall time has both.
TEST(ProcessingThread, AFramesHostTimeLeavesOutTheWaitForTheEngine) {
  PairQueue queue(4, QueueFullPolicy::Block);
  const EngineFactory factory = [](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new DeviceSpanEngine());
  };
  ProcessingThread processing(queue, factory, "fake", StereoParams{});
  processing.start();
  queue.push(marked_pair(1));
  const auto frame = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(frame);
  EXPECT_GE(frame->processing_ms, 60.0);
  EXPECT_GE(frame->host_ms, 20.0);
  EXPECT_LT(frame->host_ms, 40.0) << "the 40 ms wait for the engine is not host time";
}

// Notes how many frames were in flight at each submit and the order of the pairs it was given.
class CountingEngine : public MarkerEngine {
 public:
  explicit CountingEngine(std::atomic<int>& max_in_flight) : max_in_flight_(max_in_flight) {}
  void submit(const FrameRequest& request) override {
    MarkerEngine::submit(request);
    max_in_flight_ = std::max(max_in_flight_.load(), frames_in_flight());
  }

 private:
  std::atomic<int>& max_in_flight_;
};

// Pairs waiting in the queue (a video, a camera faster than the engine): two frames in flight,
// every pair published once and in order, each result computed from its own pair.
TEST(ProcessingThread, PairsThatKeepComingArePublishedInOrderWithTwoInFlight) {
  constexpr int kPairs = 30;
  PairQueue queue(kPairs, QueueFullPolicy::Block);
  for (int i = 1; i <= kPairs; ++i) queue.push(marked_pair(i));
  std::atomic<int> max_in_flight{0};
  const EngineFactory factory = [&](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new CountingEngine(max_in_flight));
  };
  ProcessingThread processing(queue, factory, "fake", StereoParams{});
  processing.start();
  int64_t last_index = 0, last_sequence = 0;
  auto last = wait_for(processing, [&](const ProcessedFrame& f) {
    EXPECT_GT(f.pair.index, last_index);
    EXPECT_GT(f.sequence, last_sequence);
    EXPECT_EQ(f.sequence, f.pair.index) << "no pair skipped or published twice";
    EXPECT_FLOAT_EQ(f.result.disparity.at(0, 0), 12.0f + f.pair.index / 100.0f);
    last_index = f.pair.index;
    last_sequence = f.sequence;
    return f.pair.index == kPairs;
  });
  ASSERT_TRUE(last);
  EXPECT_EQ(max_in_flight.load(), 2);
  EXPECT_EQ(processing.status().processed, kPairs);
}

// With frames in flight, a parameter change once the pairs stop is shown on the last pair: the
// frames computed before it keep their own parameters, the redone one carries the new ones.
TEST(ProcessingThread, AParameterChangeAfterTheLastPairRedoesItWithFramesInFlight) {
  PairQueue queue(8, QueueFullPolicy::Block);
  for (int i = 1; i <= 6; ++i) queue.push(marked_pair(i));
  ProcessingThread processing(queue, marker_factory(), "fake", StereoParams{});
  processing.start();
  auto sixth = wait_for(processing, [](const ProcessedFrame& f) { return f.pair.index == 6; });
  ASSERT_TRUE(sixth);
  EXPECT_EQ(sixth->params.p1, 12);
  EXPECT_EQ(sixth->params_generation, 0u);
  StereoParams changed;
  changed.p1 = 55;
  const uint64_t generation = processing.set_params(changed);
  auto redone = wait_for(processing, [&](const ProcessedFrame& f) {
    EXPECT_EQ(f.params.p1, f.params_generation >= generation ? 55 : 12);
    return f.params_generation == generation;
  });
  ASSERT_TRUE(redone);
  EXPECT_EQ(redone->pair.index, 6);
  EXPECT_FLOAT_EQ(redone->result.disparity.at(0, 0), 55.06f);
  EXPECT_EQ(redone->sequence, 7);
}

TEST(ProcessingThread, AFrameThatCannotFitIsRefusedBeforeItIsComputed) {
  PairQueue queue(8, QueueFullPolicy::Block);
  const EngineFactory factory = [](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new HungryEngine(4));
  };
  ProcessingThread processing(queue, factory, "fake", StereoParams{});
  processing.start();
  StereoPair wide = marked_pair(1);
  wide.left = ImageRgb8(5, 3, Rgb8{1, 1, 1});
  wide.right = wide.left;
  queue.push(wide);
  queue.push(marked_pair(2));
  auto frame = wait_for(processing, [](const ProcessedFrame& f) { return f.pair.index == 2; });
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->sequence, 1);  // the wide pair produced no result
  const auto messages = processing.take_messages();
  EXPECT_TRUE(contains(messages, "error: frame 1: a 5x3 frame (census-sgm, 64 disparities) needs 4.0 EiB of host memory on the hungry engine"))
      << ::testing::PrintToString(messages);
}

TEST(ProcessingThread, PausedItRecomputesTheLastPairOnAParameterChangeAndStepsOnRequest) {
  PairQueue queue(4, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(), "fake", StereoParams{});
  processing.set_paused(true);
  processing.step();
  processing.start();
  queue.push(marked_pair(1));
  queue.push(marked_pair(2));
  auto first = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(first);
  EXPECT_EQ(first->pair.index, 1);
  StereoParams changed;
  changed.p1 = 30;
  processing.set_params(changed);
  auto redone = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(redone);
  EXPECT_EQ(redone->pair.index, 1) << "paused: the same pair is recomputed";
  EXPECT_FLOAT_EQ(redone->result.disparity.at(0, 0), 30.01f);
  std::this_thread::sleep_for(60ms);
  EXPECT_FALSE(processing.take_latest()) << "paused: no new pair is taken";
  EXPECT_EQ(queue.size(), 1u);
  processing.step();
  auto stepped = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(stepped);
  EXPECT_EQ(stepped->pair.index, 2);
}

TEST(ProcessingThread, EngineSwitchesHappenOnTheThreadAndAFailedOneKeepsTheOldEngine) {
  PairQueue queue(4, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(), "first", StereoParams{});
  processing.start();
  queue.push(marked_pair(1));
  ASSERT_TRUE(wait_for(processing, [](const ProcessedFrame& f) { return f.engine == "first"; }));
  processing.request_engine("broken");
  queue.push(marked_pair(2));
  ASSERT_TRUE(wait_for(processing, [](const ProcessedFrame& f) { return f.pair.index == 2; }));
  EXPECT_TRUE(contains(processing.take_messages(), "no such device; keeping first"));
  EXPECT_EQ(processing.status().engine, "first");
  processing.request_engine("second");
  // The last pair is recomputed with the new engine even without a new pair.
  auto frame = wait_for(processing, [](const ProcessedFrame& f) { return f.engine == "second"; });
  ASSERT_TRUE(frame);
  EXPECT_EQ(processing.status().engine, "second");
}

// The pool the capture side writes pairs into is of the running engine's host memory, and
// follows an engine switch (blocks of the old memory go back to it as they are let go).
class OwnMemoryEngine : public MarkerEngine {
 public:
  OwnMemoryEngine(std::string name, std::shared_ptr<HostMemory> memory)
      : MarkerEngine(std::move(name)), memory_(std::move(memory)) {}
  std::shared_ptr<HostMemory> host_memory() const override { return memory_; }

 private:
  std::shared_ptr<HostMemory> memory_;
};

TEST(ProcessingThread, ThePairPoolIsOfTheEnginesMemoryAndFollowsASwitch) {
  auto first_memory = std::make_shared<test::CountingHostMemory>();
  auto second_memory = std::make_shared<test::CountingHostMemory>();
  const EngineFactory factory = [&](const std::string& kind, std::ostream&) {
    return std::unique_ptr<StereoEngine>(
        new OwnMemoryEngine(kind, kind == "first" ? first_memory : second_memory));
  };
  PairQueue queue(4, QueueFullPolicy::Block);
  ProcessingThread processing(queue, factory, "first", StereoParams{});
  const std::shared_ptr<BlockPool> pool = processing.pair_pool();
  EXPECT_EQ(pool->memory(), first_memory);
  processing.start();
  StereoPair pair = marked_pair(1);
  pair.left = pooled_copy(pool.get(), pair.left);
  pair.right = pooled_copy(pool.get(), pair.right);
  queue.push(std::move(pair));
  ASSERT_TRUE(wait_for(processing, [](const ProcessedFrame& f) { return f.engine == "first"; }));
  processing.request_engine("second");
  ASSERT_TRUE(wait_for(processing, [](const ProcessedFrame& f) { return f.engine == "second"; }));
  EXPECT_EQ(processing.pair_pool(), pool) << "one pool for the capture side, whatever the engine";
  EXPECT_EQ(pool->memory(), second_memory);
  processing.stop();
}

#ifdef STEREOVIEW_HAS_CUDA
// --engine auto (the viewer's default) wraps the CUDA engine: its pairs are in pinned memory too.
TEST(ProcessingThread, TheAutoEnginesPairPoolIsPinnedWithACudaDevice) {
  const cuda::DeviceInfo device = cuda::query_device();
  if (!device.available) GTEST_SKIP() << "needs a CUDA device: " << device.reason;
  PairQueue queue(2, QueueFullPolicy::Block);
  ProcessingThread processing(queue, make_engine, "auto", StereoParams{});
  EXPECT_TRUE(processing.pair_pool()->memory()->pinned());
}
#endif

TEST(ProcessingThread, ReportsTheEndOfItsInputAndStopsPromptly) {
  PairQueue queue(2, QueueFullPolicy::Block);
  ProcessingThread processing(queue, marker_factory(), "fake", StereoParams{});
  processing.start();
  queue.close();
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!processing.status().input_ended && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(processing.status().input_ended);
  const auto start = std::chrono::steady_clock::now();
  processing.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST(ProcessingThread, AFactoryFailureAtStartUpThrows) {
  PairQueue queue(2, QueueFullPolicy::Block);
  EXPECT_THROW(ProcessingThread(queue, marker_factory(), "broken", StereoParams{}), RuntimeError);
}

TEST(ProcessingThread, RunsTheCpuEngineOnTheSyntheticScene) {
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 16;
  SyntheticSource source(config);
  PairQueue queue(2, QueueFullPolicy::Block);
  StereoParams params;
  params.num_disparities = 16;
  ProcessingThread processing(queue, make_engine, "cpu", params);
  processing.start();
  queue.push(*source.next());
  auto frame = wait_for(processing, [](const ProcessedFrame&) { return true; });
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->engine, "cpu");
  ASSERT_EQ(frame->result.disparity.width(), 96);
  // Most pixels match the scene's exact disparity within 1 px (a real engine ran on the pair).
  const ImageF32 truth = SyntheticScene(config).render(0).ground_truth;
  int close = 0;
  for (int y = 0; y < truth.height(); ++y) {
    for (int x = 0; x < truth.width(); ++x) {
      const float d = frame->result.disparity.at(x, y);
      if (is_valid_disparity(d) && std::abs(d - truth.at(x, y)) <= 1.0f) ++close;
    }
  }
  EXPECT_GT(close, static_cast<int>(truth.size() * 7 / 10));
  EXPECT_FALSE(frame->result.timings.stages.empty());
  // The engine's compute on its worker is not the thread's host time (issue 18).
  EXPECT_LT(frame->host_ms, frame->processing_ms / 2);
}

}  // namespace
}  // namespace sv
