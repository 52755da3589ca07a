// The CUDA rank transform and rank cost volume against rank_transform.cpp, bit for bit, for
// every window, uniform and per-pixel ranges and padded strides, on awkward sizes with guarded
// buffers.
#include <gtest/gtest.h>

#include <vector>

#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/rank_transform.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

TEST(GpuRank, TransformMatchesCpuForEveryWindow) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] : {std::pair{33, 17}, std::pair{641, 479}, std::pair{5, 3}}) {
    ImageU8 image = test::random_texture(w, h, 9);
    for (int i = 0; i < w * h; i += 7) image.data()[i] = image.data()[i / 2];  // ties
    GuardedDeviceArray<uint8_t> d_image(image.size(), image.data()), d_ranks(image.size());
    for (int window = 3; window <= 15; window += 2) {
      cuda::rank_transform(d_image.data(), w, h, window, d_ranks.data(), nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_EQ(d_ranks.download(), rank_transform(image, window).pixels()) << w << "x" << h << " window " << window;
      EXPECT_TRUE(d_ranks.guards_intact());
    }
  }
}

TEST(GpuRank, CostVolumeMatchesCpuForUniformAndPerPixelRanges) {
  SV_REQUIRE_CUDA_DEVICE();
  const int w = 97, h = 31, window = 9;
  const ImageU8 left = rank_transform(test::random_texture(w, h, 3), window);
  const ImageU8 right = rank_transform(test::random_texture(w, h, 4), window);
  GuardedDeviceArray<uint8_t> d_left(left.size(), left.data()), d_right(right.size(), right.data());
  const size_t pixels = static_cast<size_t>(w) * h;

  // Uniform range, stride = count and a padded stride (padding holds kMaxMatchCost).
  for (const int stride : {37, 64}) {
    const SearchRange range(-3, 37);
    const CostVolume<uint8_t> expected = rank_cost_volume(left, right, window, range);
    GuardedDeviceArray<uint8_t> costs(pixels * stride);
    cuda::rank_cost_volume(d_left.data(), d_right.data(), w, h, window,
                           cuda::DeviceSearchRange{-3, nullptr, 37}, stride, costs.data(), nullptr);
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<uint8_t> actual = costs.download();
    int mismatches = 0;
    for (size_t p = 0; p < pixels; ++p) {
      for (int k = 0; k < stride; ++k) {
        const int want = k < 37 ? expected.costs()[p * 37 + k] : kMaxMatchCost;
        mismatches += actual[p * stride + k] != want;
      }
    }
    EXPECT_EQ(mismatches, 0) << "stride " << stride;
    EXPECT_TRUE(costs.guards_intact());
  }

  // Per-pixel range, stride = count (one cell per thread) and a padded stride of 8 (four cells
  // per thread), for the smallest, default and largest windows (the cost table changes).
  ImageI16 base(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) base.at(x, y) = static_cast<int16_t>((x * 3 + y) % 40 - 5);
  }
  GuardedDeviceArray<int16_t> d_base(base.size(), base.data());
  for (const int m : {3, 9, 15}) {
    const ImageU8 left_m = rank_transform(test::random_texture(w, h, 3), m);
    const ImageU8 right_m = rank_transform(test::random_texture(w, h, 4), m);
    GuardedDeviceArray<uint8_t> dl(left_m.size(), left_m.data()), dr(right_m.size(), right_m.data());
    const CostVolume<uint8_t> expected = rank_cost_volume(left_m, right_m, m, SearchRange(base, 5));
    for (const int stride : {5, 8}) {
      GuardedDeviceArray<uint8_t> costs(pixels * stride);
      cuda::rank_cost_volume(dl.data(), dr.data(), w, h, m, cuda::DeviceSearchRange{0, d_base.data(), 5},
                             stride, costs.data(), nullptr);
      SV_CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<uint8_t> actual = costs.download();
      int mismatches = 0;
      for (size_t p = 0; p < pixels; ++p) {
        for (int k = 0; k < stride; ++k) {
          const int want = k < 5 ? expected.costs()[p * 5 + k] : kMaxMatchCost;
          mismatches += actual[p * stride + k] != want;
        }
      }
      EXPECT_EQ(mismatches, 0) << "window " << m << " stride " << stride;
      EXPECT_TRUE(costs.guards_intact());
    }
  }
}

}  // namespace
}  // namespace sv
