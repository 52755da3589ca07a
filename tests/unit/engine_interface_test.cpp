// The engine interface (issue 18) on the CPU engine: frames submitted and collected in order from
// its worker, only the parts a request asks for, a bad frame reported for itself while the next
// ones run, and the synchronous compute() equal to the stream.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/frame_worker.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

StereoParams small_params() {
  StereoParams params;
  params.num_disparities = 32;
  return params;
}

std::vector<SyntheticFrame> frames(int count) {
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  config.max_disparity = 24;
  const SyntheticScene scene(config);
  std::vector<SyntheticFrame> out;
  for (int i = 0; i < count; ++i) out.push_back(scene.render(i * 4));
  return out;
}

TEST(EngineInterface, CpuFramesComeBackInTheOrderTheyWereSubmitted) {
  const auto pairs = frames(5);
  CpuEngine engine;
  std::vector<ImageI16> expected;
  for (const auto& f : pairs) expected.push_back(engine.compute(f.left, f.right, small_params()).disparity_fixed);
  ASSERT_NE(expected[0], expected[4]);  // the frames differ, so order shows

  for (const auto& f : pairs) engine.submit(test::request_of(f.left, f.right, small_params()));
  EXPECT_EQ(engine.frames_in_flight(), 5);
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(engine.collect().disparity_fixed, expected[i]) << i;
  }
  EXPECT_EQ(engine.frames_in_flight(), 0);
  EXPECT_THROW(engine.collect(), RuntimeError);
}

TEST(EngineInterface, CpuInputIsCopiedAtSubmit) {
  const auto pairs = frames(2);
  CpuEngine engine;
  const ImageI16 expected = engine.compute(pairs[0].left, pairs[0].right, small_params()).disparity_fixed;
  ImageRgb8 left = pairs[0].left, right = pairs[0].right;
  engine.submit(test::request_of(left, right, small_params()));
  left = pairs[1].left;  // the caller reuses its buffers at once
  right = pairs[1].right;
  EXPECT_EQ(engine.collect().disparity_fixed, expected);
}

TEST(EngineInterface, CpuReturnsOnlyWhatTheRequestAsksFor) {
  const auto pairs = frames(1);
  CpuEngine engine;
  StereoParams params = small_params();
  params.confidence = true;
  const DisparityResult all = engine.compute(test::request_of(pairs[0].left, pairs[0].right, params));
  EXPECT_FALSE(all.disparity.empty());
  EXPECT_FALSE(all.disparity_fixed.empty());
  EXPECT_FALSE(all.confidence.empty());

  const DisparityResult fixed = engine.compute(
      test::request_of(pairs[0].left, pairs[0].right, params, nullptr, ResultParts::fixed_only()));
  EXPECT_TRUE(fixed.disparity.empty());
  EXPECT_TRUE(fixed.confidence.empty());
  EXPECT_EQ(fixed.disparity_fixed, all.disparity_fixed);
  EXPECT_EQ(fixed.width, 96);
  EXPECT_EQ(fixed.height, 64);

  ResultParts floats;
  floats.fixed = false;
  floats.confidence = false;
  const DisparityResult only_float = engine.compute(test::request_of(pairs[0].left, pairs[0].right, params, nullptr, floats));
  EXPECT_TRUE(only_float.disparity_fixed.empty());
  EXPECT_EQ(only_float.disparity, all.disparity);
}

TEST(EngineInterface, ABadFrameIsReportedForItselfAndTheNextOnesRun) {
  const auto pairs = frames(3);
  CpuEngine engine;
  const ImageI16 expected = engine.compute(pairs[2].left, pairs[2].right, small_params()).disparity_fixed;
  const ImageRgb8 narrow(50, 64);
  engine.submit(test::request_of(pairs[0].left, pairs[0].right, small_params()));
  engine.submit(test::request_of(pairs[1].left, narrow, small_params()));  // sizes differ
  StereoParams odd = small_params();
  odd.num_disparities = 0;
  engine.submit(test::request_of(pairs[1].left, pairs[1].right, odd));  // bad parameters
  engine.submit(test::request_of(pairs[2].left, pairs[2].right, small_params()));
  EXPECT_NO_THROW(engine.collect());
  try {
    engine.collect();
    ADD_FAILURE() << "a pair of two sizes was matched";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("96x64 vs 50x64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(engine.collect(), InputError);
  EXPECT_EQ(engine.collect().disparity_fixed, expected);
}

TEST(EngineInterface, ComputeWhileFramesAreInFlightIsRefused) {
  const auto pairs = frames(1);
  CpuEngine engine;
  engine.submit(test::request_of(pairs[0].left, pairs[0].right, small_params()));
  EXPECT_THROW(engine.compute(pairs[0].left, pairs[0].right, small_params()), RuntimeError);
  EXPECT_NO_THROW(engine.collect());
}

TEST(EngineInterface, DevicePairsAreRefusedByTheCpuEngine) {
  CpuEngine engine;
  EXPECT_FALSE(engine.accepts_device_input());
  const ImageU8 image(16, 16);
  FrameRequest request = test::request_of(image, image, small_params());
  request.pair.memory = MemorySpace::Device;
  engine.submit(request);
  EXPECT_THROW(engine.collect(), InputError);
}

TEST(EngineInterface, AnEngineWithFramesQueuedIsDestroyedCleanly) {
  const auto pairs = frames(3);
  auto engine = std::make_unique<CpuEngine>();
  for (const auto& f : pairs) engine->submit(test::request_of(f.left, f.right, small_params()));
  engine.reset();  // drops what was not computed, waits for the frame computing
  SUCCEED();
}

// collect() says how long it waited for the worker (StageTimings::collect_wait_ms), so a frame
// loop can leave the engine's compute out of its host time: about the frame's compute when
// collected at once, nothing when the frame was ready.
TEST(EngineInterface, CollectSaysHowLongItWaitedForTheWorker) {
  using namespace std::chrono_literals;
  FrameWorker worker("slow", [](HostPair&, const FrameRequest&) {
    std::this_thread::sleep_for(80ms);
    return DisparityResult();
  });
  const ImageU8 image(8, 4, 1);
  const FrameRequest request = test::request_of(image, image, small_params());
  DisparityResult result;
  const auto start = std::chrono::steady_clock::now();
  worker.submit(request);
  worker.collect(result);
  const double call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(result.timings.collect_wait_ms, 60.0);
  EXPECT_LE(result.timings.collect_wait_ms, call_ms);

  worker.submit(request);
  std::this_thread::sleep_for(300ms);  // the frame is ready long before it is collected
  worker.collect(result);
  EXPECT_LT(result.timings.collect_wait_ms, 40.0);
}

}  // namespace
}  // namespace sv
