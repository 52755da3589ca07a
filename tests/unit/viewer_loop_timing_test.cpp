#include "src/app/viewer_loop_timing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>

#include "src/app/frame_pipeline_queue.h"
#include "src/core/block_pool.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/counting_host_memory.h"
#include "tests/support/fake_engine.h"
#include "tests/support/own_memory_engine.h"

namespace sv {
namespace {

StereoPair synthetic_pair(int width, int height) {
  SyntheticSceneConfig config;
  config.width = width;
  config.height = height;
  config.max_disparity = 12;
  const SyntheticFrame frame = SyntheticScene(config).render(0);
  StereoPair pair;
  pair.left = frame.left;
  pair.right = frame.right;
  return pair;
}

class FailingEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "failing"; }
  DisparityResult match(const ImageU8&, const ImageU8&, const StereoParams&) override {
    throw RuntimeError("the device fell off the bus");
  }
};

TEST(ViewerLoopTiming, TheCpuEnginesFramesAreTimedAfterTheWarmUp) {
  StereoParams params;
  params.num_disparities = 16;
  const ViewerLoopTimes t =
      time_viewer_loop(make_engine, "cpu", synthetic_pair(64, 48), params, false, 2, 12);
  ASSERT_FALSE(t.host_ms.empty());
  EXPECT_LE(t.host_ms.size(), 12u);  // the newest result only, so some may go unseen
  for (double ms : t.host_ms) EXPECT_GE(ms, 0.0);
  EXPECT_GT(t.frames_per_second, 0.0);
}

// As on a loaded machine, where the loop may see one timed frame alone (it reported 0 fps then).
TEST(ViewerLoopTiming, OneTimedFrameStillHasARate) {
  StereoParams params;
  params.num_disparities = 16;
  const ViewerLoopTimes t =
      time_viewer_loop(make_engine, "cpu", synthetic_pair(64, 48), params, false, 2, 1);
  ASSERT_EQ(t.host_ms.size(), 1u);
  EXPECT_GT(t.frames_per_second, 0.0);
}

TEST(ViewerLoopTiming, AFailingFrameEndsTheBenchWithItsError) {
  const EngineFactory failing = [](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new FailingEngine);
  };
  try {
    time_viewer_loop(failing, "failing", synthetic_pair(32, 24), StereoParams{}, false, 1, 5);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("bench --viewer-loop: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the device fell off the bus"), std::string::npos)
        << e.what();
  }
}

// An engine with host memory of its own (counted) that notes which pairs reached it there, with
// the pixels of the pair the bench feeds, so no copy of them was needed on the way in.
class PairCheckingEngine : public test::OwnMemoryEngine {
 public:
  struct Seen {
    int pairs = 0;
    int in_own_memory = 0;
    int with_the_pairs_pixels = 0;
  };
  PairCheckingEngine(std::shared_ptr<test::CountingHostMemory> memory, std::shared_ptr<Seen> seen,
                     StereoPair expected)
      : OwnMemoryEngine(std::move(memory)), seen_(std::move(seen)), expected_(std::move(expected)) {}
  void submit(const FrameRequest& request) override {
    const PairView& pair = request.pair;
    ++seen_->pairs;
    if (in_own_memory(pair)) ++seen_->in_own_memory;
    const size_t bytes = expected_.left.size() * sizeof(Rgb8);
    if (pair.format == PixelFormat::Rgb8 &&
        std::memcmp(pair.left, expected_.left.data(), bytes) == 0 &&
        std::memcmp(pair.right, expected_.right.data(), bytes) == 0) {
      ++seen_->with_the_pairs_pixels;
    }
    OwnMemoryEngine::submit(request);
  }

 private:
  std::shared_ptr<Seen> seen_;
  StereoPair expected_;
};

// The viewer's processing thread hands the capture side a pool of its engine's memory
// (ProcessingThread::pair_pool): every pair reaches the engine in it, with its pixels, from a
// bounded number of recycled blocks.
TEST(ViewerLoopTiming, PairsReachTheEngineInItsOwnPooledMemory) {
  StereoParams params;
  params.num_disparities = 16;
  const StereoPair pair = synthetic_pair(64, 48);
  auto memory = std::make_shared<test::CountingHostMemory>();
  auto seen = std::make_shared<PairCheckingEngine::Seen>();
  const EngineFactory factory = [&](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new PairCheckingEngine(memory, seen, pair));
  };
  constexpr int kWarmup = 2, kRuns = 20;
  const ViewerLoopTimes t =
      time_viewer_loop(factory, "own-memory", pair, params, false, kWarmup, kRuns);
  EXPECT_EQ(seen->pairs, kWarmup + kRuns);
  EXPECT_EQ(seen->in_own_memory, seen->pairs);
  EXPECT_EQ(seen->with_the_pairs_pixels, seen->pairs);
  EXPECT_LE(memory->allocations, kPairPoolBlocks);
  EXPECT_LT(memory->allocations, 2 * (kWarmup + kRuns)) << "blocks are recycled";
  EXPECT_EQ(t.copy_ms.size(), t.host_ms.size());
}

}  // namespace
}  // namespace sv
