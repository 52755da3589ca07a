// The CUDA engine's pixel probe (cuda/pixel_probe.h, issue 22) against the CPU reference's: on
// the synthetic scene, for a few pixels, census-SGM's probe (the fast SGM: D64 / D128, 4 and 8
// paths; the general stages under a pyramid) equals the CPU probe field for field, and the
// probe's final value is the GPU result's. The other algorithms' curves equal the CPU's
// (integer costs) or lie within the float stages' tolerance, and asking for a probe does not
// change the result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cuda/cuda_engine.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/probe_compare.h"
#include "tests/support/synthetic_frames.h"

namespace sv {
namespace {

struct GrayPair {
  ImageU8 left, right;
};

GrayPair scene(int width, int height, int max_disparity) {
  const SyntheticFrame frame = test::render_synthetic(width, height, max_disparity, 0);
  return {to_gray(frame.left), to_gray(frame.right)};
}

DisparityResult probe_frame(StereoEngine& engine, const GrayPair& pair, const StereoParams& params,
                            std::optional<ProbePixel> pixel) {
  FrameRequest request;
  request.pair = PairView::of(pair.left, pair.right);
  request.params = params;
  request.want = ResultParts::fixed_only();
  request.want.probe = pixel;
  return engine.compute(request);
}

const std::vector<ProbePixel> kPixels = {{0, 0}, {3, 60}, {100, 50}, {161, 77}, {199, 119},
                                         {150, 10}};

struct Case {
  std::string name;
  StereoParams params;
};

std::vector<Case> census_sgm_cases() {
  std::vector<Case> cases;
  for (const int disparities : {64, 128}) {
    for (const int paths : {4, 8}) {
      StereoParams p;
      p.num_disparities = disparities;
      p.sgm_paths = paths;
      cases.push_back({"D" + std::to_string(disparities) + " " + std::to_string(paths) + " paths", p});
    }
  }
  StereoParams filters;
  filters.uniqueness = 30;
  filters.median = 5;
  filters.speckle_size = 40;
  filters.fill_holes = false;
  cases.push_back({"uniqueness 30, median 5, speckles, no fill", filters});
  StereoParams pyramid;
  pyramid.pyramid_levels = 1;  // per-pixel ranges: the general cost, SGM and selection
  cases.push_back({"pyramid 1", pyramid});
  StereoParams confident;
  confident.confidence_threshold = 0.5f;
  cases.push_back({"confidence threshold 0.5", confident});
  return cases;
}

TEST(CudaPixelProbe, CensusSgmProbeEqualsTheCpuProbe) {
  SV_REQUIRE_CUDA_DEVICE();
  const GrayPair pair = scene(200, 120, 40);
  cuda::CudaEngine gpu;
  CpuEngine cpu;
  for (const Case& c : census_sgm_cases()) {
    for (const ProbePixel& p : kPixels) {
      SCOPED_TRACE(c.name + " pixel " + std::to_string(p.x) + ", " + std::to_string(p.y));
      const DisparityResult a = probe_frame(gpu, pair, c.params, p);
      const DisparityResult b = probe_frame(cpu, pair, c.params, p);
      ASSERT_TRUE(a.probe.has_value());
      ASSERT_TRUE(a.probe->available()) << a.probe->unavailable;
      test::expect_same_probe(*a.probe, *b.probe);
      EXPECT_EQ(a.probe->final_disparity, a.disparity_fixed.at(p.x, p.y));
    }
  }
}

TEST(CudaPixelProbe, OtherAlgorithmsCurvesAndFinalValues) {
  SV_REQUIRE_CUDA_DEVICE();
  const GrayPair pair = scene(160, 96, 24);
  cuda::CudaEngine gpu;
  CpuEngine cpu;
  for (const char* algorithm : {"rank-sgm", "bm-sad", "bm-ssd", "bm-zncc", "esaw", "esmp"}) {
    for (const bool half : {false, true}) {
      StereoParams params;
      params.algorithm = algorithm;
      params.num_disparities = 32;
      params.half_costs = half;
      const bool floats = params.algorithm == "bm-zncc" || params.algorithm == "esaw" ||
                          params.algorithm == "esmp";
      if (half && params.algorithm != "esaw") continue;
      for (const ProbePixel p : {ProbePixel{80, 48}, ProbePixel{5, 90}, ProbePixel{150, 3}}) {
        SCOPED_TRACE(std::string(algorithm) + (half ? " half" : "") + " pixel " +
                     std::to_string(p.x) + ", " + std::to_string(p.y));
        const DisparityResult a = probe_frame(gpu, pair, params, p);
        const DisparityResult b = probe_frame(cpu, pair, params, p);
        ASSERT_TRUE(a.probe && a.probe->available());
        EXPECT_EQ(a.probe->matching_name, b.probe->matching_name);
        EXPECT_EQ(a.probe->aggregated_name, b.probe->aggregated_name);
        EXPECT_EQ(a.probe->final_disparity, a.disparity_fixed.at(p.x, p.y));
        ASSERT_EQ(a.probe->matching.size(), b.probe->matching.size());
        ASSERT_EQ(a.probe->aggregated.size(), b.probe->aggregated.size());
        if (!floats) {
          EXPECT_EQ(a.probe->matching, b.probe->matching);
          EXPECT_EQ(a.probe->aggregated, b.probe->aggregated);
          EXPECT_EQ(a.probe->final_disparity, b.probe->final_disparity);
          continue;
        }
        // Float stages: the tolerance of the GPU ESAW / ZNCC tests (relative 1e-4).
        for (size_t k = 0; k < a.probe->matching.size(); ++k) {
          EXPECT_NEAR(a.probe->matching[k], b.probe->matching[k],
                      1e-4 * std::max(1.0, std::abs(b.probe->matching[k])));
        }
        for (size_t k = 0; k < a.probe->aggregated.size(); ++k) {
          EXPECT_NEAR(a.probe->aggregated[k], b.probe->aggregated[k],
                      1e-4 * std::max(1.0, std::abs(b.probe->aggregated[k])));
        }
      }
    }
  }
}

TEST(CudaPixelProbe, AskingForAProbeLeavesTheResultAsItIs) {
  SV_REQUIRE_CUDA_DEVICE();
  const GrayPair pair = scene(200, 120, 40);
  cuda::CudaEngine gpu;
  StereoParams params;
  const DisparityResult plain = probe_frame(gpu, pair, params, std::nullopt);
  EXPECT_FALSE(plain.probe.has_value());
  const DisparityResult probed = probe_frame(gpu, pair, params, ProbePixel{100, 60});
  EXPECT_EQ(probed.disparity_fixed.pixels(), plain.disparity_fixed.pixels());
  const DisparityResult outside = probe_frame(gpu, pair, params, ProbePixel{200, 60});
  ASSERT_TRUE(outside.probe.has_value());
  EXPECT_EQ(outside.probe->unavailable, "(200, 60) lies outside the 200x120 image");
}

}  // namespace
}  // namespace sv
