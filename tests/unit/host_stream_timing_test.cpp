// bench --host-to-host's frame loop (issue 18): the pair fed as a camera source gives it (in the
// engine's own host memory) or staged (ordinary host images), the same disparities either way as
// a plain compute, a calibrated camera's raw colour pairs (--rectify) rectified by the engine
// with their views returned, and where each frame's time goes from the stage timings the engine
// returns.
#include "src/app/host_stream_timing.h"

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <sstream>
#include <vector>

#include "src/app/engine_factory.h"
#include "src/core/cpu_engine.h"
#include "src/core/remap.h"
#include "tests/support/counting_host_memory.h"
#include "tests/support/fake_engine.h"
#include "tests/support/own_memory_engine.h"
#include "tests/support/rectification_maps.h"
#include "tests/support/synthetic_frames.h"

#ifdef STEREOVIEW_HAS_CUDA
#include "cuda/device_info.h"
#endif

namespace sv {
namespace {

struct GrayPair {
  ImageU8 left, right;
};

GrayPair synthetic_gray_pair(int width, int height) {
  const SyntheticFrame frame = test::render_synthetic(width, height, 12, 0);
  return {to_gray(frame.left), to_gray(frame.right)};
}

StereoParams small_params() {
  StereoParams params;
  params.num_disparities = 16;
  return params;
}

// What the bench's loop collected, frame by frame, against the expected disparity.
struct Collected {
  int frames = 0, equal = 0, with_float = 0, host_copied = 0;
  HostStreamTimes times;
};

// The bench's loop on `engine` with `input`, every collected result compared with `expected`.
Collected stream_and_compare(StereoEngine& engine, const GrayPair& pair, const StereoParams& params,
                             StreamInput input, int warmup, int runs, const ImageI16& expected) {
  Collected c;
  c.times = time_host_stream(engine, pair.left, pair.right, params, input, warmup, runs,
                             [&](const DisparityResult& result) {
                               ++c.frames;
                               c.equal += result.disparity_fixed == expected ? 1 : 0;
                               c.with_float += result.disparity.empty() ? 0 : 1;
                               c.host_copied += result.timings.host_copy_ms > 0.0 ? 1 : 0;
                             });
  return c;
}

class HostStreamInputs : public ::testing::TestWithParam<StreamInput> {};

// Every frame the bench collects, warm-up, streamed and alone, is the reference engine's plain
// compute of the pair, bit for bit, and carries only the fixed point it asked for.
TEST_P(HostStreamInputs, TheCpuEnginesFramesEqualAPlainCompute) {
  const GrayPair pair = synthetic_gray_pair(96, 64);
  const StereoParams params = small_params();
  const ImageI16 expected = CpuEngine().compute(pair.left, pair.right, params).disparity_fixed;
  int valid = 0;
  for (int y = 0; y < expected.height(); ++y) {
    for (int x = 0; x < expected.width(); ++x) valid += expected.at(x, y) > 0 ? 1 : 0;
  }
  ASSERT_GT(valid, static_cast<int>(expected.size() / 2)) << "a scene the matcher finds";

  std::ostringstream notices;
  const std::unique_ptr<StereoEngine> engine = make_engine("cpu", notices);
  constexpr int kWarmup = 2, kRuns = 5;
  const Collected c = stream_and_compare(*engine, pair, params, GetParam(), kWarmup, kRuns, expected);
  EXPECT_EQ(c.frames, kWarmup + 2 * kRuns);
  EXPECT_EQ(c.equal, c.frames);
  EXPECT_EQ(c.with_float, 0);
  const HostStreamTimes& t = c.times;
  EXPECT_EQ(t.stream_stages_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(t.latency_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(t.submit_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(t.after_wait_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_GT(t.frames_per_second, 0.0);
  // A host engine has no transfers and no device span to split.
  EXPECT_TRUE(t.stream_upload_ms.empty());
  EXPECT_TRUE(t.download_ms.empty());
  EXPECT_TRUE(t.span_gaps_ms.empty());
  for (size_t i = 0; i < t.latency_ms.size(); ++i) {
    EXPECT_GT(t.device_ms[i], 0.0);
    EXPECT_LE(t.submit_ms[i] + t.after_wait_ms[i], t.latency_ms[i]);
  }
}

INSTANTIATE_TEST_SUITE_P(BothInputs, HostStreamInputs,
                         ::testing::Values(StreamInput::EngineMemory, StreamInput::Staged),
                         [](const ::testing::TestParamInfo<StreamInput>& info) {
                           return info.param == StreamInput::EngineMemory ? "EngineMemory"
                                                                          : "Staged";
                         });

#ifdef STEREOVIEW_HAS_CUDA
// On the GPU machine: the CUDA engine's frames through the bench's loop equal the CPU reference
// bit for bit with either input; the pair in the engine's pinned memory goes up with no host
// copy, the staged pair is copied every frame, and every frame reports its transfers and span.
TEST_P(HostStreamInputs, TheCudaEnginesFramesEqualTheCpuReference) {
  const cuda::DeviceInfo device = cuda::query_device();
  if (!device.available) GTEST_SKIP() << "needs a CUDA device: " << device.reason;
  const GrayPair pair = synthetic_gray_pair(333, 200);
  StereoParams params;
  params.num_disparities = 64;
  const ImageI16 expected = CpuEngine().compute(pair.left, pair.right, params).disparity_fixed;
  std::ostringstream notices;
  const std::unique_ptr<StereoEngine> engine = make_engine("cuda", notices);
  ASSERT_TRUE(engine->host_memory()->pinned());
  constexpr int kWarmup = 2, kRuns = 6;
  const Collected c = stream_and_compare(*engine, pair, params, GetParam(), kWarmup, kRuns, expected);
  EXPECT_EQ(c.frames, kWarmup + 2 * kRuns);
  EXPECT_EQ(c.equal, c.frames);
  EXPECT_EQ(c.with_float, 0);
  EXPECT_EQ(c.host_copied, GetParam() == StreamInput::Staged ? c.frames : 0);
  EXPECT_EQ(c.times.stream_upload_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(c.times.stream_download_ms.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(c.times.span_gaps_ms.size(), static_cast<size_t>(kRuns));
}
#endif

// --rectify: every frame the bench collects from a raw colour pair carries the rectified views
// (the host remap's, bit for bit) and the disparity of the rectified pair, on `engine_kind`.
void expect_rectified_frames(const std::string& engine_kind, StreamInput input, int width,
                             int height, int disparities) {
  const SyntheticFrame raw = test::render_synthetic(width, height, disparities / 4, 1);
  const auto maps =
      std::make_shared<const RectificationMaps>(test::lens_like_rectification(width, height));
  ImageRgb8 left = raw.left, right = raw.right;
  rectify_pair(*maps, left, right);
  ASSERT_NE(left, raw.left);  // the maps do move the views
  StereoParams params;
  params.num_disparities = disparities;
  const ImageI16 expected = CpuEngine().compute(left, right, params).disparity_fixed;
  std::ostringstream notices;
  const std::unique_ptr<StereoEngine> engine = make_engine(engine_kind, notices);
  constexpr int kWarmup = 1, kRuns = 4;
  int frames = 0, equal = 0, views = 0, with_float = 0;
  time_host_stream(*engine, raw.left, raw.right, maps, params, input, kWarmup, kRuns,
                   [&](const DisparityResult& result) {
                     ++frames;
                     equal += result.disparity_fixed == expected ? 1 : 0;
                     views += result.rectified_left == left && result.rectified_right == right;
                     with_float += result.disparity.empty() ? 0 : 1;
                   });
  EXPECT_EQ(frames, kWarmup + 2 * kRuns);
  EXPECT_EQ(equal, frames);
  EXPECT_EQ(views, frames);
  EXPECT_EQ(with_float, 0);
}

TEST_P(HostStreamInputs, RawColourPairsComeBackRectifiedWithTheirViews) {
  expect_rectified_frames("cpu", GetParam(), 96, 64, 16);
}

#ifdef STEREOVIEW_HAS_CUDA
// On the GPU machine: the CUDA engine remaps the raw pairs on the GPU and downloads the views.
TEST_P(HostStreamInputs, TheCudaEngineRectifiesRawColourPairsAsTheCpuDoes) {
  const cuda::DeviceInfo device = cuda::query_device();
  if (!device.available) GTEST_SKIP() << "needs a CUDA device: " << device.reason;
  expect_rectified_frames("cuda", GetParam(), 333, 200, 64);
}
#endif

// An engine with host memory of its own (counted) that notes where each submitted pair lies.
class PlaneNotingEngine : public test::OwnMemoryEngine {
 public:
  struct Seen {
    int pairs = 0;
    int in_own_memory = 0;
    int in_blocks = 0;
    std::vector<const void*> left_planes;
  };
  PlaneNotingEngine(std::shared_ptr<test::CountingHostMemory> memory, std::shared_ptr<Seen> seen)
      : OwnMemoryEngine(std::move(memory)), seen_(std::move(seen)) {}
  void submit(const FrameRequest& request) override {
    const PairView& pair = request.pair;
    ++seen_->pairs;
    seen_->left_planes.push_back(pair.left);
    if (pair.left_block || pair.right_block) ++seen_->in_blocks;
    if (in_own_memory(pair)) ++seen_->in_own_memory;
    OwnMemoryEngine::submit(request);
  }

 private:
  std::shared_ptr<Seen> seen_;
};

// The default input is the pair as a camera source gives it: every frame's pair lies in the same
// two blocks of the engine's own memory, written once (two allocations for the whole run).
TEST(HostStreamTiming, EngineMemoryInputSubmitsTheSameTwoBlocksOfTheEnginesMemory) {
  const GrayPair pair = synthetic_gray_pair(64, 48);
  auto memory = std::make_shared<test::CountingHostMemory>();
  auto seen = std::make_shared<PlaneNotingEngine::Seen>();
  PlaneNotingEngine engine(memory, seen);
  constexpr int kWarmup = 1, kRuns = 4;
  time_host_stream(engine, pair.left, pair.right, small_params(), StreamInput::EngineMemory,
                   kWarmup, kRuns);
  EXPECT_EQ(seen->pairs, kWarmup + 2 * kRuns);
  EXPECT_EQ(seen->in_own_memory, seen->pairs);
  EXPECT_EQ(memory->allocations, 2);
  ASSERT_FALSE(seen->left_planes.empty());
  for (const void* plane : seen->left_planes) EXPECT_EQ(plane, seen->left_planes.front());
  EXPECT_NE(seen->left_planes.front(), static_cast<const void*>(pair.left.data()));
  EXPECT_EQ(memory->frees, 2) << "the blocks go back once the run is over";
}

// --staged-input: the caller's own images, in no block of any pool, so the engine stages them.
TEST(HostStreamTiming, StagedInputSubmitsTheCallersOwnImages) {
  const GrayPair pair = synthetic_gray_pair(64, 48);
  auto memory = std::make_shared<test::CountingHostMemory>();
  auto seen = std::make_shared<PlaneNotingEngine::Seen>();
  PlaneNotingEngine engine(memory, seen);
  time_host_stream(engine, pair.left, pair.right, small_params(), StreamInput::Staged, 1, 4);
  EXPECT_EQ(seen->pairs, 9);
  EXPECT_EQ(seen->in_blocks, 0);
  EXPECT_EQ(memory->allocations, 0);
  for (const void* plane : seen->left_planes) {
    EXPECT_EQ(plane, static_cast<const void*>(pair.left.data()));
  }
}

// An engine that reports a device's stage timings: upload, two compute stages, the result's
// device copy and the download, in a span longer than their sum.
class DeviceTimingsEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "device-timings"; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams&) override {
    DisparityResult result;
    result.disparity_fixed = ImageI16(left.width(), left.height(), 16);
    for (const auto& [stage, ms] : {std::pair<const char*, double>{"upload", 0.25},
                                    {"census", 0.5},
                                    {"sgm", 1.5},
                                    {"results", 0.0625},
                                    {"download", 0.375}}) {
      result.timings.add(stage, ms);
    }
    result.timings.device_span_ms = 3.0;
    return result;
  }
};

TEST(HostStreamTiming, EachFramesTimeIsSplitIntoItsStagesTransfersAndGaps) {
  const GrayPair pair = synthetic_gray_pair(32, 24);
  DeviceTimingsEngine engine;
  const HostStreamTimes t =
      time_host_stream(engine, pair.left, pair.right, small_params(), StreamInput::Staged, 0, 3);
  ASSERT_EQ(t.stream_stages_ms.size(), 3u);
  for (double ms : t.stream_stages_ms) EXPECT_DOUBLE_EQ(ms, 2.0);
  EXPECT_EQ(t.stream_upload_ms, std::vector<double>(3, 0.25));
  EXPECT_EQ(t.stream_download_ms, std::vector<double>(3, 0.375));
  EXPECT_EQ(t.device_ms, std::vector<double>(3, 2.0));
  EXPECT_EQ(t.upload_ms, std::vector<double>(3, 0.25));
  EXPECT_EQ(t.results_ms, std::vector<double>(3, 0.0625));
  EXPECT_EQ(t.download_ms, std::vector<double>(3, 0.375));
  // 3.0 - (0.25 + 0.5 + 1.5 + 0.0625 + 0.375)
  ASSERT_EQ(t.span_gaps_ms.size(), 3u);
  for (double ms : t.span_gaps_ms) EXPECT_DOUBLE_EQ(ms, 0.3125);
}

}  // namespace
}  // namespace sv
