// The CUDA census transform, census cost volume and SGM aggregation against their CPU references
// (src/core), bit for bit on whole outputs, for every window, range kind, disparity count, path
// count and P2 mode, on awkward sizes; every device buffer is guarded against stray writes.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

struct Size {
  int width;
  int height;
};

constexpr Size kSmall{33, 17};
constexpr Size kMedium{641, 479};

constexpr CensusWindow kWindows[] = {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                                     CensusWindow::W9x9, CensusWindow::W11x11};

// -1 when equal, else the first differing index (or the shorter size when the sizes differ).
template <typename T>
long first_mismatch(const std::vector<T>& a, const std::vector<T>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (!(a[i] == b[i])) return static_cast<long>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<long>(n);
}

// Whole-output equality; on failure names the first differing element instead of dumping MBs.
template <typename T>
void expect_identical(const std::vector<T>& gpu, const std::vector<T>& cpu, const std::string& what) {
  EXPECT_EQ(gpu.size(), cpu.size()) << what;
  EXPECT_TRUE(gpu == cpu) << what << ": first mismatch at element " << first_mismatch(gpu, cpu);
}

template <typename T>
std::vector<T> to_vector(const Image<T>& image) {
  return std::vector<T>(image.data(), image.data() + image.size());
}

// A texture with scattered pixels and one small block set to `missing` (the value then occurs).
ImageU8 texture_with_missing(Size size, uint32_t seed, uint8_t missing) {
  ImageU8 image = test::random_texture(size.width, size.height, seed);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      if (test::hash_value(x, y, seed + 99) < 20) image.at(x, y) = missing;
      if (x >= 3 && x < 9 && y >= 2 && y < 6) image.at(x, y) = missing;
    }
  }
  return image;
}

// Per-pixel bases: a smooth ramp (small shifts between neighbours, both signs) with rare large
// jumps, so paths meet fully overlapping, partly overlapping and disjoint candidate sets.
ImageI16 varied_bases(Size size, uint32_t seed) {
  ImageI16 base(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      int b = (x / 7 + y / 5) % 9 - 4;
      const uint8_t h = test::hash_value(x, y, seed);
      if (h < 6) b += 90;
      if (h >= 250) b -= 60;
      base.at(x, y) = static_cast<int16_t>(b);
    }
  }
  return base;
}

// A 16-bit texture that exercises every bit of the value: full-range values, clusters that differ
// only in the low byte or only in the high byte of 1000 (an 8-bit cast would merge them), runs of
// equal values, and `missing` scattered and as a block (-1: none).
ImageU16 texture16_with_missing(Size size, uint32_t seed, int missing) {
  ImageU16 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const int kind = test::hash_value(x, y, seed) % 4;
      const int a = test::hash_value(x, y, seed + 1);
      const int b = test::hash_value(x, y, seed + 2);
      int v = (a << 8) | b;                          // full range
      if (kind == 1) v = 1000 + 256 * (a % 8 - 3);   // same low byte as 1000
      if (kind == 2) v = 768 + b;                    // same high byte as 1000
      if (kind == 3) v = 1000 + a % 3 - 1;           // 999, 1000, 1001
      if (missing >= 0 && (test::hash_value(x, y, seed + 3) < 20 ||
                           (x >= 3 && x < 9 && y >= 2 && y < 6))) {
        v = missing;
      }
      image.at(x, y) = static_cast<uint16_t>(v);
    }
  }
  return image;
}

// A float texture with fractions close together, both zeros, subnormals, infinities, NaNs and
// `designated` (a missing value, or NaN for none) scattered and as a block.
ImageF32 texture_float_with_missing(Size size, uint32_t seed, float designated) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float special[] = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -1e-40f,
                           kInf, -kInf, std::numeric_limits<float>::quiet_NaN(), 1.0f,
                           std::nextafter(1.0f, 2.0f), std::nextafter(1.0f, 0.0f)};
  ImageF32 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const int kind = test::hash_value(x, y, seed);
      const int a = test::hash_value(x, y, seed + 1);
      const int b = test::hash_value(x, y, seed + 2);
      float v = (((a << 8) | b) - 32768) / 64.0f;          // -512 .. 512 in steps of 1/64
      if (kind < 40) v = special[a % 10];
      if (kind >= 200) v = 1.0f + (a % 5 - 2) * 1e-7f;     // neighbours of 1 a few ulps apart
      if (test::hash_value(x, y, seed + 3) < 20 || (x >= 3 && x < 9 && y >= 2 && y < 6)) {
        v = designated;  // NaN when nothing is designated: the always-missing value
      }
      image.at(x, y) = v;
    }
  }
  return image;
}

template <typename Pixel, typename Missing>
std::vector<CensusCode> gpu_census(const Image<Pixel>& image, CensusWindow window, Missing missing) {
  GuardedDeviceArray<Pixel> in(image.size(), image.data());
  GuardedDeviceArray<CensusCode> out(image.size());
  cuda::census_transform(in.data(), image.width(), image.height(), window, missing, out.data(), 0);
  SV_CUDA_CHECK(cudaStreamSynchronize(0));
  EXPECT_TRUE(in.guards_intact());
  EXPECT_TRUE(out.guards_intact());
  return out.download();
}

std::string case_name(CensusWindow window, Size size) {
  return std::string(census_window_name(window)) + " " + std::to_string(size.width) + "x" +
         std::to_string(size.height);
}

TEST(GpuCensus, MatchesCpuForEveryWindowWithAndWithoutMissingPixels) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const Size size : {kSmall, kMedium}) {
    const ImageU8 plain = test::random_texture(size.width, size.height, 7);
    const ImageU8 holed = texture_with_missing(size, 11, 0);
    for (const CensusWindow window : kWindows) {
      const std::string what = case_name(window, size);
      expect_identical(gpu_census(plain, window, -1), to_vector(census_transform(plain, window, -1)),
                       what + " no missing");
      expect_identical(gpu_census(holed, window, 0), to_vector(census_transform(holed, window, 0)),
                       what + " missing 0");
      // A missing value that also occurs as plain texture.
      expect_identical(gpu_census(plain, window, 128),
                       to_vector(census_transform(plain, window, 128)), what + " missing 128");
    }
  }
}

TEST(GpuCensus, SixteenBitMatchesCpuForEveryWindowWithAndWithoutMissingPixels) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const Size size : {kSmall, kMedium}) {
    const ImageU16 plain = texture16_with_missing(size, 13, -1);
    for (const CensusWindow window : kWindows) {
      const std::string what = case_name(window, size) + " 16-bit";
      expect_identical(gpu_census(plain, window, -1), to_vector(census_transform(plain, window, -1)),
                       what + " no missing");
      // Missing values above the byte range, one of them the top value; 1000 also occurs as
      // texture, and 1000 + 256 shares its low byte (must stay valid).
      for (const int missing : {1000, 65535, 0}) {
        const ImageU16 holed = texture16_with_missing(size, 17, missing);
        expect_identical(gpu_census(holed, window, missing),
                         to_vector(census_transform(holed, window, missing)),
                         what + " missing " + std::to_string(missing));
      }
    }
  }
}

TEST(GpuCensus, FloatMatchesCpuForEveryWindowWithNaNsAndDesignatedMissingValues) {
  SV_REQUIRE_CUDA_DEVICE();
  constexpr float kNone = std::numeric_limits<float>::quiet_NaN();
  for (const Size size : {kSmall, kMedium}) {
    for (const CensusWindow window : kWindows) {
      const std::string what = case_name(window, size) + " float";
      // NaN only; -1 designated (NaNs still missing); 0 designated (covers -0 too).
      for (const float designated : {kNone, -1.0f, 0.0f}) {
        const ImageF32 image = texture_float_with_missing(size, 19, designated);
        expect_identical(gpu_census(image, window, designated),
                         to_vector(census_transform(image, window, designated)),
                         what + " designated " + std::to_string(designated));
      }
    }
  }
}

TEST(GpuCensus, RejectsAnInvalidMissingValue) {
  SV_REQUIRE_CUDA_DEVICE();
  EXPECT_THROW(cuda::census_transform(static_cast<const uint8_t*>(nullptr), 4, 4,
                                      CensusWindow::W5x5, 256, nullptr, 0),
               InputError);
  EXPECT_THROW(cuda::census_transform(static_cast<const uint16_t*>(nullptr), 4, 4,
                                      CensusWindow::W5x5, 65536, nullptr, 0),
               InputError);
  EXPECT_THROW(cuda::census_transform(static_cast<const uint16_t*>(nullptr), 4, 4,
                                      CensusWindow::W5x5, -2, nullptr, 0),
               InputError);
}

// GPU cost volume from CPU census codes, compared with the CPU cost volume.
void check_cost_volume(Size size, const SearchRange& range, const std::string& what) {
  const test::ShiftedPair pair = test::shifted_pair(size.width, size.height, 9, 21, 1);
  const CensusImage left = census_transform(pair.left, CensusWindow::W9x7);
  const CensusImage right = census_transform(pair.right, CensusWindow::W9x7);
  const CostVolume<uint8_t> cpu = census_cost_volume(left, right, range);

  GuardedDeviceArray<CensusCode> dl(left.size(), left.data());
  GuardedDeviceArray<CensusCode> dr(right.size(), right.data());
  std::vector<int16_t> bases = range.is_uniform() ? std::vector<int16_t>(1, 0)
                                                  : to_vector(range.per_pixel_base());
  GuardedDeviceArray<int16_t> dbase(bases.size(), bases.data());
  GuardedDeviceArray<uint8_t> out(cpu.costs().size());
  cuda::DeviceSearchRange drange{range.uniform_base(),
                                 range.is_uniform() ? nullptr : dbase.data(), range.count()};
  cuda::census_cost_volume(dl.data(), dr.data(), size.width, size.height, drange, out.data(), 0);
  SV_CUDA_CHECK(cudaStreamSynchronize(0));
  expect_identical(out.download(), cpu.costs(), what);
  EXPECT_TRUE(out.guards_intact()) << what;
  EXPECT_TRUE(dl.guards_intact() && dr.guards_intact() && dbase.guards_intact()) << what;
}

TEST(GpuCensusCost, MatchesCpuForUniformAndPerPixelRanges) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const Size size : {kSmall, kMedium}) {
    const std::string at = " " + std::to_string(size.width) + "x" + std::to_string(size.height);
    check_cost_volume(size, SearchRange(0, 64), "min 0 count 64" + at);
    check_cost_volume(size, SearchRange(-5, 37), "min -5 count 37" + at);
    check_cost_volume(size, SearchRange(0, 37), "min 0 count 37" + at);
    check_cost_volume(size, SearchRange(-5, 64), "min -5 count 64" + at);
    check_cost_volume(size, SearchRange(varied_bases(size, 3), 37), "per-pixel count 37" + at);
    check_cost_volume(size, SearchRange(varied_bases(size, 4), 64), "per-pixel count 64" + at);
  }
}

struct SgmCase {
  Size size;
  int count;
  int paths;
  bool adaptive;
  bool per_pixel;
  bool census_costs;  // realistic census costs (0..64); otherwise random bytes 0..255
};

std::string describe(const SgmCase& c) {
  return std::to_string(c.size.width) + "x" + std::to_string(c.size.height) + " D" +
         std::to_string(c.count) + " paths " + std::to_string(c.paths) +
         (c.adaptive ? " adaptive" : " constant") + (c.per_pixel ? " per-pixel" : " uniform") +
         (c.census_costs ? " census" : " random");
}

CostVolume<uint8_t> input_costs(const SgmCase& c, const ImageU8& left, const ImageU8& right,
                                const SearchRange& range) {
  if (c.census_costs) {
    return census_cost_volume(census_transform(left, CensusWindow::W7x7),
                              census_transform(right, CensusWindow::W7x7), range);
  }
  CostVolume<uint8_t> costs(c.size.width, c.size.height, range);
  std::vector<uint8_t>& v = costs.costs();
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = test::hash_value(static_cast<uint32_t>(i % 65521), static_cast<uint32_t>(i / 65521), 5);
  }
  return costs;
}

void check_sgm(const SgmCase& c) {
  const std::string what = describe(c);
  const test::ShiftedPair pair = test::shifted_pair(c.size.width, c.size.height, 6, 31, 1);
  const SearchRange range = c.per_pixel ? SearchRange(varied_bases(c.size, 8), c.count)
                                        : SearchRange(-3, c.count);
  const CostVolume<uint8_t> costs = input_costs(c, pair.left, pair.right, range);
  SgmSettings settings;
  settings.paths = c.paths;
  settings.p1 = 10;
  settings.p2 = c.census_costs ? 60 : 200;
  settings.adaptive_p2 = c.adaptive;
  settings.p2_edge_scale = 12;
  const CostVolume<uint16_t> cpu = sgm_aggregate(costs, pair.left, settings);

  GuardedDeviceArray<uint8_t> dcosts(costs.costs().size(), costs.costs().data());
  GuardedDeviceArray<uint8_t> dguide(pair.left.size(), pair.left.data());
  std::vector<int16_t> bases = c.per_pixel ? to_vector(range.per_pixel_base())
                                           : std::vector<int16_t>(1, 0);
  GuardedDeviceArray<int16_t> dbase(bases.size(), bases.data());
  GuardedDeviceArray<uint16_t> out(cpu.costs().size());
  const cuda::DeviceSearchRange drange{range.uniform_base(), c.per_pixel ? dbase.data() : nullptr,
                                       c.count};
  cuda::sgm_aggregate(dcosts.data(), dguide.data(), c.size.width, c.size.height, drange, settings,
                      out.data(), 0);
  SV_CUDA_CHECK(cudaStreamSynchronize(0));
  expect_identical(out.download(), cpu.costs(), what);
  EXPECT_TRUE(out.guards_intact()) << what;
  EXPECT_TRUE(dcosts.guards_intact() && dguide.guards_intact() && dbase.guards_intact()) << what;
}

TEST(GpuSgm, MatchesCpuOnSmallImagesForEveryVariant) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const int count : {1, 5, 32, 37, 64, 100, 128, 200, 256}) {
    for (const int paths : {4, 8}) {
      for (const bool adaptive : {false, true}) {
        for (const bool per_pixel : {false, true}) {
          check_sgm({kSmall, count, paths, adaptive, per_pixel, false});
          check_sgm({kSmall, count, paths, adaptive, per_pixel, true});
        }
      }
    }
  }
}

TEST(GpuSgm, MatchesCpuOnMediumImages) {
  SV_REQUIRE_CUDA_DEVICE();
  check_sgm({kMedium, 64, 8, false, false, true});
  check_sgm({kMedium, 128, 8, true, true, true});
  check_sgm({kMedium, 256, 4, false, false, false});
  check_sgm({kMedium, 37, 8, true, true, false});
  check_sgm({kMedium, 128, 4, true, false, true});
  check_sgm({kMedium, 256, 8, false, true, true});
}

TEST(GpuSgm, RejectsWhatTheCpuRejects) {
  SV_REQUIRE_CUDA_DEVICE();
  SgmSettings settings;
  settings.paths = 6;
  EXPECT_THROW(cuda::sgm_aggregate(nullptr, nullptr, 4, 4, {0, nullptr, 8}, settings, nullptr, 0),
               InputError);
  settings.paths = 8;
  settings.p2 = 256;
  EXPECT_THROW(cuda::sgm_aggregate(nullptr, nullptr, 4, 4, {0, nullptr, 8}, settings, nullptr, 0),
               InputError);
}

// The whole census -> cost -> SGM chain on the GPU at full HD, 128 disparities, 8 paths, on a
// rendered synthetic scene, against the CPU chain.
TEST(GpuCensusSgmPipeline, MatchesCpuAtFullHd) {
  SV_REQUIRE_CUDA_DEVICE();
  const SyntheticFrame frame =
      test::render_synthetic(1920, 1080, 120, 0);
  const ImageU8 left = to_gray(frame.left);
  const ImageU8 right = to_gray(frame.right);
  const SearchRange range(0, 128);
  SgmSettings settings;
  settings.adaptive_p2 = true;

  const CensusImage cl = census_transform(left, CensusWindow::W9x7);
  const CensusImage cr = census_transform(right, CensusWindow::W9x7);
  const CostVolume<uint8_t> costs = census_cost_volume(cl, cr, range);
  const CostVolume<uint16_t> cpu = sgm_aggregate(costs, left, settings);

  const size_t pixels = left.size();
  GuardedDeviceArray<uint8_t> dleft(pixels, left.data());
  GuardedDeviceArray<uint8_t> dright(pixels, right.data());
  GuardedDeviceArray<CensusCode> dcl(pixels);
  GuardedDeviceArray<CensusCode> dcr(pixels);
  GuardedDeviceArray<uint8_t> dcosts(costs.costs().size());
  GuardedDeviceArray<uint16_t> dsum(cpu.costs().size());
  const cuda::DeviceSearchRange drange{0, nullptr, 128};
  cuda::census_transform(dleft.data(), 1920, 1080, CensusWindow::W9x7, -1, dcl.data(), 0);
  cuda::census_transform(dright.data(), 1920, 1080, CensusWindow::W9x7, -1, dcr.data(), 0);
  cuda::census_cost_volume(dcl.data(), dcr.data(), 1920, 1080, drange, dcosts.data(), 0);
  cuda::sgm_aggregate(dcosts.data(), dleft.data(), 1920, 1080, drange, settings, dsum.data(), 0);
  SV_CUDA_CHECK(cudaStreamSynchronize(0));
  expect_identical(dcl.download(), to_vector(cl), "census left");
  expect_identical(dcosts.download(), costs.costs(), "cost volume");
  expect_identical(dsum.download(), cpu.costs(), "aggregated");
  EXPECT_TRUE(dleft.guards_intact() && dright.guards_intact() && dcl.guards_intact() &&
              dcr.guards_intact() && dcosts.guards_intact() && dsum.guards_intact());
}

// Kernel timings, not a correctness test: run with --gtest_also_run_disabled_tests.
// Median of 20 runs after 3 warm-ups, CUDA events around each stage.
TEST(GpuCensusSgmTiming, DISABLED_StageTimesAtD128With8Paths) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const Size size : {Size{640, 480}, Size{1920, 1080}}) {
    const test::ShiftedPair pair = test::shifted_pair(size.width, size.height, 20, 3, 1);
    const size_t pixels = pair.left.size();
    const cuda::DeviceSearchRange range{0, nullptr, 128};
    SgmSettings settings;
    settings.adaptive_p2 = true;
    GuardedDeviceArray<uint8_t> dleft(pixels, pair.left.data());
    GuardedDeviceArray<uint8_t> dright(pixels, pair.right.data());
    GuardedDeviceArray<CensusCode> dcl(pixels);
    GuardedDeviceArray<CensusCode> dcr(pixels);
    GuardedDeviceArray<uint8_t> dcosts(pixels * 128);
    GuardedDeviceArray<uint16_t> dsum(pixels * 128);
    cudaEvent_t marks[4];
    for (cudaEvent_t& e : marks) SV_CUDA_CHECK(cudaEventCreate(&e));
    std::vector<float> census_ms, cost_ms, sgm_ms;
    for (int run = 0; run < 23; ++run) {
      SV_CUDA_CHECK(cudaEventRecord(marks[0], 0));
      cuda::census_transform(dleft.data(), size.width, size.height, CensusWindow::W9x7, -1,
                             dcl.data(), 0);
      cuda::census_transform(dright.data(), size.width, size.height, CensusWindow::W9x7, -1,
                             dcr.data(), 0);
      SV_CUDA_CHECK(cudaEventRecord(marks[1], 0));
      cuda::census_cost_volume(dcl.data(), dcr.data(), size.width, size.height, range,
                               dcosts.data(), 0);
      SV_CUDA_CHECK(cudaEventRecord(marks[2], 0));
      cuda::sgm_aggregate(dcosts.data(), dleft.data(), size.width, size.height, range, settings,
                          dsum.data(), 0);
      SV_CUDA_CHECK(cudaEventRecord(marks[3], 0));
      SV_CUDA_CHECK(cudaEventSynchronize(marks[3]));
      if (run < 3) continue;
      float ms[3];
      for (int i = 0; i < 3; ++i) SV_CUDA_CHECK(cudaEventElapsedTime(&ms[i], marks[i], marks[i + 1]));
      census_ms.push_back(ms[0]);
      cost_ms.push_back(ms[1]);
      sgm_ms.push_back(ms[2]);
    }
    auto median = [](std::vector<float> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    std::printf("%dx%d D128 8 paths: census (2 images) %.3f ms, cost %.3f ms, SGM %.3f ms, total %.3f ms\n",
                size.width, size.height, median(census_ms), median(cost_ms), median(sgm_ms),
                median(census_ms) + median(cost_ms) + median(sgm_ms));
    for (cudaEvent_t& e : marks) SV_CUDA_CHECK(cudaEventDestroy(e));
    EXPECT_TRUE(dsum.guards_intact());
  }
}

}  // namespace
}  // namespace sv
