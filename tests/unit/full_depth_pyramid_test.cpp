// The coarse-to-fine pyramid on 16-bit and float input (src/core/pyramid.cpp): the full-depth 2x2
// reductions on hand-worked blocks, then the CPU engine with pyramid levels on scenes whose
// texture only the full depth holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/pyramid.h"
#include "tests/support/float_pairs.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/plain_matching.h"
#include "tests/support/synthetic_frames.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::count_equal;
using test::plain_census_sgm;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A 2x2 image a b / c d: one output pixel, its four samples in the definition's order.
template <typename T>
Image<T> block(T a, T b, T c, T d) {
  Image<T> image(2, 2);
  image.at(0, 0) = a;
  image.at(1, 0) = b;
  image.at(0, 1) = c;
  image.at(1, 1) = d;
  return image;
}

uint16_t reduce16(uint16_t a, uint16_t b, uint16_t c, uint16_t d, int missing) {
  const ImageU16 out = downsample_2x2(block(a, b, c, d), missing);
  EXPECT_EQ(out.width(), 1);
  EXPECT_EQ(out.height(), 1);
  return out.at(0, 0);
}

float reducef(float a, float b, float c, float d, float missing = kNaN) {
  const ImageF32 out = downsample_2x2(block(a, b, c, d), missing);
  EXPECT_EQ(out.width(), 1);
  return out.at(0, 0);
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Pyramid16, AveragesFullValuesRoundingHalfUp) {
  // (1000 + 1001 + 1001 + 1001 + 2) / 4 = 1001; (1000 * 2 + 1001 * 2 + 2) / 4 = 1001 (1000.5 up).
  EXPECT_EQ(reduce16(1000, 1001, 1001, 1001, -1), 1001);
  EXPECT_EQ(reduce16(1000, 1000, 1001, 1001, -1), 1001);
  EXPECT_EQ(reduce16(1000, 1000, 1000, 1001, -1), 1000);  // 1000.25
  // Values that differ only in the low byte keep their difference.
  EXPECT_EQ(reduce16(0x4001, 0x4003, 0x4005, 0x4007, -1), 0x4004);
  EXPECT_EQ(reduce16(65535, 65535, 65535, 65535, -1), 65535);  // no overflow
  EXPECT_EQ(reduce16(0, 0, 0, 1, -1), 0);
}

TEST(Pyramid16, LeavesMissingSamplesOutOfTheMean) {
  // Missing 0: three real samples 300, 301, 303 -> (904 + 1) / 3 = 301; never pulled toward 0.
  EXPECT_EQ(reduce16(300, 0, 301, 303, 0), 301);
  // Two real: (500 + 503 + 1) / 2 = 502 (501.5 rounds up); one real: itself.
  EXPECT_EQ(reduce16(0, 500, 0, 503, 0), 502);
  EXPECT_EQ(reduce16(0, 0, 0, 777, 0), 777);
  // No data at all stays missing.
  EXPECT_EQ(reduce16(0, 0, 0, 0, 0), 0);
  EXPECT_EQ(reduce16(4095, 4095, 4095, 4095, 4095), 4095);
  // Without a missing value the zeros are values.
  EXPECT_EQ(reduce16(300, 0, 301, 303, -1), 226);  // (904 + 2) / 4
}

TEST(Pyramid16, ARealMeanNeverLandsOnTheMissingValue) {
  // 99 and 101 around the missing value 100: the mean 100 is real data, moved to 101.
  EXPECT_EQ(reduce16(99, 101, 99, 101, 100), 101);
  EXPECT_EQ(reduce16(99, 100, 100, 101, 100), 101);
  // At the top of the range it moves down instead.
  EXPECT_EQ(reduce16(65534, 65535, 65535, 65535, 65535), 65534);
  EXPECT_EQ(reduce16(65533, 65535, 65535, 65535, 65535), 65533);
  // -1 is no missing value: nothing moves.
  EXPECT_EQ(reduce16(99, 101, 99, 101, -1), 100);
}

TEST(Pyramid16, OddSizesReplicateTheBorderAndLevelsChain) {
  ImageU16 image(3, 3);
  // 1000 2000 | 9000     (1000+2000+3000+5000+2)/4 = 2750; right column (9000*2+7000*2+2)/4 = 8000
  // 3000 5000 | 7000     bottom row (4000+6000)*2/4 = 5000; corner 8000
  // 4000 6000 | 8000
  const uint16_t values[] = {1000, 2000, 9000, 3000, 5000, 7000, 4000, 6000, 8000};
  std::copy(values, values + 9, image.data());
  const ImageU16 half = downsample_2x2(image, -1);
  ASSERT_EQ(half.width(), 2);
  ASSERT_EQ(half.height(), 2);
  EXPECT_EQ(half.at(0, 0), 2750);
  EXPECT_EQ(half.at(1, 0), 8000);
  EXPECT_EQ(half.at(0, 1), 5000);
  EXPECT_EQ(half.at(1, 1), 8000);

  const auto levels = build_pyramid(image, 2, -1);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0], image);
  EXPECT_EQ(levels[1], half);
  ASSERT_EQ(levels[2].width(), 1);
  EXPECT_EQ(levels[2].at(0, 0), (2750 + 8000 + 5000 + 8000 + 2) / 4);

  EXPECT_THROW(downsample_2x2(image, 65536), InputError);
  EXPECT_THROW(downsample_2x2(image, -2), InputError);
}

TEST(PyramidFloat, AveragesInDoubleAndRoundsOnceToFloat) {
  EXPECT_EQ(reducef(1.0f, 2.0f, 3.0f, 4.0f), 2.5f);
  // 4/3 in double, then to float: the nearest float to 1.3333...
  EXPECT_TRUE(same_bits(reducef(1.0f, 1.0f, 2.0f, kNaN), static_cast<float>(4.0 / 3.0)));
  // Differences far below one gray level survive: 100 + 1e-5 steps.
  const float a = 100.0f, b = std::nextafter(100.0f, 200.0f);
  EXPECT_EQ(reducef(a, b, a, b), static_cast<float>((2.0 * a + 2.0 * b) / 4.0));
  EXPECT_NE(reducef(b, b, b, b), reducef(a, a, a, a));
  // The largest floats do not overflow (a float sum would): the mean is the value itself.
  const float big = std::numeric_limits<float>::max();
  EXPECT_EQ(reducef(big, big, big, big), big);
  // Subnormals are kept, not flushed.
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(reducef(tiny * 4, tiny * 4, tiny * 4, tiny * 4), tiny * 4);
}

TEST(PyramidFloat, NanAndTheMissingValueStayMissing) {
  EXPECT_EQ(reducef(kNaN, 10.0f, kNaN, 20.0f), 15.0f);
  EXPECT_TRUE(std::isnan(reducef(kNaN, kNaN, kNaN, kNaN)));
  // The designated missing value is left out like NaN; an all-missing block becomes NaN.
  EXPECT_EQ(reducef(0.0f, 10.0f, -0.0f, 20.0f, 0.0f), 15.0f);
  EXPECT_TRUE(std::isnan(reducef(0.0f, 0.0f, -0.0f, 0.0f, 0.0f)));
  // Infinities are values; both signs in one block have no mean (NaN, so missing).
  EXPECT_EQ(reducef(kInf, 1.0f, 2.0f, 3.0f), kInf);
  EXPECT_TRUE(std::isnan(reducef(kInf, -kInf, 2.0f, 3.0f)));
  // A real mean equal to the missing value moves to the next float above it.
  EXPECT_TRUE(same_bits(reducef(-1.0f, 1.0f, -1.0f, 1.0f, 0.0f), std::numeric_limits<float>::denorm_min()));
  EXPECT_TRUE(same_bits(reducef(4.0f, 6.0f, 4.0f, 6.0f, 5.0f), std::nextafter(5.0f, 6.0f)));
  EXPECT_EQ(reducef(4.0f, 6.0f, 4.0f, 6.0f), 5.0f);

  const auto levels = build_pyramid(ImageF32(9, 5, 2.0f), 2, kNaN);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[1].width(), 5);
  EXPECT_EQ(levels[2].width(), 3);
  EXPECT_EQ(levels[2].height(), 2);
  EXPECT_EQ(levels[2].at(2, 1), 2.0f);
}

// A pair whose texture the 8-bit view loses: with pyramid levels 1 and 2 the CPU engine finds
// the shift on at least 98 % of the interior (the coarse census runs), while the 8-bit view that
// `flatten(pair, params)` makes matches it on under 10 %. `supported(engine, params)`: the
// engine takes the pair's depth with these parameters.
template <typename Pair, typename Supported, typename Flatten>
void expect_pyramid_finds_lost_texture(const Pair& pair, int shift, Supported supported,
                                       Flatten flatten) {
  const int width = pair.left.width(), height = pair.left.height();
  const int x0 = shift + 4, x1 = width - 4, y0 = 3, y1 = height - 3;
  const int interior = (x1 - x0) * (y1 - y0);
  for (const int levels : {1, 2}) {
    StereoParams params = plain_census_sgm();
    params.num_disparities = 32;
    params.pyramid_levels = levels;
    CpuEngine engine;
    ASSERT_TRUE(supported(engine, params));
    const DisparityResult deep = engine.compute(pair.left, pair.right, params);
    EXPECT_GE(count_equal(deep.disparity, shift, x0, x1, y0, y1), interior * 98 / 100) << levels;
    const std::string coarse_census = "L" + std::to_string(levels) + " census";
    EXPECT_TRUE(std::any_of(deep.timings.stages.begin(), deep.timings.stages.end(),
                            [&](const StageTiming& t) { return t.stage == coarse_census; }))
        << levels;

    const auto [left8, right8] = flatten(pair, params);
    const DisparityResult shallow = engine.compute(left8, right8, params);
    EXPECT_LT(count_equal(shallow.disparity, shift, x0, x1, y0, y1), interior / 10) << levels;
  }
}

// The texture lives only in the low byte (the 8-bit view is flat): with the pyramid every level's
// census still sees it, so the shift is found on the coarse levels and refined.
TEST(CpuEngine16Pyramid, FindsTheDisparityOfTextureTheEightBitViewLoses) {
  const int shift = 12;
  expect_pyramid_finds_lost_texture(
      test::low_byte_shifted_pair(96, 64, shift, 41), shift,
      [](CpuEngine& e, const StereoParams& p) { return e.supports_high_bit_depth(p); },
      [](const auto& pair, const StereoParams&) {
        return std::make_pair(eight_bit_view(pair.left), eight_bit_view(pair.right));
      });
}

// The synthetic scene's gray v stored as 0x4000 + v: the high byte is flat, and every reduced
// level is 0x4000 + the 8-bit reduction of v (the constant adds through the rounding), so the
// 16-bit pyramid must give the 8-bit pyramid's disparities exactly, and they must be right.
TEST(CpuEngine16Pyramid, MatchesALowByteSceneLikeTheEightBitPyramid) {
  const int width = 160, height = 120, disparities = 32;
  const SyntheticFrame frame = test::render_synthetic(width, height, disparities - 4, 3);
  const ImageU8 left8 = to_gray(frame.left), right8 = to_gray(frame.right);
  ImageU16 left(width, height), right(width, height);
  for (size_t i = 0; i < left8.size(); ++i) {
    left.data()[i] = static_cast<uint16_t>(0x4000 + left8.data()[i]);
    right.data()[i] = static_cast<uint16_t>(0x4000 + right8.data()[i]);
  }
  for (const int levels : {1, 2}) {
    StereoParams params;
    params.num_disparities = disparities;
    params.pyramid_levels = levels;
    const DisparityResult r8 = CpuEngine().compute(left8, right8, params);
    const DisparityResult r16 = CpuEngine().compute(left, right, params);
    EXPECT_EQ(r16.disparity_fixed, r8.disparity_fixed) << levels;

    int good = 0, counted = 0;
    for (int y = 0; y < height; ++y) {
      for (int x = disparities; x < width; ++x) {
        if (frame.nonoccluded_mask.at(x, y) == 0 || frame.discontinuity_mask.at(x, y) != 0) continue;
        ++counted;
        const float d = r16.disparity.at(x, y);
        good += is_valid_disparity(d) && std::abs(d - frame.ground_truth.at(x, y)) <= 1.0f;
      }
    }
    ASSERT_GT(counted, width * height / 3);
    EXPECT_GE(good, counted * 93 / 100) << levels << ": " << good << " of " << counted;
  }
}

// A block of the missing value 0 in both views, the right one 2 px left of the left one: a
// decoy at disparity 4 inside a scene at disparity 6, inside the +-2 refinement window. As plain
// values the flat blocks match each other wherever they overlap, and a good part of the block
// leaves the shift; with the missing value the block stays missing on every level, so neither
// the coarse estimate nor the refinement takes the decoy and SGM carries the scene's disparity.
TEST(CpuEngine16Pyramid, MissingPixelsNeverMatchOnAnyLevel) {
  const int shift = 6, decoy = 4;
  auto pair = test::low_byte_shifted_pair(128, 64, shift, 43);
  const int bx = 48, by = 16, bw = 32, bh = 32, block_pixels = bw * bh;
  test::fill_block(pair.left, bx, by, bw, bh, 0);
  test::fill_block(pair.right, bx - (shift - decoy), by, bw, bh, 0);
  StereoParams params = plain_census_sgm();
  params.uniqueness = 0;
  params.pyramid_levels = 1;

  const DisparityResult fooled = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_LT(count_equal(fooled.disparity, shift, bx, bx + bw, by, by + bh), block_pixels * 4 / 5);
  EXPECT_GT(count_equal(fooled.disparity, decoy, bx, bx + bw, by, by + bh), 0);

  params.missing_value = 0;
  const DisparityResult masked = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_EQ(count_equal(masked.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(masked.disparity, shift, bx, bx + bw, by, by + bh), block_pixels * 95 / 100);
  EXPECT_GE(count_equal(masked.disparity, shift, shift + 4, bx - 6, 3, 61),
            (bx - 10 - shift) * 58 * 98 / 100);
}

// Texture inside less than half a gray level (the 8-bit view is flat): found through the float
// pyramid.
TEST(CpuEngineFloatPyramid, FindsTheDisparityOfTextureBelowOneGrayLevel) {
  const int shift = 12;
  expect_pyramid_finds_lost_texture(
      test::sub_gray_shifted_pair(96, 64, shift, 45), shift,
      [](CpuEngine& e, const StereoParams& p) { return e.supports_float_input(p); },
      [](const auto& pair, const StereoParams& params) {
        const FloatViewRange range = float_view_range(pair.left, pair.right, params);
        return std::make_pair(eight_bit_view(pair.left, range), eight_bit_view(pair.right, range));
      });
}

// The decoy block of MissingPixelsNeverMatchOnAnyLevel as 0 (plain values), NaN and the missing
// value 0.
TEST(CpuEngineFloatPyramid, NanAndMissingPixelsNeverMatchOnAnyLevel) {
  const int shift = 6, decoy = 4;
  const int bx = 48, by = 16, bw = 32, bh = 32, block_pixels = bw * bh;
  StereoParams params = plain_census_sgm();
  params.uniqueness = 0;
  params.pyramid_levels = 1;
  const auto holed = [&](float value) {
    auto pair = test::sub_gray_shifted_pair(128, 64, shift, 47);
    test::fill_block(pair.left, bx, by, bw, bh, value);
    test::fill_block(pair.right, bx - (shift - decoy), by, bw, bh, value);
    return pair;
  };

  const auto zeros = holed(0.0f);
  const DisparityResult fooled = CpuEngine().compute(zeros.left, zeros.right, params);
  EXPECT_LT(count_equal(fooled.disparity, shift, bx, bx + bw, by, by + bh), block_pixels * 4 / 5);
  EXPECT_GT(count_equal(fooled.disparity, decoy, bx, bx + bw, by, by + bh), 0);

  const auto nans = holed(kNaN);
  const DisparityResult masked = CpuEngine().compute(nans.left, nans.right, params);
  EXPECT_EQ(count_equal(masked.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(masked.disparity, shift, bx, bx + bw, by, by + bh), block_pixels * 95 / 100);

  params.missing_value = 0;
  const DisparityResult missing = CpuEngine().compute(zeros.left, zeros.right, params);
  EXPECT_EQ(count_equal(missing.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(missing.disparity, shift, bx, bx + bw, by, by + bh), block_pixels * 95 / 100);
}

}  // namespace
}  // namespace sv
