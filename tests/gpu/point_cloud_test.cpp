// The 3D view's vertex kernel (cuda/point_cloud_vertices.cu) against the host vertex builder
// (src/core/point_cloud_vertices.h): byte for byte, on awkward sizes, with invalid pixels,
// disparities past the search range and behind the camera, every colour mode, the left view as
// RGB (host copy) and as RGBA (the engine's device views), with and without a confidence.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda/point_cloud_vertices.h"
#include "src/core/disparity.h"
#include "src/core/point_cloud_vertices.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

struct Inputs {
  ImageI16 fixed;
  ImageRgb8 left;
  ImageF32 confidence;
};

Inputs inputs(int w, int h) {
  Inputs in{ImageI16(w, h), ImageRgb8(w, h), ImageF32(w, h)};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const uint8_t a = test::hash_value(x, y, 1), b = test::hash_value(x, y, 2);
      // Invalid, negative (behind the camera with offset 0) and subpixel values up to 80 px.
      in.fixed.at(x, y) = a < 10 ? kInvalidFixedDisparity : static_cast<int16_t>((a * 5 + b) - 40);
      in.left.at(x, y) = Rgb8{a, b, test::hash_value(x, y, 3)};
      in.confidence.at(x, y) = test::hash_value(x, y, 4) / 255.0f;
    }
  }
  return in;
}

::testing::AssertionResult same_vertices(const std::vector<CloudVertex>& gpu,
                                         const std::vector<CloudVertex>& host, int width) {
  if (gpu.size() != host.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (std::memcmp(&gpu[i], &host[i], sizeof(CloudVertex)) != 0) {
      return ::testing::AssertionFailure()
             << "vertex (" << i % width << ", " << i / width << "): " << gpu[i].x << " "
             << gpu[i].y << " " << gpu[i].z << " rgba " << int(gpu[i].r) << "," << int(gpu[i].g)
             << "," << int(gpu[i].b) << "," << int(gpu[i].a) << " instead of " << host[i].x << " "
             << host[i].y << " " << host[i].z << " rgba " << int(host[i].r) << ","
             << int(host[i].g) << "," << int(host[i].b) << "," << int(host[i].a);
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(PointCloudKernel, EqualsTheHostBuilder) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const auto& [w, h] : {std::pair<int, int>{333, 77}, {1, 1}, {31, 9}, {1280, 720}}) {
    const Inputs in = inputs(w, h);
    const ImageF32 disparity = fixed_to_float_disparity(in.fixed);
    std::vector<uchar4> rgba(in.left.size());
    for (size_t i = 0; i < rgba.size(); ++i) {
      const Rgb8 c = in.left.data()[i];
      rgba[i] = make_uchar4(c.r, c.g, c.b, 255);
    }
    test::GuardedDeviceArray<int16_t> d_fixed(in.fixed.size(), in.fixed.data());
    test::GuardedDeviceArray<Rgb8> d_rgb(in.left.size(), in.left.data());
    test::GuardedDeviceArray<uchar4> d_rgba(rgba.size(), rgba.data());
    test::GuardedDeviceArray<float> d_confidence(in.confidence.size(), in.confidence.data());
    test::GuardedDeviceArray<CloudVertex> d_vertices(in.fixed.size());
    for (const CloudProjection& projection :
         {metric_projection(700.0, 0.12, w * 0.5 - 3.25, h * 0.5 + 1.5, 2.0),
          pixel_projection(w, h, 64)}) {
      for (CloudColour colour : {CloudColour::Image, CloudColour::Depth, CloudColour::Confidence}) {
        CloudStyle style;
        style.colour = colour;
        style.colormap = colormap_math::kInferno;
        style.depth_near = 0.9f;
        style.depth_far = 30.0f;
        style.min_confidence = colour == CloudColour::Depth ? 0.0f : 0.3f;
        std::vector<CloudVertex> host;
        build_cloud_vertices(disparity, in.left, in.confidence, projection, style, host);
        for (int channels : {3, 4}) {
          const uint8_t* left = channels == 3 ? reinterpret_cast<const uint8_t*>(d_rgb.data())
                                              : reinterpret_cast<const uint8_t*>(d_rgba.data());
          cuda::point_cloud_vertices(d_fixed.data(), left, channels, d_confidence.data(), w, h,
                                     projection, style, d_vertices.data(), nullptr);
          SV_CUDA_CHECK(cudaDeviceSynchronize());
          EXPECT_TRUE(same_vertices(d_vertices.download(), host, w))
              << w << "x" << h << ", colour " << static_cast<int>(colour) << ", " << channels
              << " channels, metric " << projection.metric;
          EXPECT_TRUE(d_vertices.guards_intact());
        }
        // No left view and no confidence: grey points, none hidden by the threshold.
        std::vector<CloudVertex> bare;
        build_cloud_vertices(disparity, ImageRgb8(), ImageF32(), projection, style, bare);
        cuda::point_cloud_vertices(d_fixed.data(), nullptr, 0, nullptr, w, h, projection, style,
                                   d_vertices.data(), nullptr);
        SV_CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_TRUE(same_vertices(d_vertices.download(), bare, w)) << w << "x" << h;
      }
    }
  }
}

}  // namespace
}  // namespace sv
