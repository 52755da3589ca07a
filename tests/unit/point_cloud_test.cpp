// The 3D view's point cloud (point_cloud_math.h, point_cloud_vertices.h): points from a known
// disparity and Q land where the pinhole model puts them, hidden points are hidden, the colours
// follow the style, and the host builder is cloud_vertex() per pixel.
#include "src/core/point_cloud_vertices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

constexpr double kFocal = 500.0, kBaseline = 0.12, kCx = 320.0, kCy = 240.0;

bool hidden(const CloudVertex& v) {
  const CloudVertex zero{0.0f, 0.0f, 0.0f, 0, 0, 0, 0};
  return std::memcmp(&v, &zero, sizeof v) == 0;
}

TEST(PointCloud, KnownDisparityLandsWherePinholeModelSays) {
  const CloudProjection p = metric_projection(kFocal, kBaseline, kCx, kCy, 0.0);
  EXPECT_TRUE(p.metric);
  const uint8_t rgb[3] = {10, 20, 30};
  // Z = f B / d = 500 * 0.12 / 20 = 3 m; X = (400 - 320) * 3 / 500; Y = (300 - 240) * 3 / 500.
  const CloudVertex v = cloud_vertex(p, CloudStyle{}, 400, 300, 20.0f, rgb, -1.0f);
  EXPECT_NEAR(v.z, 3.0f, 1e-6);
  EXPECT_NEAR(v.x, 0.48f, 1e-6);
  EXPECT_NEAR(v.y, 0.36f, 1e-6);
  EXPECT_EQ(v.a, 255);
  EXPECT_EQ(v.r, 10);
  EXPECT_EQ(v.g, 20);
  EXPECT_EQ(v.b, 30);

  // A left-of-centre, above-centre pixel lands left of and above the axis; a principal-point
  // difference (no ZERO_DISPARITY) shifts the disparity: d = 25 with offset 5 is Z = 3 again.
  const CloudProjection shifted = metric_projection(kFocal, kBaseline, kCx, kCy, 5.0);
  const CloudVertex u = cloud_vertex(shifted, CloudStyle{}, 220, 140, 25.0f, rgb, -1.0f);
  EXPECT_NEAR(u.z, 3.0f, 1e-6);
  EXPECT_NEAR(u.x, -0.6f, 1e-6);
  EXPECT_NEAR(u.y, -0.6f, 1e-6);
}

// Every point projects back onto its own pixel and its disparity: x = f X / Z + cx,
// y = f Y / Z + cy, d = f B / Z; over a whole map of subpixel disparities.
TEST(PointCloud, EveryPointProjectsBackOntoItsPixel) {
  const int w = 97, h = 61;
  ImageF32 d(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) d.at(x, y) = 1.0f + test::hash_value(x, y, 5) / 4.0f + 0.0625f * (x % 16);
  }
  const CloudProjection p = metric_projection(kFocal, kBaseline, 48.0, 30.5, 0.0);
  std::vector<CloudVertex> vertices;
  build_cloud_vertices(d, ImageRgb8(), ImageF32(), p, CloudStyle{}, vertices);
  ASSERT_EQ(vertices.size(), d.size());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const CloudVertex& v = vertices[static_cast<size_t>(y) * w + x];
      ASSERT_EQ(v.a, 255);
      EXPECT_NEAR(kFocal * v.x / v.z + 48.0, x, 1e-3) << x << "," << y;
      EXPECT_NEAR(kFocal * v.y / v.z + 30.5, y, 1e-3) << x << "," << y;
      EXPECT_NEAR(kFocal * kBaseline / v.z, d.at(x, y), 1e-4 * d.at(x, y)) << x << "," << y;
    }
  }
}

// The synthetic scene's own cameras put its back wall at Z = 10 (synthetic_scene.cpp).
TEST(PointCloud, SyntheticBackWallAtItsTrueDepth) {
  SyntheticSceneConfig config;
  config.width = 160;
  config.height = 120;
  config.max_disparity = 40;
  const SyntheticFrame f = SyntheticScene(config).render(0);
  const double focal = 0.9 * config.width;
  const CloudProjection p = metric_projection(focal, config.max_disparity / focal,
                                              (config.width - 1) * 0.5, (config.height - 1) * 0.5, 0.0);
  std::vector<CloudVertex> vertices;
  build_cloud_vertices(f.ground_truth, f.left, ImageF32(), p, CloudStyle{}, vertices);
  // The top rows show the back wall: the wall's disparity is max_disparity / 10 = 4 px.
  int wall = 0;
  for (int x = 0; x < config.width; ++x) {
    if (std::abs(f.ground_truth.at(x, 2) - 4.0f) > 1e-4f) continue;
    ++wall;
    EXPECT_NEAR(vertices[2 * config.width + x].z, 10.0f, 1e-4);
  }
  EXPECT_GT(wall, config.width / 2) << "the top rows should be the back wall";
}

TEST(PointCloud, InvalidBehindAndUnconfidentPointsAreHidden) {
  const CloudProjection p = metric_projection(kFocal, kBaseline, kCx, kCy, 5.0);
  CloudStyle style;
  style.min_confidence = 0.5f;
  const uint8_t rgb[3] = {1, 2, 3};
  EXPECT_TRUE(hidden(cloud_vertex(p, style, 1, 1, kInvalidDisparity, rgb, 0.9f)));
  EXPECT_TRUE(hidden(cloud_vertex(p, style, 1, 1, std::numeric_limits<float>::quiet_NaN(), rgb, 0.9f)));
  EXPECT_TRUE(hidden(cloud_vertex(p, style, 1, 1, 5.0f, rgb, 0.9f)));  // at infinity
  EXPECT_TRUE(hidden(cloud_vertex(p, style, 1, 1, 4.0f, rgb, 0.9f)));  // behind the camera
  EXPECT_TRUE(hidden(cloud_vertex(p, style, 1, 1, 20.0f, rgb, 0.49f)));
  EXPECT_FALSE(hidden(cloud_vertex(p, style, 1, 1, 20.0f, rgb, 0.5f)));
  // No confidence in the result: the threshold hides nothing.
  EXPECT_FALSE(hidden(cloud_vertex(p, style, 1, 1, 20.0f, rgb, -1.0f)));
}

TEST(PointCloud, PixelUnitsWithoutGeometry) {
  const CloudProjection p = pixel_projection(101, 51, 64);
  EXPECT_FALSE(p.metric);
  const CloudVertex v = cloud_vertex(p, CloudStyle{}, 0, 50, 10.5f, nullptr, -1.0f);
  EXPECT_FLOAT_EQ(v.x, -50.0f);
  EXPECT_FLOAT_EQ(v.y, 25.0f);
  EXPECT_FLOAT_EQ(v.z, 53.5f);
  EXPECT_EQ(v.a, 255);
  const DepthSpan span = depth_span(p, 0.0f, 63.0f);
  EXPECT_FLOAT_EQ(span.near_z, 1.0f);
  EXPECT_FLOAT_EQ(span.far_z, 64.0f);
}

TEST(PointCloud, ColoursByDepthAndConfidence) {
  const CloudProjection p = metric_projection(kFocal, kBaseline, kCx, kCy, 0.0);
  const DepthSpan span = depth_span(p, 10.0f, 60.0f);  // Z from 6 m down to 1 m
  EXPECT_NEAR(span.near_z, 1.0f, 1e-6);
  EXPECT_NEAR(span.far_z, 6.0f, 1e-6);
  CloudStyle style;
  style.colour = CloudColour::Depth;
  style.colormap = colormap_math::kJet;
  style.depth_near = span.near_z;
  style.depth_far = span.far_z;
  // The nearest end is the colormap's top, as the disparity view colours the largest disparity.
  const ImageRgb8 ends = colorize_disparity(ImageF32(2, 1, 0.0f), 0.0f, 1.0f, Colormap::Jet, Rgb8{});
  const CloudVertex near_v = cloud_vertex(p, style, 5, 5, 60.0f, nullptr, -1.0f);
  const CloudVertex far_v = cloud_vertex(p, style, 5, 5, 10.0f, nullptr, -1.0f);
  uint8_t top[3], bottom[3];
  colormap_math::color(colormap_math::kJet, 1.0f, top);
  colormap_math::color(colormap_math::kJet, 0.0f, bottom);
  EXPECT_EQ(ends.at(0, 0), (Rgb8{bottom[0], bottom[1], bottom[2]}));
  EXPECT_EQ((Rgb8{near_v.r, near_v.g, near_v.b}), (Rgb8{top[0], top[1], top[2]}));
  EXPECT_EQ((Rgb8{far_v.r, far_v.g, far_v.b}), (Rgb8{bottom[0], bottom[1], bottom[2]}));

  style.colour = CloudColour::Confidence;
  uint8_t inferno[3];
  colormap_math::color(colormap_math::kInferno, 0.75f, inferno);
  const CloudVertex c = cloud_vertex(p, style, 5, 5, 30.0f, nullptr, 0.75f);
  EXPECT_EQ((Rgb8{c.r, c.g, c.b}), (Rgb8{inferno[0], inferno[1], inferno[2]}));
  const CloudVertex none = cloud_vertex(p, style, 5, 5, 30.0f, nullptr, -1.0f);
  EXPECT_EQ((Rgb8{none.r, none.g, none.b}), (Rgb8{64, 64, 64}));
}

// The host builder is cloud_vertex() at every pixel, with the image's colour and confidence.
TEST(PointCloud, HostBuilderEqualsTheProjectionMath) {
  SyntheticSceneConfig config;
  config.width = 83;
  config.height = 47;
  config.max_disparity = 24;
  const SyntheticFrame f = SyntheticScene(config).render(3);
  ImageF32 confidence(config.width, config.height);
  ImageF32 off_grid = f.ground_truth;
  for (int y = 0; y < config.height; ++y) {
    for (int x = 0; x < config.width; ++x) {
      confidence.at(x, y) = test::hash_value(x, y, 9) / 255.0f;
      if (test::hash_value(x, y, 2) < 20) off_grid.at(x, y) = kInvalidDisparity;
    }
  }
  // An engine's disparities lie on the 1/16 px grid (the depth colours' shortcut), the ground
  // truth's do not; a few are behind the camera.
  ImageF32 on_grid = off_grid;
  for (float& d : on_grid.pixels()) d = std::isfinite(d) ? std::round(d * 16.0f) / 16.0f - 1.0f : d;
  const CloudProjection p = metric_projection(70.0, 0.3, 41.0, 23.0, 0.0);
  for (const auto& [disparity, colour] :
       {std::pair{&off_grid, CloudColour::Image}, std::pair{&off_grid, CloudColour::Depth},
        std::pair{&off_grid, CloudColour::Confidence}, std::pair{&on_grid, CloudColour::Image},
        std::pair{&on_grid, CloudColour::Depth}, std::pair{&on_grid, CloudColour::Confidence}}) {
    CloudStyle style;
    style.colour = colour;
    style.depth_near = 1.0f;
    style.depth_far = 12.0f;
    style.min_confidence = 0.2f;
    std::vector<CloudVertex> vertices;
    build_cloud_vertices(*disparity, f.left, confidence, p, style, vertices);
    int shown = 0, hidden_count = 0;
    for (int y = 0; y < config.height; ++y) {
      for (int x = 0; x < config.width; ++x) {
        const Rgb8& c = f.left.at(x, y);
        const uint8_t rgb[3] = {c.r, c.g, c.b};
        const CloudVertex expected =
            cloud_vertex(p, style, x, y, disparity->at(x, y), rgb, confidence.at(x, y));
        const CloudVertex& got = vertices[static_cast<size_t>(y) * config.width + x];
        ASSERT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
            << x << "," << y << (disparity == &on_grid ? " on the grid" : " off the grid");
        (hidden(got) ? hidden_count : shown)++;
      }
    }
    EXPECT_GT(shown, 1000);
    EXPECT_GT(hidden_count, 500);  // the invalid pixels and those under the threshold
  }
}

TEST(PointCloud, ImagesOfAnotherSizeAreRefused) {
  std::vector<CloudVertex> vertices;
  const CloudProjection p = pixel_projection(8, 6, 16);
  EXPECT_THROW(build_cloud_vertices(ImageF32(8, 6, 1.0f), ImageRgb8(8, 5), ImageF32(), p,
                                    CloudStyle{}, vertices),
               InputError);
  EXPECT_THROW(build_cloud_vertices(ImageF32(8, 6, 1.0f), ImageRgb8(), ImageF32(7, 6), p,
                                    CloudStyle{}, vertices),
               InputError);
}

}  // namespace
}  // namespace sv
