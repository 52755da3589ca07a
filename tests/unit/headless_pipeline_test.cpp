// The headless run with two frames in flight (issue 18): its outputs are those of the same frames
// matched one at a time, in frame order; a frame that fails is reported for itself while the
// ones after it are written; a frame limit and Ctrl-C lose none of the frames in flight; and the
// summary's host time leaves out what collect() waited for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/app/frame_pipeline_queue.h"
#include "src/app/headless_runner.h"
#include "src/app/stop_signals.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/evaluation.h"
#include "src/core/image_formats.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/counting_host_memory.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

constexpr int kWidth = 64, kHeight = 48;

StereoParams small_params() {
  StereoParams params;
  params.num_disparities = 16;
  return params;
}

// The CPU reference's disparity with a stage time that does not vary, so the frame lines can be
// compared; it notes how many frames were in flight at each submit and, on request, fails a
// frame or raises a signal as a frame is submitted (counted from 0).
class RecordingEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "fake"; }
  void submit(const FrameRequest& request) override {
    const int number = submitted_++;
    if (number == signal_at) std::raise(SIGINT);
    const PairView& pair = request.pair;
    const bool in_own_memory =
        pair.left_block && pair.right_block && &pair.left_block->memory() == memory.get() &&
        &pair.right_block->memory() == memory.get() && pair.left == pair.left_block->data() &&
        pair.right == pair.right_block->data();
    *pairs_in_own_memory += in_own_memory ? 1 : 0;
    FakeEngine::submit(request);
    *max_in_flight = std::max(*max_in_flight, frames_in_flight());
  }
  DisparityResult match(const ImageU8& left, const ImageU8& right,
                        const StereoParams& params) override {
    if (submitted_ - 1 == fail_at) throw InputError("this frame is bad");
    DisparityResult result = cpu_.compute(left, right, params);
    result.timings = StageTimings();
    result.timings.add("match", 1.5);
    return result;
  }

  std::shared_ptr<HostMemory> host_memory() const override { return memory; }

  int fail_at = -1;
  int signal_at = -1;
  // Its host memory, counted, and the pairs that arrived in blocks of it; both outlive the engine.
  std::shared_ptr<test::CountingHostMemory> memory = std::make_shared<test::CountingHostMemory>();
  std::shared_ptr<int> pairs_in_own_memory = std::make_shared<int>(0);
  // Outlives the engine, which the run destroys before it returns.
  std::shared_ptr<int> max_in_flight = std::make_shared<int>(0);

 private:
  CpuEngine cpu_;
  int submitted_ = 0;
};

std::string fresh_dir(const std::string& name) {
  const std::string dir =
      ::testing::TempDir() + "headless_pipeline_" + name + "_" + std::to_string(::getpid());
  std::system(("rm -rf '" + dir + "'").c_str());
  return dir;
}

CliOptions synthetic_run(int frames, const std::string& out_dir) {
  CliOptions options;
  options.headless = true;
  options.engine = "fake";
  options.width = kWidth;
  options.height = kHeight;
  options.frames = frames;
  options.frames_given = true;
  options.params = small_params();
  options.out_dir = out_dir;
  return options;
}

struct RunOutput {
  int code = 0;
  std::string out, err;
  int engines_made = 0;
  int max_in_flight = 0;  // of the last engine made
  std::shared_ptr<test::CountingHostMemory> memory;  // of the last engine made
  int pairs_in_own_memory = 0;                       // submitted to the last engine made
};

RunOutput run(const CliOptions& options, const std::function<void(RecordingEngine&)>& setup = {}) {
  RunOutput r;
  std::shared_ptr<int> max_in_flight, pairs;
  const EngineFactory factory = [&](const std::string&, std::ostream&) {
    auto engine = std::make_unique<RecordingEngine>();
    if (setup) setup(*engine);
    max_in_flight = engine->max_in_flight;
    r.memory = engine->memory;
    pairs = engine->pairs_in_own_memory;
    ++r.engines_made;
    return std::unique_ptr<StereoEngine>(std::move(engine));
  };
  std::ostringstream out, err;
  r.code = run_headless(options, out, err, factory);
  r.out = out.str();
  r.err = err.str();
  if (max_in_flight) r.max_in_flight = *max_in_flight;
  if (pairs) r.pairs_in_own_memory = *pairs;
  return r;
}

// The frames one at a time, as the runner matched them before it kept two in flight: the scene's
// frame n, matched alone, evaluated against its own ground truth.
struct Expected {
  std::vector<std::string> lines;  // "frame n: ..."
  std::vector<ImageF32> disparities;
};
EvaluationMasks masks_of(const SyntheticFrame& f) {
  EvaluationMasks masks;
  masks.nonocc = f.nonoccluded_mask;
  masks.disc = f.discontinuity_mask;
  return masks;
}

Expected one_at_a_time(const CliOptions& options, int frames) {
  SyntheticSceneConfig config;
  config.width = options.width;
  config.height = options.height;
  config.seed = options.seed;
  config.max_disparity = options.params.min_disparity + options.params.num_disparities;
  const SyntheticScene scene(config);
  CpuEngine cpu;
  Expected expected;
  for (int n = 0; n < frames; ++n) {
    const SyntheticFrame f = scene.render(n);
    const ImageF32 disparity = cpu.compute(f.left, f.right, options.params).disparity;
    const DisparityEvaluation eval = evaluate_disparity(disparity, f.ground_truth, masks_of(f));
    const RegionErrors* region = eval.find("nonocc");
    std::ostringstream line;
    line << "frame " << n << ": " << std::fixed << std::setprecision(1) << 1.5 << " ms, bad-1 "
         << region->region << " " << std::setprecision(2) << region->bad_1 << "%, density "
         << eval.density << "%";
    expected.lines.push_back(line.str());
    expected.disparities.push_back(disparity);
  }
  return expected;
}

std::vector<std::string> frame_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("frame ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

std::string pfm_path(const std::string& dir, int n) {
  char name[40];
  std::snprintf(name, sizeof name, "/disparity_%06d.pfm", n);
  return dir + name;
}

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

bool same_bits(const ImageF32& a, const ImageF32& b) {
  if (!a.same_size(b.width(), b.height())) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (!(x == y || (std::isinf(x) && std::isinf(y)))) return false;
  }
  return true;
}

TEST(HeadlessPipeline, TwoFramesInFlightGiveTheOutputsOfOneAtATimeInOrder) {
  const std::string dir = fresh_dir("order");
  const CliOptions options = synthetic_run(6, dir);
  const RunOutput r = run(options);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.engines_made, 1);
  EXPECT_EQ(r.max_in_flight, 2) << "the next pair is submitted before a frame is collected";
  const Expected expected = one_at_a_time(options, 6);
  EXPECT_NE(expected.lines[0], expected.lines[5]);  // the frames differ, so a mix-up shows
  EXPECT_EQ(frame_lines(r.out), expected.lines) << r.out;
  for (int n = 0; n < 6; ++n) {
    EXPECT_TRUE(same_bits(read_pfm(pfm_path(dir, n)), expected.disparities[n])) << "frame " << n;
  }
  EXPECT_NE(r.out.find("done: 6 frames\n"), std::string::npos) << r.out;
}

// The pairs are drawn into blocks of the engine's own host memory (StereoEngine::host_memory: the
// CUDA engine's pinned memory, which it uploads from without a copy), recycled through a bounded
// pool: after the warm-up no frame allocates, and the disparities are those of one at a time.
TEST(HeadlessPipeline, PairsInTheEnginesOwnPooledMemoryGiveTheSameDisparities) {
  const std::string dir = fresh_dir("pooled");
  constexpr int kFrames = 12;
  const CliOptions options = synthetic_run(kFrames, dir);
  const RunOutput r = run(options);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.pairs_in_own_memory, kFrames) << "every pair reached the engine in its memory";
  ASSERT_TRUE(r.memory);
  EXPECT_LE(r.memory->allocations, kPairPoolBlocks) << "blocks are recycled, not made per frame";
  EXPECT_LT(r.memory->allocations, 2 * kFrames);
  EXPECT_EQ(r.memory->frees, r.memory->allocations) << "all given back when the run ends";
  const Expected expected = one_at_a_time(options, kFrames);
  for (int n = 0; n < kFrames; ++n) {
    EXPECT_TRUE(same_bits(read_pfm(pfm_path(dir, n)), expected.disparities[n])) << "frame " << n;
  }
  // Said in words a user knows (issue 39: "copying pixels" was jargon).
  EXPECT_NE(r.out.find("; of it, copying images in memory: median "), std::string::npos) << r.out;
}

TEST(HeadlessPipeline, ABadFrameIsReportedForItselfAndTheFramesAfterItAreWritten) {
  const std::string dir = fresh_dir("bad_frame");
  const CliOptions options = synthetic_run(5, dir);
  const RunOutput r = run(options, [](RecordingEngine& e) { e.fail_at = 2; });
  EXPECT_EQ(r.code, 1) << "a failed frame shows in the exit status";
  EXPECT_EQ(r.err, "error: frame 2: this frame is bad\n");
  const Expected expected = one_at_a_time(options, 5);
  std::vector<std::string> lines = expected.lines;
  lines.erase(lines.begin() + 2);
  EXPECT_EQ(frame_lines(r.out), lines) << r.out;
  EXPECT_FALSE(file_exists(pfm_path(dir, 2)));
  for (const int n : {0, 1, 3, 4}) {
    EXPECT_TRUE(same_bits(read_pfm(pfm_path(dir, n)), expected.disparities[n])) << "frame " << n;
  }
  EXPECT_NE(r.out.find("done: 4 frames, 1 failed\n"), std::string::npos) << r.out;
}

TEST(HeadlessPipeline, AFrameLimitWritesEveryFrameInFlight) {
  for (const int frames : {1, 2, 3}) {
    const std::string dir = fresh_dir("limit" + std::to_string(frames));
    const CliOptions options = synthetic_run(frames, dir);
    const RunOutput r = run(options);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(frame_lines(r.out), one_at_a_time(options, frames).lines) << r.out;
    for (int n = 0; n < frames; ++n) EXPECT_TRUE(file_exists(pfm_path(dir, n))) << n;
    EXPECT_FALSE(file_exists(pfm_path(dir, frames)));
  }
}

// Ctrl-C as frame 3 is submitted: no pair is read after it, and frames 0..3, two of them still in
// the engine, are all written. In a child process: the stop flag cannot be cleared.
TEST(HeadlessPipeline, CtrlCWritesTheFramesInFlightBeforeTheRunEnds) {
  const std::string dir = fresh_dir("ctrl_c");
  const CliOptions options = synthetic_run(10, dir);
  EXPECT_EXIT(
      {
        install_stop_signal_handlers();
        const RunOutput r = run(options, [](RecordingEngine& e) { e.signal_at = 3; });
        std::fputs(r.err.c_str(), stderr);
        std::exit(r.code);
      },
      ::testing::ExitedWithCode(130), "interrupted by SIGINT after 4 frames");
  const Expected expected = one_at_a_time(options, 4);
  for (int n = 0; n < 4; ++n) {
    ASSERT_TRUE(file_exists(pfm_path(dir, n))) << n;
    EXPECT_TRUE(same_bits(read_pfm(pfm_path(dir, n)), expected.disparities[n])) << n;
  }
  EXPECT_FALSE(file_exists(pfm_path(dir, 4)));
}

// Spends `submit_ms` in submit() and blocks `wait_ms` in collect() for a "device" (its frames
// have a device span): the summary's host time is the first, not the second.
class WaitingEngine : public RecordingEngine {
 public:
  void submit(const FrameRequest& request) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
    RecordingEngine::submit(request);
  }
  void collect(DisparityResult& result) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(80));
    RecordingEngine::collect(result);
    result.timings.device_span_ms = 80.0;
    result.timings.collect_wait_ms = 80.0;
  }
  using StereoEngine::collect;
};

TEST(HeadlessPipeline, TheSummarysHostTimeLeavesOutTheWaitForTheEngine) {
  CliOptions options = synthetic_run(3, "");
  const EngineFactory factory = [](const std::string&, std::ostream&) {
    return std::unique_ptr<StereoEngine>(new WaitingEngine());
  };
  std::ostringstream out, err;
  ASSERT_EQ(run_headless(options, out, err, factory), 0) << err.str();
  const std::string text = out.str();
  const std::string label = "host time per frame outside the GPU: median ";
  const size_t at = text.find(label);
  ASSERT_NE(at, std::string::npos) << text;
  const double median = std::atof(text.c_str() + at + label.size());
  EXPECT_GE(median, 15.0) << text;
  EXPECT_LT(median, 60.0) << "the 80 ms wait for the engine is not host time: " << text;
}

// The CPU reference's own compute is not host time: its frames' host time stays far below it.
TEST(HeadlessPipeline, TheCpuEnginesComputeIsNotCountedAsHostTime) {
  CliOptions options = synthetic_run(3, "");
  options.params.num_disparities = 64;
  options.width = 256;
  options.height = 192;
  options.engine = "reference";
  std::ostringstream out, err;
  ASSERT_EQ(run_headless(options, out, err), 0) << err.str();
  const std::string text = out.str();
  const std::string label = "host time per frame outside the engine: median ";
  const size_t at = text.find(label);
  ASSERT_NE(at, std::string::npos) << text;
  const double median = std::atof(text.c_str() + at + label.size());
  const size_t frame = text.find("frame 1: ");
  ASSERT_NE(frame, std::string::npos) << text;
  const double compute = std::atof(text.c_str() + frame + 9);
  EXPECT_LT(median, compute / 4) << text;
}

}  // namespace
}  // namespace sv
