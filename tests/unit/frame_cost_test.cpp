// The size sanity of issue 17: an engine's estimate of a frame (memory, time) and the check of it
// against the memory available before the first frame (src/core/frame_budget.h). The estimates
// are held against real frames of the CPU engine; refusals are tested on absurd sizes, which
// are never allocated.
#include <gtest/gtest.h>

#include <malloc.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "src/core/algorithm_registry.h"
#include "src/core/cpu_engine.h"
#include "src/core/cpu_frame_cost.h"
#include "src/core/error.h"
#include "src/core/frame_budget.h"
#include "src/core/parallel_for.h"
#include "tests/support/test_images.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

// An engine that reports a given cost and free device memory, and fails the test if it is asked
// to compute.
class CostedEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "costed"; }
  DisparityResult match(const ImageU8&, const ImageU8&, const StereoParams&) override {
    ADD_FAILURE() << "compute() was called";
    return {};
  }
  FrameCost frame_cost(int width, int height, const StereoParams&) const override {
    ++estimates;
    FrameCost c = cost;
    c.device_bytes = cost.device_bytes * static_cast<uint64_t>(width) * height;
    return c;
  }
  std::optional<uint64_t> free_device_bytes() const override { return free_device; }

  FrameCost cost;  // device_bytes per pixel
  std::optional<uint64_t> free_device;
  mutable int estimates = 0;
};

TEST(FrameBudget, AnAbsurdCpuFrameIsRefusedWithBothNumbers) {
  StereoParams params;
  params.num_disparities = 256;
  const FrameCost cost = CpuEngine().frame_cost(8192, 8192, params);  // computes nothing
  EXPECT_GT(cost.host_bytes, 48 * kGiB);  // 2^26 pixels x 256 candidates x 3 bytes, at least
  EXPECT_LT(cost.host_bytes, 64 * kGiB);
  MemoryAvailable available;
  available.host = 8 * kGiB;
  EXPECT_EQ(error_of([&] { require_frame_fits(cost, available, 8192, 8192, params, "cpu"); }),
            "a 8192x8192 frame (census-sgm, 256 disparities) needs 54.5 GiB of host memory on the "
            "cpu engine, but 8.0 GiB is available: use a smaller size or fewer disparities, or add "
            "pyramid levels");
  // Pyramid levels cut the volumes to the coarse range and the refinement radius.
  params.pyramid_levels = 3;
  const FrameCost pyramid = CpuEngine().frame_cost(8192, 8192, params);
  EXPECT_LT(pyramid.host_bytes, 8 * kGiB);
  EXPECT_NO_THROW(require_frame_fits(pyramid, available, 8192, 8192, params, "cpu"));
}

TEST(FrameBudget, DeviceMemoryIsCheckedAgainstTheFreeMemoryPlusWhatTheEngineHolds) {
  CostedEngine engine;
  engine.cost.device_bytes = 1000;  // per pixel
  engine.free_device = 2'000'000;
  FrameBudget budget;
  StereoParams params;
  EXPECT_EQ(budget.check(engine, 40, 40, params), "");  // 1.6 MB
  EXPECT_EQ(engine.estimates, 1);
  EXPECT_EQ(budget.check(engine, 40, 40, params), "");  // the same frame: not estimated again
  EXPECT_EQ(engine.estimates, 1);
  // The engine holds its 1.6 MB; the driver says 0.4 MB are free: 2 MB in all.
  engine.free_device = 400'000;
  EXPECT_EQ(budget.check(engine, 44, 44, params), "");  // 1.94 MB, held from now on
  const std::string message = error_of([&] { budget.check(engine, 50, 50, params); });
  EXPECT_NE(message.find("a 50x50 frame (census-sgm, 64 disparities) needs 2.4 MiB of device "
                         "memory on the costed engine, but 2.2 MiB is available"),
            std::string::npos)
      << message;
  EXPECT_EQ(engine.estimates, 3);
  // The host is checked too: no machine has 4 EiB available.
  engine.cost.host_bytes = uint64_t{1} << 62;
  EXPECT_NE(error_of([&] { budget.check(engine, 10, 10, params); }).find("of host memory"),
            std::string::npos);
}

TEST(FrameBudget, ASlowFrameGetsANoticeOnce) {
  CostedEngine engine;
  engine.cost.seconds = 200.0;
  FrameBudget budget;
  StereoParams params;
  params.algorithm = "bm-sad";
  params.num_disparities = 128;
  params.pyramid_levels = 1;
  EXPECT_EQ(budget.check(engine, 640, 480, params),
            "a 640x480 frame (bm-sad, 128 disparities, 1 pyramid level) takes about 3.3 min on "
            "the costed engine");
  EXPECT_EQ(budget.check(engine, 640, 480, params), "");
  engine.cost.seconds = 2.0;
  EXPECT_EQ(budget.check(engine, 320, 240, params), "");  // fast enough to say nothing
}

TEST(FrameBudget, MemAvailableIsReadFromMeminfo) {
  EXPECT_EQ(parse_mem_available("MemTotal:       32000000 kB\nMemFree:         1000 kB\n"
                                "MemAvailable:   20971520 kB\nBuffers: 1 kB\n"),
            std::optional<uint64_t>(20 * kGiB));
  EXPECT_EQ(parse_mem_available("MemTotal: 1 kB\n"), std::nullopt);
  const std::optional<uint64_t> host = host_available_bytes();
  ASSERT_TRUE(host) << "/proc/meminfo has no MemAvailable";
  EXPECT_GT(*host, uint64_t{16} << 20);
}

// ---- the CPU engine's estimates against real frames -------------------------------------------

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // shadow memory and slower code: no comparison possible
#else
constexpr bool kSanitized = false;
#endif

long status_kib(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
  }
  return -1;
}

// The peak resident memory one call adds, through the kernel's high-water mark (reset first).
// -1 where the kernel does not allow the reset. Blocks from 128 KiB up are mapped on their own
// and returned when freed (glibc would otherwise raise that threshold after the first large
// free and keep such blocks in its heap), so an earlier frame's memory does not hide this one's.
template <typename F>
long peak_kib_of(F&& work) {
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  std::ofstream clear("/proc/self/clear_refs");
  if (!(clear << "5" << std::flush)) return -1;
  const long before = status_kib("VmRSS:");
  work();
  return status_kib("VmHWM:") - before;
}

StereoParams params_for(const std::string& algorithm, int disparities, int levels) {
  StereoParams params;
  params.algorithm = algorithm;
  params.num_disparities = disparities;
  params.pyramid_levels = levels;
  return params;
}

TEST(CpuFrameCost, MemoryEstimateHoldsThePeakOfRealFrames) {
  if (kSanitized) GTEST_SKIP() << "resident memory means nothing under AddressSanitizer";
  const test::ShiftedPair pair = test::shifted_pair(320, 240, 12, 7, 1);
  CpuEngine engine;
  for (const auto& info : algorithm_registry()) {
    for (const int levels : {0, 2}) {
      StereoParams params = params_for(info.name, 128, levels);
      params.confidence = levels == 0;
      const long peak = peak_kib_of([&] { engine.compute(pair.left, pair.right, params); });
      if (peak < 0) GTEST_SKIP() << "/proc/self/clear_refs cannot reset the peak here";
      const double estimate = engine.frame_cost(320, 240, params).host_bytes / 1024.0;
      // An estimate errs on the safe side, by less than half again plus the heap's slack.
      EXPECT_GE(estimate, 0.9 * peak) << info.name << " L" << levels << ": peak " << peak << " KiB";
      EXPECT_LE(estimate, 1.5 * peak + 4096) << info.name << " L" << levels << ": peak " << peak << " KiB";
    }
  }
}

TEST(CpuFrameCost, TimeEstimateHasTheOrderOfMagnitudeOfRealFrames) {
  if (kSanitized) GTEST_SKIP() << "sanitized code is several times slower than the estimate";
  const test::ShiftedPair pair = test::shifted_pair(256, 192, 12, 7, 1);
  CpuEngine engine;
  for (const auto& info : algorithm_registry()) {
    const StereoParams params = params_for(info.name, 64, 0);
    engine.compute(pair.left, pair.right, params);  // warm: threads, pages
    const auto start = std::chrono::steady_clock::now();
    engine.compute(pair.left, pair.right, params);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double estimate = engine.frame_cost(256, 192, params).seconds;
    EXPECT_GT(estimate, seconds / 10) << info.name << ": took " << seconds << " s";
    EXPECT_LT(estimate, seconds * 10) << info.name << ": took " << seconds << " s";
  }
  // More threads, less time; a deeper pyramid, far fewer candidates.
  const StereoParams params = params_for("census-sgm", 256, 0);
  EXPECT_NEAR(cpu_frame_cost(1920, 1080, params, 4).seconds * 4,
              cpu_frame_cost(1920, 1080, params, 1).seconds, 1e-6);
  EXPECT_LT(cpu_frame_cost(1920, 1080, params_for("census-sgm", 256, 2), 1).seconds,
            cpu_frame_cost(1920, 1080, params, 1).seconds / 4);
}

}  // namespace
}  // namespace sv
