#include "src/core/synthetic_scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr int kMaxDisparity = 48;

SyntheticSceneConfig test_config(uint32_t seed = 1) {
  SyntheticSceneConfig config;
  config.width = kWidth;
  config.height = kHeight;
  config.max_disparity = kMaxDisparity;
  config.seed = seed;
  return config;
}

// Frame 0 of the default test scene, rendered once for the tests that only read it.
const SyntheticFrame& frame_zero() {
  static const SyntheticFrame frame = SyntheticScene(test_config()).render(0);
  return frame;
}

// Bilinear sample of one channel of an RGB image (x inside [0, width - 1]).
double sample_channel(const ImageRgb8& image, double x, int y, int channel) {
  const int x0 = static_cast<int>(std::floor(x));
  const int x1 = std::min(x0 + 1, image.width() - 1);
  const double w = x - x0;
  const auto value = [&](int xi) {
    const Rgb8& p = image.at(xi, y);
    return channel == 0 ? p.r : (channel == 1 ? p.g : p.b);
  };
  return (1.0 - w) * value(x0) + w * value(x1);
}

// Mean absolute colour difference between left (x, y) and right (x - gt - offset, y) over
// every other non-occluded pixel away from discontinuities.
double mean_match_error(const SyntheticFrame& f, double offset) {
  double total = 0.0;
  long count = 0;
  for (int y = 0; y < f.left.height(); y += 2) {
    for (int x = 0; x < f.left.width(); x += 2) {
      if (!f.nonoccluded_mask.at(x, y) || f.discontinuity_mask.at(x, y)) continue;
      const double xr = x - f.ground_truth.at(x, y) - offset;
      if (xr < 0.0 || xr > f.left.width() - 1) continue;
      const Rgb8& l = f.left.at(x, y);
      total += std::fabs(l.r - sample_channel(f.right, xr, y, 0)) +
               std::fabs(l.g - sample_channel(f.right, xr, y, 1)) +
               std::fabs(l.b - sample_channel(f.right, xr, y, 2));
      count += 3;
    }
  }
  EXPECT_GT(count, 3 * 5000);
  return total / count;
}

long count_differences(const ImageRgb8& a, const ImageRgb8& b) {
  long n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += a.data()[i] != b.data()[i];
  return n;
}

// FNV-1a over the bytes of every image of a frame: a fingerprint that changes with any bit.
uint64_t digest(const SyntheticFrame& f) {
  uint64_t h = 0xCBF29CE484222325ull;
  const auto add = [&h](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  };
  add(f.left.data(), f.left.size() * sizeof(Rgb8));
  add(f.right.data(), f.right.size() * sizeof(Rgb8));
  add(f.ground_truth.data(), f.ground_truth.size() * sizeof(float));
  add(f.nonoccluded_mask.data(), f.nonoccluded_mask.size());
  add(f.discontinuity_mask.data(), f.discontinuity_mask.size());
  return h;
}

// The frames the renderer gave before it was made faster (recorded from commit 4040f4a's
// renderer), bit for bit: the accuracy tests' ground truth and every scene test depend on them.
TEST(SyntheticScene, FramesAreBitIdenticalToTheRecordedOnes) {
  struct Recorded {
    int width, height, max_disparity;
    uint32_t seed;
    int frame;
    uint64_t digest;
  };
  const Recorded recorded[] = {
      {640, 480, 64, 1, 0, 0xC90A97264D6A6922ull},
      {640, 480, 128, 1, 37, 0x83046E22E59FEC0Cull},
      {97, 31, 20, 9, 5, 0xD2D0E15F6F012926ull},
      {320, 240, 48, 3, -11, 0x5246C5BF0BC9DA19ull},
      {1, 1, 1, 1, 2, 0x72E3B281E6FC6999ull},
  };
  for (const Recorded& r : recorded) {
    SyntheticSceneConfig config;
    config.width = r.width;
    config.height = r.height;
    config.max_disparity = r.max_disparity;
    config.seed = r.seed;
    const uint64_t got = digest(SyntheticScene(config).render(r.frame));
    EXPECT_EQ(got, r.digest) << r.width << "x" << r.height << " frame " << r.frame << ": 0x"
                             << std::hex << got;
  }
}

TEST(SyntheticScene, ViewsAloneAreTheFramesViews) {
  const SyntheticScene scene(test_config(4));
  const SyntheticFrame whole = scene.render(9);
  const SyntheticFrame views = scene.render_views(9);
  EXPECT_EQ(views.index, 9);
  EXPECT_EQ(views.timestamp_s, whole.timestamp_s);
  EXPECT_EQ(views.left, whole.left);
  EXPECT_EQ(views.right, whole.right);
  EXPECT_TRUE(views.ground_truth.empty());
}

TEST(SyntheticScene, SameSeedGivesIdenticalFramesOtherSeedDiffers) {
  const SyntheticFrame a = SyntheticScene(test_config(5)).render(3);
  const SyntheticFrame b = SyntheticScene(test_config(5)).render(3);
  EXPECT_EQ(a.left, b.left);
  EXPECT_EQ(a.right, b.right);
  EXPECT_EQ(a.ground_truth, b.ground_truth);
  EXPECT_EQ(a.nonoccluded_mask, b.nonoccluded_mask);
  EXPECT_EQ(a.discontinuity_mask, b.discontinuity_mask);

  const SyntheticFrame c = SyntheticScene(test_config(6)).render(3);
  EXPECT_GT(count_differences(a.left, c.left), static_cast<long>(a.left.size() / 2));
}

TEST(SyntheticScene, ThreadCountDoesNotChangeTheFrame) {
  const SyntheticScene scene(test_config(2));
  set_worker_count(1);
  const SyntheticFrame serial = scene.render(4);
  set_worker_count(3);
  const SyntheticFrame parallel = scene.render(4);
  set_worker_count(0);
  EXPECT_EQ(serial.left, parallel.left);
  EXPECT_EQ(serial.right, parallel.right);
  EXPECT_EQ(serial.ground_truth, parallel.ground_truth);
  EXPECT_EQ(serial.nonoccluded_mask, parallel.nonoccluded_mask);
}

TEST(SyntheticScene, GroundTruthIsFiniteAndInsideTheRange) {
  const SyntheticFrame& f = frame_zero();
  ASSERT_TRUE(f.ground_truth.same_size(kWidth, kHeight));
  float lowest = kMaxDisparity, highest = 0.0f;
  for (float d : f.ground_truth.pixels()) {
    ASSERT_TRUE(std::isfinite(d));
    lowest = std::min(lowest, d);
    highest = std::max(highest, d);
  }
  EXPECT_GT(lowest, 0.0f);
  EXPECT_LT(highest, static_cast<float>(kMaxDisparity));
  // The wall sits at a tenth of the range, the near post just below the maximum.
  EXPECT_NEAR(lowest, kMaxDisparity / 10.0f, 0.5f);
  EXPECT_GT(highest, 0.85f * kMaxDisparity);
}

TEST(SyntheticScene, HandCheckedDepthsAtFrameZero) {
  const SyntheticFrame& f = frame_zero();
  // Top-left corner is back wall at depth 10: disparity D / 10 everywhere there.
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 12; ++x) EXPECT_FLOAT_EQ(f.ground_truth.at(x, y), kMaxDisparity / 10.0f);
  }
  // The bottom row's centre sees the ground at depth 1.7 by construction.
  EXPECT_NEAR(f.ground_truth.at(kWidth / 2, kHeight - 1), kMaxDisparity / 1.7f, 1e-3f);
  // The ground's disparity grows steadily towards the bottom (a slanted surface).
  for (int y = kHeight - 40; y < kHeight - 1; ++y) {
    EXPECT_LT(f.ground_truth.at(kWidth / 2, y), f.ground_truth.at(kWidth / 2, y + 1));
  }
}

TEST(SyntheticScene, WallHasALowTexturePatchAndAnEightPixelStripeRegion) {
  const ImageU8 gray = to_gray(frame_zero().left);
  const auto range_around = [&](int cx, int cy) {
    int lo = 255, hi = 0;
    for (int y = cy - 4; y <= cy + 4; ++y) {
      for (int x = cx - 4; x <= cx + 4; ++x) {
        lo = std::min<int>(lo, gray.at(x, y));
        hi = std::max<int>(hi, gray.at(x, y));
      }
    }
    return hi - lo;
  };
  // The patch's centre is at about (W/8, 0.16 H): nearly flat there, textured elsewhere.
  EXPECT_LE(range_around(kWidth / 8, kHeight * 16 / 100), 3);
  EXPECT_GT(range_around(kWidth * 3 / 4, kHeight / 20 + 4), 20);
  // The stripes (centre about (0.46 W, 0.16 H)) repeat every 8 px, so shifting by a period
  // matches while shifting by half a period does not.
  const int y = kHeight * 16 / 100;
  double same_phase = 0.0, opposite_phase = 0.0;
  for (int x = kWidth * 42 / 100; x < kWidth * 42 / 100 + 16; ++x) {
    same_phase += std::abs(gray.at(x, y) - gray.at(x + 8, y));
    opposite_phase += std::abs(gray.at(x, y) - gray.at(x + 4, y));
  }
  EXPECT_LT(same_phase / 16, 2.0);
  EXPECT_GT(opposite_phase / 16, 25.0);
}

TEST(SyntheticScene, LeftColourMatchesRightColourAtGroundTruth) {
  for (int index : {0, 7}) {
    const SyntheticFrame f = SyntheticScene(test_config()).render(index);
    const double at_truth = mean_match_error(f, 0.0);
    const double one_pixel_off = mean_match_error(f, 1.0);
    EXPECT_LT(at_truth, 1.5) << "frame " << index;
    // The texture is strong enough that one pixel of error is clearly visible.
    EXPECT_GT(one_pixel_off, 4.0 * at_truth) << "frame " << index;
  }
}

TEST(SyntheticScene, BackgroundLeftOfTheNearPostIsOccluded) {
  const SyntheticFrame& f = frame_zero();
  int rows_checked = 0;
  for (int y = 0; y < kHeight; ++y) {
    // The post's left edge: the first pixel of the row with near disparity.
    int edge = -1;
    for (int x = 1; x < kWidth; ++x) {
      if (f.ground_truth.at(x, y) > 0.85f * kMaxDisparity) {
        edge = x;
        break;
      }
    }
    if (edge < 0) continue;
    ++rows_checked;
    const float near = f.ground_truth.at(edge, y);
    const float background = f.ground_truth.at(edge - 1, y);
    ASSERT_LT(background, 0.8f * near);
    // The right camera sees round the post's left side less than the left one: about
    // (near - background) pixels of background just left of the edge are hidden.
    const int hidden = static_cast<int>(near - background);
    for (int x = edge - hidden + 1; x < edge; ++x) {
      EXPECT_EQ(f.nonoccluded_mask.at(x, y), 0) << "x " << x << " y " << y;
    }
    if (edge - hidden - 2 >= 0) {
      EXPECT_EQ(f.nonoccluded_mask.at(edge - hidden - 2, y), 255) << "y " << y;
    }
    EXPECT_EQ(f.nonoccluded_mask.at(edge, y), 255);
  }
  EXPECT_GT(rows_checked, kHeight / 3);
}

TEST(SyntheticScene, OccludedPixelsHaveANearerSurfaceToTheirRight) {
  const SyntheticFrame& f = frame_zero();
  long occluded_inside = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const float d = f.ground_truth.at(x, y);
      if (x - d < -0.5f) {
        EXPECT_EQ(f.nonoccluded_mask.at(x, y), 0);  // projects outside the right image
        continue;
      }
      if (f.nonoccluded_mask.at(x, y)) continue;
      ++occluded_inside;
      bool nearer = false;
      for (int xx = x + 1; xx < kWidth && !nearer; ++xx)
        nearer = f.ground_truth.at(xx, y) > d + 0.05f;
      EXPECT_TRUE(nearer) << "x " << x << " y " << y;
    }
  }
  EXPECT_GT(occluded_inside, 500);
  // Column 0 projects left of the right image everywhere (disparity >= D / 10 > 0.5).
  for (int y = 0; y < kHeight; ++y) EXPECT_EQ(f.nonoccluded_mask.at(0, y), 0);
}

TEST(SyntheticScene, DiscontinuityMaskSurroundsDepthJumpsOnly) {
  const SyntheticFrame& f = frame_zero();
  long marked = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const uint8_t m = f.discontinuity_mask.at(x, y);
      ASSERT_TRUE(m == 0 || m == 255);
      if (!m) continue;
      ++marked;
      EXPECT_EQ(f.nonoccluded_mask.at(x, y), 255);
      // Some pair of 4-neighbours within the 9x9 window differs by more than 1 px.
      float lo = 1e9f, hi = -1e9f;
      for (int dy = -5; dy <= 5; ++dy) {
        for (int dx = -5; dx <= 5; ++dx) {
          const float d = f.ground_truth.clamped(x + dx, y + dy);
          lo = std::min(lo, d);
          hi = std::max(hi, d);
        }
      }
      EXPECT_GT(hi - lo, 1.0f) << "x " << x << " y " << y;
    }
  }
  EXPECT_GT(marked, 500);
  // Right of the post's edge (inside it) the mask is set; the flat wall corner is clear.
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 12; ++x) EXPECT_EQ(f.discontinuity_mask.at(x, y), 0);
  }
}

TEST(SyntheticScene, FramesChangeOverTime) {
  const SyntheticScene scene(test_config());
  const SyntheticFrame later = scene.render(15);
  EXPECT_EQ(later.index, 15);
  EXPECT_DOUBLE_EQ(later.timestamp_s, 0.5);
  EXPECT_DOUBLE_EQ(frame_zero().timestamp_s, 0.0);
  EXPECT_GT(count_differences(frame_zero().left, later.left),
            static_cast<long>(later.left.size() / 10));
  EXPECT_NE(frame_zero().ground_truth, later.ground_truth);
  // Slow motion: consecutive frames differ, but not everywhere.
  const SyntheticFrame next = scene.render(16);
  const long changed = count_differences(later.left, next.left);
  EXPECT_GT(changed, 0);
}

TEST(SyntheticScene, SmallAndOddSizesWork) {
  for (auto size :
       {std::pair<int, int>{64, 48}, std::pair<int, int>{37, 29}, std::pair<int, int>{1, 1}}) {
    SyntheticSceneConfig config;
    config.width = size.first;
    config.height = size.second;
    config.max_disparity = 16;
    const SyntheticFrame f = SyntheticScene(config).render(2);
    ASSERT_TRUE(f.left.same_size(size.first, size.second));
    ASSERT_TRUE(f.right.same_size(f.left));
    ASSERT_TRUE(f.ground_truth.same_size(f.left));
    ASSERT_TRUE(f.nonoccluded_mask.same_size(f.left));
    ASSERT_TRUE(f.discontinuity_mask.same_size(f.left));
    for (float d : f.ground_truth.pixels()) {
      EXPECT_TRUE(std::isfinite(d));
      EXPECT_GT(d, 0.0f);
      EXPECT_LT(d, 16.0f);
    }
  }
  SyntheticSceneConfig config;
  config.width = 37;
  config.height = 29;
  config.max_disparity = 16;
  const SyntheticFrame f = SyntheticScene(config).render(0);
  // Even this small, the left-most columns are occluded and most pixels are not.
  long visible = 0;
  for (uint8_t m : f.nonoccluded_mask.pixels()) visible += m == 255;
  EXPECT_GT(visible, static_cast<long>(f.nonoccluded_mask.size() / 2));
  EXPECT_EQ(f.nonoccluded_mask.at(0, 0), 0);
}

TEST(SyntheticScene, InvalidConfigurationIsRejected) {
  SyntheticSceneConfig config;
  config.width = 0;
  EXPECT_THROW(SyntheticScene{config}, InputError);
  config = {};
  config.max_disparity = 0;
  EXPECT_THROW(SyntheticScene{config}, InputError);
}

}  // namespace
}  // namespace sv
