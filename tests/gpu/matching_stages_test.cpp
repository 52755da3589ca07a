// Block matching, WTA, post-filters and pyramid stages of the CUDA engine against the CPU
// reference engine: every output must be equal element for element (float costs bit for bit).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/stages.h"
#include "src/core/block_matching.h"
#include "src/core/disparity.h"
#include "src/core/hole_filling.h"
#include "src/core/lr_check.h"
#include "src/core/median_filter.h"
#include "src/core/pyramid.h"
#include "src/core/winner_takes_all.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

// Bitwise equality of whole outputs; on failure names the mismatch count and the first one as
// (pixel, k) so a broken border or candidate is easy to locate.
template <typename T>
::testing::AssertionResult same_elements(const std::vector<T>& gpu, const std::vector<T>& cpu,
                                         int width, int count = 1) {
  if (gpu.size() != cpu.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << gpu.size() << " vs " << cpu.size();
  }
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (std::memcmp(&gpu[i], &cpu[i], sizeof(T)) != 0) {
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  const size_t pixel = first / count;
  std::ostringstream where;
  where << mismatches << " of " << gpu.size() << " elements differ; first at x="
        << pixel % width << " y=" << pixel / width << " k=" << first % count << ": gpu "
        << +gpu[first] << " cpu " << +cpu[first];
  return ::testing::AssertionFailure() << where.str();
}

// An image's pixels (Image::pixels()) against the GPU's, as above.
template <typename T, typename Pixel>
::testing::AssertionResult same_elements(const std::vector<T>& gpu, PixelSpan<Pixel> cpu, int width,
                                         int count = 1) {
  return same_elements(gpu, std::vector<T>(cpu), width, count);
}

template <typename T>
std::unique_ptr<GuardedDeviceArray<T>> upload(const std::vector<T>& host) {
  return std::make_unique<GuardedDeviceArray<T>>(host.size(), host.data());
}
template <typename T>
std::unique_ptr<GuardedDeviceArray<T>> upload(const Image<T>& image) {
  return std::make_unique<GuardedDeviceArray<T>>(image.size(), image.data());
}

// A SearchRange and its device view; the per-pixel base (if any) lives in a guarded array.
struct DeviceRange {
  std::unique_ptr<GuardedDeviceArray<int16_t>> base;
  cuda::DeviceSearchRange view;
};

DeviceRange to_device(const SearchRange& range) {
  DeviceRange out;
  out.view.count = range.count();
  out.view.uniform_base = range.uniform_base();
  if (!range.is_uniform()) {
    out.base = upload(range.per_pixel_base());
    out.view.per_pixel_base = out.base->data();
  }
  return out;
}

SearchRange random_per_pixel_range(int width, int height, int lowest, int highest, int count,
                                   uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> base(lowest, highest);
  ImageI16 bases(width, height);
  for (auto& b : bases.pixels()) b = static_cast<int16_t>(base(rng));
  return SearchRange(std::move(bases), count);
}

class MatchingStagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const cuda::DeviceInfo device = cuda::query_device();
    if (!device.available) return;
    SV_CUDA_CHECK(cudaStreamCreate(&stream_));
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }
  void finish() { SV_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  cudaStream_t stream_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Block matching

struct BlockMatchingCase {
  int width, height, window, min_disparity, count;
  bool per_pixel;
};

std::string describe(const BlockMatchingCase& c) {
  std::ostringstream s;
  s << c.width << "x" << c.height << " window " << c.window << " range [" << c.min_disparity
    << ", +" << c.count << ")" << (c.per_pixel ? " per-pixel" : " uniform");
  return s.str();
}

// A shifted textured pair with a flat patch (ZNCC's zero-variance rule) and a saturated one.
test::ShiftedPair matching_pair(int width, int height, uint32_t seed) {
  test::ShiftedPair pair = test::shifted_pair(width, height, 7, seed, 1);
  for (int y = 0; y < height / 3; ++y) {
    for (int x = 0; x < width / 4; ++x) {
      pair.left.at(x, y) = 90;
      pair.right.at(x, y) = 90;
      pair.left.at(width - 1 - x, height - 1 - y) = 255;
    }
  }
  return pair;
}

void check_block_matching(const BlockMatchingCase& c, cudaStream_t stream) {
  SCOPED_TRACE(describe(c));
  const test::ShiftedPair pair = matching_pair(c.width, c.height, 11u * c.window + c.count);
  const SearchRange range =
      c.per_pixel ? random_per_pixel_range(c.width, c.height, c.min_disparity - 3,
                                           c.min_disparity + 40, c.count, 5u + c.window)
                  : SearchRange(c.min_disparity, c.count);
  auto left = upload(pair.left);
  auto right = upload(pair.right);
  DeviceRange device_range = to_device(range);
  const size_t volume = static_cast<size_t>(c.width) * c.height * c.count;

  {
    GuardedDeviceArray<uint32_t> costs(volume);
    cuda::sad_cost_volume(left->data(), right->data(), c.width, c.height, c.window,
                          device_range.view, costs.data(), stream);
    SV_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(same_elements(costs.download(),
                              sad_cost_volume(pair.left, pair.right, c.window, range).costs(),
                              c.width, c.count))
        << "SAD";
    EXPECT_TRUE(costs.guards_intact()) << "SAD";
  }
  {
    GuardedDeviceArray<uint32_t> costs(volume);
    cuda::ssd_cost_volume(left->data(), right->data(), c.width, c.height, c.window,
                          device_range.view, costs.data(), stream);
    SV_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(same_elements(costs.download(),
                              ssd_cost_volume(pair.left, pair.right, c.window, range).costs(),
                              c.width, c.count))
        << "SSD";
    EXPECT_TRUE(costs.guards_intact()) << "SSD";
  }
  {
    GuardedDeviceArray<float> costs(volume);
    cuda::zncc_cost_volume(left->data(), right->data(), c.width, c.height, c.window,
                           device_range.view, costs.data(), stream);
    SV_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(same_elements(costs.download(),
                              zncc_cost_volume(pair.left, pair.right, c.window, range).costs(),
                              c.width, c.count))
        << "ZNCC";
    EXPECT_TRUE(costs.guards_intact()) << "ZNCC";
  }
  EXPECT_TRUE(left->guards_intact() && right->guards_intact());
}

TEST_F(MatchingStagesTest, BlockMatchingSmallImageEveryWindowAndCount) {
  SV_REQUIRE_CUDA_DEVICE();
  for (int window : {3, 9, 21}) {
    check_block_matching({33, 17, window, 0, 64, false}, stream_);
    check_block_matching({33, 17, window, -5, 37, false}, stream_);
    check_block_matching({33, 17, window, -5, 128, false}, stream_);
    check_block_matching({33, 17, window, -5, 37, true}, stream_);
  }
}

TEST_F(MatchingStagesTest, BlockMatchingAwkwardSizeUniformRanges) {
  SV_REQUIRE_CUDA_DEVICE();
  check_block_matching({641, 479, 3, -5, 64, false}, stream_);
  check_block_matching({641, 479, 9, -5, 128, false}, stream_);
  check_block_matching({641, 479, 21, 0, 37, false}, stream_);
  check_block_matching({641, 479, 9, 0, 200, false}, stream_);  // two disparity chunks
}

TEST_F(MatchingStagesTest, BlockMatchingAwkwardSizePerPixelRanges) {
  SV_REQUIRE_CUDA_DEVICE();
  check_block_matching({641, 479, 3, -5, 37, true}, stream_);
  check_block_matching({641, 479, 9, -5, 9, true}, stream_);
}

TEST_F(MatchingStagesTest, BlockMatchingRejectsBadWindows) {
  SV_REQUIRE_CUDA_DEVICE();
  const cuda::DeviceSearchRange range{0, nullptr, 8};
  for (int window : {1, 4, 23}) {
    EXPECT_THROW(cuda::sad_cost_volume(nullptr, nullptr, 8, 8, window, range, nullptr, stream_),
                 InputError);
  }
}

// ---------------------------------------------------------------------------------------------
// Winner-takes-all and right view

template <typename T>
T no_match_cost() {
  return std::is_floating_point<T>::value ? std::numeric_limits<T>::infinity()
                                          : std::numeric_limits<T>::max();
}

// Largest cost the generator uses for a real candidate.
template <typename T>
double cost_ceiling() {
  if constexpr (std::is_same<T, uint8_t>::value) return 250;
  if constexpr (std::is_same<T, uint16_t>::value) return 60000;
  if constexpr (std::is_same<T, uint32_t>::value) return 4.0e9;
  return 5000.0;
}

// Per pixel one of: noisy parabolas around a random (fractional) minimum, possibly at the ends
// (valid winners, real subpixel offsets); tiny random values (ties everywhere); random values
// with many no-match costs; only no-match costs.
template <typename T>
std::vector<T> random_cost_volume(int width, int height, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double ceiling = cost_ceiling<T>();
  auto quantize = [&](double v) {
    v = std::min(v, ceiling);
    return std::is_floating_point<T>::value ? static_cast<T>(v) : static_cast<T>(std::floor(v));
  };
  std::vector<T> costs(static_cast<size_t>(width) * height * count);
  for (size_t p = 0; p < static_cast<size_t>(width) * height; ++p) {
    T* c = costs.data() + p * count;
    const uint32_t mode = rng() % 10;
    if (mode == 0) {
      for (int k = 0; k < count; ++k) c[k] = static_cast<T>(rng() % 6);
    } else if (mode == 1) {
      for (int k = 0; k < count; ++k) {
        c[k] = rng() % 3 == 0 ? no_match_cost<T>() : quantize(unit(rng) * ceiling);
      }
    } else if (mode == 2) {
      for (int k = 0; k < count; ++k) c[k] = no_match_cost<T>();
    } else {
      const double centre = -1.5 + unit(rng) * (count + 2);
      const double floor_level = unit(rng) * ceiling * 0.2;
      const double curvature = (1.0 + unit(rng) * 40.0) * ceiling / 250.0 / (count * 0.5);
      const double noise = unit(rng) < 0.5 ? 0.0 : ceiling * 0.01;
      for (int k = 0; k < count; ++k) {
        const double offset = k - centre;
        c[k] = quantize(floor_level + curvature * offset * offset + noise * unit(rng));
      }
      if (mode == 3) c[rng() % count] = no_match_cost<T>();  // a no-match neighbour, sometimes
    }
  }
  return costs;
}

struct WtaCase {
  int width, height, min_disparity, count;
  bool per_pixel;
};

template <typename T>
void check_wta(const WtaCase& c, cudaStream_t stream) {
  std::ostringstream name;
  name << c.width << "x" << c.height << " range [" << c.min_disparity << ", +" << c.count << ")"
       << (c.per_pixel ? " per-pixel" : " uniform");
  SCOPED_TRACE(name.str());
  const SearchRange range =
      c.per_pixel ? random_per_pixel_range(c.width, c.height, c.min_disparity - 4,
                                           c.min_disparity + 30, c.count, 77u + c.count)
                  : SearchRange(c.min_disparity, c.count);
  CostVolume<T> volume(c.width, c.height, range);
  volume.costs() = random_cost_volume<T>(c.width, c.height, c.count, 1234u + c.count + c.width);
  auto costs = upload(volume.costs());
  DeviceRange device_range = to_device(range);
  GuardedDeviceArray<int16_t> disparity(static_cast<size_t>(c.width) * c.height);

  for (int uniqueness : {0, 10}) {
    for (bool subpixel : {false, true}) {
      for (double max_cost : {std::numeric_limits<double>::infinity(), cost_ceiling<T>() / 3}) {
        WtaSettings settings;
        settings.uniqueness = uniqueness;
        settings.subpixel = subpixel;
        settings.max_cost = max_cost;
        SCOPED_TRACE("uniqueness " + std::to_string(uniqueness) + " subpixel " +
                     std::to_string(subpixel) + " max_cost " + std::to_string(max_cost));
        cuda::winner_takes_all(costs->data(), c.width, c.height, device_range.view, settings,
                               disparity.data(), stream);
        SV_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(same_elements(disparity.download(),
                                  winner_takes_all(volume, settings).pixels(), c.width));
      }
    }
  }
  EXPECT_TRUE(disparity.guards_intact());

  GuardedDeviceArray<int16_t> right_view(static_cast<size_t>(c.width) * c.height);
  cuda::right_view_disparity(costs->data(), c.width, c.height, device_range.view,
                             right_view.data(), stream);
  SV_CUDA_CHECK(cudaStreamSynchronize(stream));
  EXPECT_TRUE(same_elements(right_view.download(), right_view_disparity(volume).pixels(), c.width))
      << "right view";
  EXPECT_TRUE(right_view.guards_intact());
  EXPECT_TRUE(costs->guards_intact());
}

template <typename T>
class WinnerTakesAllTest : public MatchingStagesTest {};
using CostTypes = ::testing::Types<uint8_t, uint16_t, uint32_t, float>;
TYPED_TEST_SUITE(WinnerTakesAllTest, CostTypes);

TYPED_TEST(WinnerTakesAllTest, MatchesCpuOnRandomVolumes) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const WtaCase& c : {WtaCase{33, 17, 0, 64, false}, WtaCase{33, 17, -5, 37, false},
                           WtaCase{33, 17, -5, 128, false}, WtaCase{33, 17, -5, 37, true},
                           WtaCase{33, 17, -5, 1, false}, WtaCase{33, 17, -5, 2, true},
                           WtaCase{641, 479, -5, 128, false}, WtaCase{641, 479, -5, 37, true}}) {
    check_wta<TypeParam>(c, this->stream_);
  }
}

TEST_F(MatchingStagesTest, WinnerTakesAllRejectsBadUniqueness) {
  SV_REQUIRE_CUDA_DEVICE();
  WtaSettings settings;
  settings.uniqueness = 100;
  EXPECT_THROW(cuda::winner_takes_all<uint8_t>(nullptr, 4, 4, {0, nullptr, 4}, settings, nullptr,
                                               stream_),
               InputError);
}

// The full-HD case the performance target is about: SAD 9x9, 128 disparities, then WTA and the
// right view on the GPU's own volume, all against the CPU. Prints the kernels' times.
TEST_F(MatchingStagesTest, FullHdSadPipelineMatchesCpuAndIsTimed) {
  SV_REQUIRE_CUDA_DEVICE();
  const int width = 1920, height = 1080, window = 9, count = 128;
  const test::ShiftedPair pair = test::shifted_pair(width, height, 23, 99u, 1);
  const SearchRange range(0, count);
  auto left = upload(pair.left);
  auto right = upload(pair.right);
  const cuda::DeviceSearchRange device_range{0, nullptr, count};
  GuardedDeviceArray<uint32_t> costs(static_cast<size_t>(width) * height * count);
  GuardedDeviceArray<int16_t> disparity(static_cast<size_t>(width) * height);
  GuardedDeviceArray<int16_t> right_view(static_cast<size_t>(width) * height);
  WtaSettings settings;
  settings.uniqueness = 10;

  cudaEvent_t start, stop;
  SV_CUDA_CHECK(cudaEventCreate(&start));
  SV_CUDA_CHECK(cudaEventCreate(&stop));
  auto time_ms = [&](auto&& launch) {
    launch();  // warm-up
    constexpr int kRepeats = 10;
    SV_CUDA_CHECK(cudaEventRecord(start, stream_));
    for (int i = 0; i < kRepeats; ++i) launch();
    SV_CUDA_CHECK(cudaEventRecord(stop, stream_));
    SV_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SV_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms / kRepeats;
  };
  const float sad_ms = time_ms([&] {
    cuda::sad_cost_volume(left->data(), right->data(), width, height, window, device_range,
                          costs.data(), stream_);
  });
  const float wta_ms = time_ms([&] {
    cuda::winner_takes_all(costs.data(), width, height, device_range, settings, disparity.data(),
                           stream_);
  });
  const float right_ms = time_ms([&] {
    cuda::right_view_disparity(costs.data(), width, height, device_range, right_view.data(),
                               stream_);
  });
  std::cout << "[timing] 1920x1080 D128: SAD 9x9 " << sad_ms << " ms, WTA (uint32) " << wta_ms
            << " ms, right view " << right_ms << " ms\n";
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  const CostVolume<uint32_t> cpu = sad_cost_volume(pair.left, pair.right, window, range);
  EXPECT_TRUE(same_elements(costs.download(), cpu.costs(), width, count)) << "SAD";
  EXPECT_TRUE(same_elements(disparity.download(), winner_takes_all(cpu, settings).pixels(), width))
      << "WTA";
  EXPECT_TRUE(same_elements(right_view.download(), right_view_disparity(cpu).pixels(), width))
      << "right view";
  EXPECT_TRUE(costs.guards_intact() && disparity.guards_intact() && right_view.guards_intact());
}

// ---------------------------------------------------------------------------------------------
// Post-filters

// Fixed-point disparities in [lo, hi] px (fractional), a share `invalid` of them invalid.
ImageI16 random_disparity(int width, int height, int lo, int hi, double invalid, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(lo * kDisparityScale, hi * kDisparityScale);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  ImageI16 image(width, height);
  for (auto& d : image.pixels()) {
    d = unit(rng) < invalid ? kInvalidFixedDisparity : static_cast<int16_t>(value(rng));
  }
  return image;
}

TEST_F(MatchingStagesTest, LrCheckMatchesCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] : {std::pair{33, 17}, std::pair{641, 479}, std::pair{1, 5}}) {
    for (int max_diff : {0, 1, 3}) {
      SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " max_diff " +
                   std::to_string(max_diff));
      const ImageI16 left = random_disparity(width, height, -5, 9, 0.2, width + max_diff);
      const ImageI16 right = random_disparity(width, height, -5, 9, 0.2, 3 * width + max_diff);
      auto device_left = upload(left);
      auto device_right = upload(right);
      cuda::lr_check(device_left->data(), device_right->data(), width, height, max_diff, stream_);
      finish();
      ImageI16 expected = left;
      lr_check(expected, right, max_diff);
      EXPECT_TRUE(same_elements(device_left->download(), expected.pixels(), width));
      EXPECT_NE(expected, left);  // the check did reject something
      EXPECT_TRUE(device_left->guards_intact() && device_right->guards_intact());
    }
  }
}

TEST_F(MatchingStagesTest, MedianFilterMatchesCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] :
       {std::pair{33, 17}, std::pair{641, 479}, std::pair{1, 7}, std::pair{2, 2}}) {
    for (int size : {0, 1, 3, 5}) {
      for (double invalid : {0.0, 0.3, 0.9}) {
        SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " size " +
                     std::to_string(size) + " invalid " + std::to_string(invalid));
        const ImageI16 in = random_disparity(width, height, -5, 3, invalid, size * 7 + width);
        auto device_in = upload(in);
        GuardedDeviceArray<int16_t> out(in.size());
        cuda::median_filter(device_in->data(), out.data(), width, height, size, stream_);
        finish();
        EXPECT_TRUE(same_elements(out.download(), median_filter(in, size).pixels(), width));
        EXPECT_TRUE(out.guards_intact() && device_in->guards_intact());
      }
    }
  }
  EXPECT_THROW(cuda::median_filter(nullptr, nullptr, 4, 4, 7, stream_), InputError);
}

// The packed 3x3 median keys absent values as 0x7FFF, the largest int16: windows that hold
// that value, the smallest one, invalid pixels and ordinary values still give the CPU's median.
TEST_F(MatchingStagesTest, MedianFilterHandlesExtremeDisparities) {
  SV_REQUIRE_CUDA_DEVICE();
  const int16_t kinds[] = {32767, -32767, kInvalidFixedDisparity, 0, 100, 32767, 5};
  for (auto [width, height] : {std::pair{9, 5}, std::pair{64, 6}}) {
    ImageI16 in(width, height);
    for (int i = 0; i < width * height; ++i) in.data()[i] = kinds[(i * 5 + i / 3) % 7];
    for (int size : {3, 5}) {
      SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " size " + std::to_string(size));
      auto device_in = upload(in);
      GuardedDeviceArray<int16_t> out(in.size());
      cuda::median_filter(device_in->data(), out.data(), width, height, size, stream_);
      finish();
      EXPECT_TRUE(same_elements(out.download(), median_filter(in, size).pixels(), width));
    }
  }
}

TEST_F(MatchingStagesTest, FillHolesMatchesCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] :
       {std::pair{33, 17}, std::pair{641, 479}, std::pair{1, 9}, std::pair{1920, 6}}) {
    for (double invalid : {0.2, 0.95, 1.0}) {
      SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " invalid " +
                   std::to_string(invalid));
      ImageI16 disparity = random_disparity(width, height, -5, 60, invalid, width + 17);
      // One row with a single valid pixel at its start, one with a single one at its end.
      if (height > 2) {
        std::fill(disparity.row(1), disparity.row(1) + width, kInvalidFixedDisparity);
        std::fill(disparity.row(2), disparity.row(2) + width, kInvalidFixedDisparity);
        disparity.at(0, 1) = 100;
        disparity.at(width - 1, 2) = -40;
      }
      auto device = upload(disparity);
      cuda::fill_holes(device->data(), width, height, stream_);
      finish();
      fill_holes(disparity);
      EXPECT_TRUE(same_elements(device->download(), disparity.pixels(), width));
      EXPECT_TRUE(device->guards_intact());
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Pyramid

TEST_F(MatchingStagesTest, Downsample2x2MatchesCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] : {std::pair{33, 17}, std::pair{641, 479}, std::pair{1, 1},
                               std::pair{2, 2}, std::pair{3, 5}, std::pair{1920, 1080}}) {
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
    const ImageU8 image = test::random_texture(width, height, 3u + width);
    const ImageU8 expected = downsample_2x2(image);
    auto in = upload(image);
    GuardedDeviceArray<uint8_t> out(expected.size());
    cuda::downsample_2x2(in->data(), width, height, out.data(), stream_);
    finish();
    EXPECT_TRUE(same_elements(out.download(), expected.pixels(), expected.width()));
    EXPECT_TRUE(out.guards_intact() && in->guards_intact());
  }
}

TEST_F(MatchingStagesTest, RefineSearchRangeMatchesCpu) {
  SV_REQUIRE_CUDA_DEVICE();
  for (auto [width, height] : {std::pair{33, 17}, std::pair{641, 479}, std::pair{64, 32}}) {
    const int coarse_width = (width + 1) / 2, coarse_height = (height + 1) / 2;
    for (double invalid : {0.3, 0.97}) {
      ImageI16 coarse =
          random_disparity(coarse_width, coarse_height, -10, 70, invalid, width + 5);
      std::fill(coarse.row(0), coarse.row(0) + coarse_width, kInvalidFixedDisparity);  // centre
      if (coarse_width > 4) {  // two valid pixels at equal distance from the middle: tie to the left
        std::fill(coarse.row(1), coarse.row(1) + coarse_width, kInvalidFixedDisparity);
        coarse.at(1, 1) = 3 * kDisparityScale + 8;  // rounds half up when doubled
        coarse.at(3, 1) = -2 * kDisparityScale - 8;
      }
      auto device_coarse = upload(coarse);
      for (int count : {64, 37, 128}) {
        for (int radius : {2, 4}) {
          for (int level : {0, 1, 2}) {
            SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " invalid " +
                         std::to_string(invalid) + " count " + std::to_string(count) +
                         " radius " + std::to_string(radius) + " level " + std::to_string(level));
            const SearchRange expected =
                refine_search_range(coarse, width, height, radius, -5, count, level);
            GuardedDeviceArray<int16_t> base(static_cast<size_t>(width) * height);
            cuda::refine_search_range(device_coarse->data(), coarse_width, coarse_height, width,
                                      height, radius, -5, count, level, base.data(), stream_);
            finish();
            EXPECT_TRUE(
                same_elements(base.download(), expected.per_pixel_base().pixels(), width));
            EXPECT_TRUE(base.guards_intact());
          }
        }
      }
      EXPECT_TRUE(device_coarse->guards_intact());
    }
  }
}

}  // namespace
}  // namespace sv
