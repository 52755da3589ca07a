// Frames as CUDA graphs (cuda/frame_graph.h, issue 21): from the second frame of a shape in its
// slot the CUDA engine captures the frame's compute into one graph. Every such frame must equal
// the same frame run launch by launch (STEREOVIEW_CUDA_GRAPHS=0) bit for bit, and the CPU engine
// where the algorithm is bit-exact, across algorithms, parameter changes mid-stream, temporal
// state carried from frame to frame, and the public device call; the stage timings stay.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/device_buffer.h"
#include "src/core/cpu_engine.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/synthetic_frames.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

std::vector<SyntheticFrame> sequence(int count) { return test::synthetic_sequence(count, 161, 97, 40, 3); }

// A CUDA engine with graphs on or off (the switch is read when the engine is made).
std::unique_ptr<cuda::CudaEngine> engine_with_graphs(bool on) {
  if (on) {
    unsetenv("STEREOVIEW_CUDA_GRAPHS");
  } else {
    setenv("STEREOVIEW_CUDA_GRAPHS", "0", 1);
  }
  auto engine = std::make_unique<cuda::CudaEngine>();
  unsetenv("STEREOVIEW_CUDA_GRAPHS");
  return engine;
}

// The frames streamed through `engine` two in flight, as the CLI and the viewer run them, each
// with its own parameters; the fixed-point disparities in frame order.
std::vector<ImageI16> stream_frames(StereoEngine& engine, const std::vector<SyntheticFrame>& frames,
                                    const std::vector<StereoParams>& params) {
  std::vector<ImageI16> out;
  DisparityResult result;
  for (size_t i = 0; i < frames.size(); ++i) {
    engine.submit(test::request_of(frames[i].left, frames[i].right, params[i]));
    if (engine.frames_in_flight() == 2) {
      engine.collect(result);
      out.push_back(result.disparity_fixed);
    }
  }
  while (engine.frames_in_flight() > 0) {
    engine.collect(result);
    out.push_back(result.disparity_fixed);
  }
  return out;
}

struct GraphCase {
  std::string name;
  StereoParams params;
  bool equals_cpu;  // the algorithm is bit-exact with the CPU engine on this case
};

std::vector<GraphCase> graph_cases() {
  std::vector<GraphCase> cases;
  StereoParams p;
  p.num_disparities = 64;
  cases.push_back({"CensusSgm8Paths", p, true});
  StereoParams four = p;
  four.sgm_paths = 4;
  four.pyramid_levels = 2;
  four.confidence = true;
  four.speckle_size = 20;
  cases.push_back({"CensusSgm4PathsPyramidConfidenceSpeckles", four, true});
  StereoParams temporal = p;
  temporal.temporal_filter = true;
  cases.push_back({"CensusSgmTemporalFilter", temporal, true});
  StereoParams rank = p;
  rank.algorithm = "rank-sgm";
  cases.push_back({"RankSgm", rank, true});
  StereoParams sad = p;
  sad.algorithm = "bm-sad";
  cases.push_back({"BlockMatchingSad", sad, true});
  StereoParams zncc = p;
  zncc.algorithm = "bm-zncc";
  cases.push_back({"BlockMatchingZncc", zncc, false});
  StereoParams esaw = p;
  esaw.algorithm = "esaw";
  esaw.num_disparities = 32;
  cases.push_back({"Esaw", esaw, false});
  return cases;
}

class FrameGraphs : public ::testing::TestWithParam<GraphCase> {};

TEST_P(FrameGraphs, StreamedFramesEqualTheFramesRunLaunchByLaunch) {
  SV_REQUIRE_CUDA_DEVICE();
  const GraphCase& c = GetParam();
  const auto frames = sequence(6);
  const std::vector<StereoParams> params(frames.size(), c.params);
  auto graphs = engine_with_graphs(true);
  auto direct = engine_with_graphs(false);
  const auto with_graphs = stream_frames(*graphs, frames, params);
  const auto launch_by_launch = stream_frames(*direct, frames, params);
  ASSERT_EQ(with_graphs.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(with_graphs[i], launch_by_launch[i]) << i;
  if (c.equals_cpu) {
    CpuEngine cpu;
    const auto reference = stream_frames(cpu, frames, params);
    for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(with_graphs[i], reference[i]) << i;
  }
  // Two slots: each one's first frame runs launch by launch, the other four as graphs, and the
  // second graph of a slot updates the first's executable in place.
  EXPECT_EQ(graphs->graph_counts().launches, 4);
  EXPECT_EQ(graphs->graph_counts().instantiations, 2);
  EXPECT_EQ(direct->graph_counts().launches, 0);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, FrameGraphs, ::testing::ValuesIn(graph_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(FrameGraphsMidStream, ChangedParametersRunLaunchByLaunchOnceThenAsGraphsAgain) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto frames = sequence(9);
  StereoParams a;
  a.num_disparities = 64;
  StereoParams b = a;
  b.p2 = 80;
  b.uniqueness = 0;
  const std::vector<StereoParams> params = {a, a, a, b, b, b, a, a, a};
  auto graphs = engine_with_graphs(true);
  CpuEngine cpu;
  const auto with_graphs = stream_frames(*graphs, frames, params);
  const auto reference = stream_frames(cpu, frames, params);
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(with_graphs[i], reference[i]) << i;
  // Slots alternate A B A B ...: graphs for frames 3 (A), 6 (B) and 9 (A); A's second graph has
  // the shape of its first, so its executable is updated rather than built again.
  EXPECT_EQ(graphs->graph_counts().launches, 3);
  EXPECT_EQ(graphs->graph_counts().instantiations, 2);
}

TEST(FrameGraphsMidStream, ProbedFramesRunLaunchByLaunch) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto frames = sequence(4);
  StereoParams params;
  params.num_disparities = 64;
  auto graphs = engine_with_graphs(true);
  ResultParts probed;
  probed.probe = ProbePixel{80, 50};
  DisparityResult result;
  for (const auto& f : frames) {
    result = graphs->compute(test::request_of(f.left, f.right, params, nullptr, probed));
    ASSERT_TRUE(result.probe.has_value());
  }
  EXPECT_EQ(graphs->graph_counts().launches, 0);
}

TEST(FrameGraphsDeviceCall, RepeatedCallsOnMovingInputEqualTheCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  const auto frames = sequence(4);
  StereoParams params;
  params.num_disparities = 64;
  auto graphs = engine_with_graphs(true);
  CpuEngine cpu;
  const size_t pixels = frames[0].left.size();
  cuda::DeviceBuffer<int16_t> out(pixels);
  for (size_t i = 0; i < frames.size(); ++i) {
    const ImageU8 gray_left = to_gray(frames[i].left), gray_right = to_gray(frames[i].right);
    // Each call gets its own device planes: the graph's pointers change from call to call.
    cuda::DeviceBuffer<uint8_t> left(pixels), right(pixels);
    SV_CUDA_CHECK(cudaMemcpy(left.data(), gray_left.data(), pixels, cudaMemcpyHostToDevice));
    SV_CUDA_CHECK(cudaMemcpy(right.data(), gray_right.data(), pixels, cudaMemcpyHostToDevice));
    PairView pair = PairView::of(gray_left, gray_right);
    pair.memory = MemorySpace::Device;
    pair.left = left.data();
    pair.right = right.data();
    graphs->compute_on_device(pair, params, out.data(), nullptr, nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    ImageI16 got(frames[i].left.width(), frames[i].left.height());
    SV_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), pixels * sizeof(int16_t), cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, cpu.compute(gray_left, gray_right, params).disparity_fixed) << i;
    // The stages are timed inside the graph as they were outside it.
    const StageTimings timings = graphs->last_device_call_timings();
    double sgm = 0.0;
    for (const auto& s : timings.stages) {
      if (s.stage == "sgm") sgm = s.milliseconds;
    }
    EXPECT_GT(sgm, 0.0) << i;
    EXPECT_GE(timings.device_span_ms, sgm) << i;
  }
  EXPECT_EQ(graphs->graph_counts().launches, 3);
  EXPECT_EQ(graphs->graph_counts().instantiations, 1);
}

}  // namespace
}  // namespace sv
