// The GPU remap (cuda/remap.h) against the core's remap_bilinear, bit for bit, for 8-bit gray,
// RGB (with the fused gray), 16-bit and float images on awkward sizes, through lens-like maps
// that reach outside the raw image, a random map on the 1/64 px grid (every fraction and every
// tie), non-finite map values and NaN / infinite float samples. Guard bands around every device
// array catch writes past the ends.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cuda/remap.h"
#include "src/core/remap.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/rectification_maps.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;
using test::hash_value;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct RawImages {
  ImageU8 gray;
  ImageRgb8 rgb;
  ImageU16 u16;
  ImageF32 f32;
};

RawImages raw_images(int width, int height) {
  RawImages images{ImageU8(width, height), ImageRgb8(width, height), ImageU16(width, height),
                   ImageF32(width, height)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      images.gray.at(x, y) = hash_value(x, y, 1);
      images.rgb.at(x, y) = Rgb8{hash_value(x, y, 2), hash_value(x, y, 3), hash_value(x, y, 4)};
      const int h = hash_value(x, y, 5);
      // The top of the 16-bit range often: the float sums round there too.
      images.u16.at(x, y) = static_cast<uint16_t>(h < 64 ? 65535 - h : h * 257 + hash_value(x, y, 6));
      images.f32.at(x, y) = (hash_value(x, y, 7) - 127.5f) * (h < 128 ? 1.0f : 0.0137f);
    }
  }
  // Non-finite samples: they spread to their neighbours as defined.
  images.f32.at(width / 2, height / 2) = kNaN;
  images.f32.at(width / 3, height / 4) = kInf;
  images.f32.at(width / 4, height / 3) = -kInf;
  return images;
}

// The maps of one test: lens-like (view 0 or 1) or random on the 1/64 grid (view 2), with a few
// non-finite values.
struct Maps {
  ImageF32 x, y;
};

Maps test_maps(int width, int height, int view) {
  Maps maps;
  if (view < 2) {
    const RectificationMaps pair = test::lens_like_rectification(width, height);
    maps.x = view == 0 ? pair.left_x : pair.right_x;
    maps.y = view == 0 ? pair.left_y : pair.right_y;
  } else {
    maps.x = ImageF32(width, height);
    maps.y = ImageF32(width, height);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const int hx = hash_value(x, y, 8) | (hash_value(x, y, 9) << 8) | (hash_value(x, y, 12) << 16);
        const int hy = hash_value(x, y, 10) | (hash_value(x, y, 11) << 8) | (hash_value(x, y, 13) << 16);
        maps.x.at(x, y) = static_cast<float>(hx % ((width + 6) * 64) - 3 * 64) / 64.0f;
        maps.y.at(x, y) = static_cast<float>(hy % ((height + 6) * 64) - 3 * 64) / 64.0f;
      }
    }
  }
  const float odd[] = {kNaN, kInf, -kInf, 1.0e9f, -7.0e4f};
  for (int i = 0; i < 5 && i < width; ++i) {
    maps.x.at(i, 0) = odd[i];
    maps.y.at(width - 1 - i, height - 1) = odd[i];
  }
  return maps;
}

template <typename T>
std::vector<T> pixels_of(const Image<T>& image) {
  return std::vector<T>(image.data(), image.data() + image.size());
}

template <typename T>
::testing::AssertionResult same(const Image<T>& expected, const std::vector<T>& actual) {
  int differ = 0;
  size_t first = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    bool equal;
    if constexpr (std::is_same_v<T, float>) {
      equal = std::memcmp(&expected.data()[i], &actual[i], sizeof(float)) == 0 ||
              (std::isnan(expected.data()[i]) && std::isnan(actual[i]));
    } else {
      equal = expected.data()[i] == actual[i];
    }
    if (!equal && differ++ == 0) first = i;
  }
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " of " << actual.size()
                                       << " pixels differ, first at (" << first % expected.width()
                                       << ", " << first / expected.width() << ")";
}

// Runs the GPU remap of `raw` through `maps` and compares with the core.
template <typename T>
void expect_gpu_equals_core(const Image<T>& raw, const Maps& maps) {
  GuardedDeviceArray<T> d_raw(raw.size(), raw.data());
  GuardedDeviceArray<float> d_x(maps.x.size(), maps.x.data()), d_y(maps.y.size(), maps.y.data());
  GuardedDeviceArray<T> d_out(maps.x.size());
  GuardedDeviceArray<uint8_t> d_gray(maps.x.size());
  const cuda::DeviceRemapMaps device_maps{d_x.data(), d_y.data(), maps.x.width(), maps.x.height()};
  if constexpr (std::is_same_v<T, Rgb8>) {
    cuda::remap_bilinear(d_raw.data(), raw.width(), raw.height(), device_maps, d_out.data(),
                         d_gray.data(), nullptr);
  } else {
    cuda::remap_bilinear(d_raw.data(), raw.width(), raw.height(), device_maps, d_out.data(),
                         nullptr);
  }
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  const Image<T> expected = remap_bilinear(raw, maps.x, maps.y);
  EXPECT_TRUE(same(expected, d_out.download()));
  EXPECT_TRUE(d_out.guards_intact());
  if constexpr (std::is_same_v<T, Rgb8>) {
    EXPECT_TRUE(same(to_gray(expected), d_gray.download())) << "the fused gray";
    EXPECT_TRUE(d_gray.guards_intact());
  }
}

struct Size {
  int width, height;
};

class GpuRemap : public ::testing::TestWithParam<Size> {};

TEST_P(GpuRemap, EveryPixelTypeEqualsTheCoreRemap) {
  SV_REQUIRE_CUDA_DEVICE();
  const Size size = GetParam();
  const RawImages raw = raw_images(size.width, size.height);
  for (int view = 0; view < 3; ++view) {
    SCOPED_TRACE("maps " + std::to_string(view));
    const Maps maps = test_maps(size.width, size.height, view);
    expect_gpu_equals_core(raw.gray, maps);
    expect_gpu_equals_core(raw.rgb, maps);
    expect_gpu_equals_core(raw.u16, maps);
    expect_gpu_equals_core(raw.f32, maps);
  }
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, GpuRemap,
                         ::testing::Values(Size{33, 17}, Size{641, 479}, Size{1920, 1080}),
                         [](const ::testing::TestParamInfo<Size>& info) {
                           return std::to_string(info.param.width) + "x" +
                                  std::to_string(info.param.height);
                         });

TEST(GpuRemapShapes, RawImageOfAnotherSizeThanTheMaps) {
  SV_REQUIRE_CUDA_DEVICE();
  const RawImages raw = raw_images(45, 31);
  const Maps maps = test_maps(33, 17, 2);  // reads up to 3 px past a 33 x 17 image: inside 45 x 31
  expect_gpu_equals_core(raw.gray, maps);
  expect_gpu_equals_core(raw.rgb, maps);
  expect_gpu_equals_core(raw.u16, maps);
  expect_gpu_equals_core(raw.f32, maps);
}

TEST(GpuRemapShapes, TheResultIsNotTheRawImage) {
  // Guards against a kernel that copies: the lens-like maps move almost every pixel.
  SV_REQUIRE_CUDA_DEVICE();
  const RawImages raw = raw_images(64, 48);
  const Maps maps = test_maps(64, 48, 0);
  GuardedDeviceArray<uint8_t> d_raw(raw.gray.size(), raw.gray.data());
  GuardedDeviceArray<float> d_x(maps.x.size(), maps.x.data()), d_y(maps.y.size(), maps.y.data());
  GuardedDeviceArray<uint8_t> d_out(raw.gray.size());
  cuda::remap_bilinear(d_raw.data(), 64, 48, cuda::DeviceRemapMaps{d_x.data(), d_y.data(), 64, 48},
                       d_out.data(), nullptr);
  const std::vector<uint8_t> out = d_out.download();
  int moved = 0;
  for (size_t i = 0; i < out.size(); ++i) moved += out[i] != raw.gray.data()[i];
  EXPECT_GT(moved, static_cast<int>(out.size()) / 2);
  EXPECT_EQ(out[0], 0);  // maps.x(0, 0) is NaN: the border value
}

}  // namespace
}  // namespace sv
