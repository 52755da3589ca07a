// The engine interface (issue 18) on the CPU engine: frames submitted and collected in order from
// its worker, only the parts a request asks for, a bad frame reported for itself while the next
// ones run, the synchronous compute() equal to the stream, and a raw 16-bit or float pair
// rectified with its colour views (FrameRequest::views).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/frame_worker.h"
#include "src/core/synthetic_scene.h"
#include "src/core/remap.h"
#include "tests/support/rectification_maps.h"
#include "tests/support/requests.h"
#include "tests/support/test_images.h"

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

// A raw deep pair of the frames' size: the gray scaled to 16 bits plus low bits of noise, and
// the same as floats with one missing pixel.
struct DeepPair {
  ImageRgb8 views_left, views_right;
  ImageU16 left16, right16;
  ImageF32 leftf, rightf;
};

DeepPair deep_pair() {
  const SyntheticFrame frame = frames(1)[0];
  DeepPair pair{frame.left, frame.right, ImageU16(96, 64), ImageU16(96, 64), ImageF32(96, 64),
                ImageF32(96, 64)};
  const ImageU8 gray_left = to_gray(frame.left), gray_right = to_gray(frame.right);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 96; ++x) {
      pair.left16.at(x, y) = static_cast<uint16_t>(gray_left.at(x, y) * 256 + test::hash_value(x, y, 1));
      pair.right16.at(x, y) = static_cast<uint16_t>(gray_right.at(x, y) * 256 + test::hash_value(x, y, 2));
      pair.leftf.at(x, y) = pair.left16.at(x, y) / 64.0f;
      pair.rightf.at(x, y) = pair.right16.at(x, y) / 64.0f;
    }
  }
  pair.leftf.at(40, 30) = std::numeric_limits<float>::quiet_NaN();
  return pair;
}

bool same_bits(const ImageF32& a, const ImageF32& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(EngineInterface, ARawDeepPairComesBackRectifiedWithItsViews) {
  const DeepPair raw = deep_pair();
  const auto maps = std::make_shared<const RectificationMaps>(test::lens_like_rectification(96, 64));
  DeepPair rectified = raw;
  rectify_pair(*maps, rectified.views_left, rectified.views_right);
  rectify_pair(*maps, rectified.left16, rectified.right16);
  rectify_pair(*maps, rectified.leftf, rectified.rightf);
  ASSERT_NE(rectified.left16, raw.left16);  // the maps do move the planes

  CpuEngine engine;
  FrameRequest sixteen = test::request_of(raw.left16, raw.right16, small_params(), maps);
  sixteen.views = PairView::of(raw.views_left, raw.views_right);
  const DisparityResult a = engine.compute(sixteen);
  EXPECT_EQ(a.rectified_left, rectified.views_left);
  EXPECT_EQ(a.rectified_right, rectified.views_right);
  EXPECT_EQ(a.rectified_left16, rectified.left16);
  EXPECT_EQ(a.rectified_right16, rectified.right16);
  EXPECT_TRUE(a.rectified_leftf.empty());
  EXPECT_EQ(a.disparity_fixed,
            engine.compute(rectified.left16, rectified.right16, small_params()).disparity_fixed);

  FrameRequest floats = test::request_of(raw.leftf, raw.rightf, small_params(), maps);
  floats.views = PairView::of(raw.views_left, raw.views_right);
  const DisparityResult b = engine.compute(floats);
  EXPECT_EQ(b.rectified_left, rectified.views_left);
  EXPECT_TRUE(same_bits(b.rectified_leftf, rectified.leftf));  // NaN where the remap gives NaN
  EXPECT_TRUE(same_bits(b.rectified_rightf, rectified.rightf));
  EXPECT_TRUE(b.rectified_left16.empty());
  EXPECT_EQ(b.disparity_fixed,
            engine.compute(rectified.leftf, rectified.rightf, small_params()).disparity_fixed);

  // Only what is asked for: no views without want.rectified_views.
  sixteen.want.rectified_views = false;
  const DisparityResult c = engine.compute(sixteen);
  EXPECT_TRUE(c.rectified_left.empty());
  EXPECT_TRUE(c.rectified_left16.empty());
  EXPECT_EQ(c.disparity_fixed, a.disparity_fixed);
}

TEST(EngineInterface, ViewsThatDoNotBelongToARawDeepPairAreRefused) {
  const DeepPair raw = deep_pair();
  const auto maps = std::make_shared<const RectificationMaps>(test::lens_like_rectification(96, 64));
  CpuEngine engine;
  const auto refused = [&](FrameRequest request, const std::string& says) {
    try {
      engine.compute(request);
      ADD_FAILURE() << "accepted: " << says;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  FrameRequest request = test::request_of(raw.left16, raw.right16, small_params(), maps);
  const ImageRgb8 narrow(94, 64);
  request.views = PairView::of(narrow, narrow);
  refused(request, "the views are 94x64");
  request.views = PairView::of(raw.views_left, raw.views_right);
  request.rectification = nullptr;
  refused(request, "a pair to rectify only");
  FrameRequest colour = test::request_of(raw.views_left, raw.views_right, small_params(), maps);
  colour.views = PairView::of(raw.views_left, raw.views_right);
  refused(colour, "16-bit or float pairs only");
  const ImageU8 gray(96, 64);
  request = test::request_of(raw.left16, raw.right16, small_params(), maps);
  request.views = PairView::of(gray, gray);
  refused(request, "colour images");
  // The engine goes on with a good request.
  request.views = PairView::of(raw.views_left, raw.views_right);
  EXPECT_EQ(engine.compute(request).rectified_left.width(), 96);
}

}  // namespace
}  // namespace sv
