// Float input end to end on the CPU reference engine (src/core/high_bit_depth.h, float_view_range).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "tests/support/float_pairs.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/test_images.h"
#include "tests/support/plain_matching.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

using test::count_equal;
using test::plain_census_sgm;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

ImageF32 row(std::initializer_list<float> values) {
  ImageF32 image(static_cast<int>(values.size()), 1);
  int x = 0;
  for (const float v : values) image.at(x++, 0) = v;
  return image;
}

TEST(FloatView, RangeSkipsNonFiniteAndMissingValues) {
  StereoParams params;
  const ImageF32 left = row({10.0f, kNaN, 20.0f}), right = row({kInf, -kInf, 12.0f});
  FloatViewRange range = float_view_range(left, right, params);
  EXPECT_EQ(range.lo, 10.0f);
  EXPECT_EQ(range.scale, 25.5f);  // 255 / (20 - 10)
  // The missing value 10 is no data: the range becomes 12..20.
  params.missing_value = 10;
  range = float_view_range(left, right, params);
  EXPECT_EQ(range.lo, 12.0f);
  EXPECT_EQ(range.scale, 255.0f / 8.0f);
  // A flat pair, or one without a finite value, has scale 0: an all-zero view.
  range = float_view_range(row({3.0f, 3.0f}), row({3.0f, kNaN}), StereoParams());
  EXPECT_EQ(range.scale, 0.0f);
  EXPECT_EQ(eight_bit_value(3.0f, range), 0);
  EXPECT_EQ(float_view_range(row({kNaN}), row({kInf}), StereoParams()).scale, 0.0f);
}

TEST(FloatView, ScalesClampsAndRoundsTiesToEven) {
  const FloatViewRange unit{0.0f, 1.0f};
  EXPECT_EQ(eight_bit_value(2.5f, unit), 2);    // tie to even
  EXPECT_EQ(eight_bit_value(3.5f, unit), 4);    // tie to even
  EXPECT_EQ(eight_bit_value(3.49f, unit), 3);
  EXPECT_EQ(eight_bit_value(-1.0f, unit), 0);   // clamped
  EXPECT_EQ(eight_bit_value(300.0f, unit), 255);
  EXPECT_EQ(eight_bit_value(kInf, unit), 255);
  EXPECT_EQ(eight_bit_value(-kInf, unit), 0);
  EXPECT_EQ(eight_bit_value(kNaN, unit), 0);
  const FloatViewRange tens{10.0f, 25.5f};  // the range 10..20
  EXPECT_EQ(eight_bit_value(10.0f, tens), 0);
  EXPECT_EQ(eight_bit_value(15.0f, tens), 128);  // 127.5, tie to even
  EXPECT_EQ(eight_bit_value(20.0f, tens), 255);
  const ImageU8 view = eight_bit_view(row({10.0f, 12.0f, kNaN}), tens);
  EXPECT_EQ(view.at(0, 0), 0);
  EXPECT_EQ(view.at(1, 0), 51);
  EXPECT_EQ(view.at(2, 0), 0);
}

TEST(CpuEngineFloat, FindsTheDisparityOfTextureBelowOneGrayLevel) {
  const int shift = 6;
  const auto pair = test::sub_gray_shifted_pair(80, 40, shift, 31);
  const StereoParams params = plain_census_sgm();
  const int x0 = shift + 4, x1 = 80 - 4, y0 = 3, y1 = 40 - 3;
  const int interior = (x1 - x0) * (y1 - y0);

  const DisparityResult deep = CpuEngine().compute(pair.left, pair.right, params);
  ASSERT_EQ(deep.disparity.width(), 80);
  EXPECT_GE(count_equal(deep.disparity, shift, x0, x1, y0, y1), interior * 99 / 100);

  // The pair's 8-bit view is flat 100 (the anchors aside): nothing is found at the shift.
  const FloatViewRange range = float_view_range(pair.left, pair.right, params);
  const ImageU8 left8 = eight_bit_view(pair.left, range), right8 = eight_bit_view(pair.right, range);
  for (size_t i = 2; i < left8.size(); ++i) ASSERT_EQ(left8.data()[i], 100) << i;
  const DisparityResult shallow = CpuEngine().compute(left8, right8, params);
  EXPECT_LT(count_equal(shallow.disparity, shift, x0, x1, y0, y1), interior / 10);
}

// A block of 0 in both views, the right one 2 px left of the left one: a decoy at disparity 2
// inside a scene at disparity 6. As plain values the blocks match each other; as NaN (always
// missing) or as the missing value they never match and take the scene's disparity from SGM.
TEST(CpuEngineFloat, NanAndMissingPixelsNeverMatch) {
  const int shift = 6, decoy = 2;
  const int bx = 40, by = 14, bw = 20, bh = 20, block = bw * bh;
  StereoParams params = plain_census_sgm();
  params.uniqueness = 0;
  const auto holed = [&](float value) {
    auto pair = test::sub_gray_shifted_pair(96, 48, shift, 33);
    test::fill_block(pair.left, bx, by, bw, bh, value);
    test::fill_block(pair.right, bx - decoy, by, bw, bh, value);
    return pair;
  };

  const auto zeros = holed(0.0f);
  const DisparityResult fooled = CpuEngine().compute(zeros.left, zeros.right, params);
  EXPECT_GT(count_equal(fooled.disparity, decoy, bx, bx + bw, by, by + bh), block / 4);

  const auto nans = holed(kNaN);
  const DisparityResult masked = CpuEngine().compute(nans.left, nans.right, params);
  EXPECT_EQ(count_equal(masked.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(masked.disparity, shift, bx, bx + bw, by, by + bh), block * 95 / 100);
  EXPECT_GE(count_equal(masked.disparity, shift, shift + 4, bx - 6, 3, 45),
            (bx - 10 - shift) * 42 * 98 / 100);

  params.missing_value = 0;
  const DisparityResult missing = CpuEngine().compute(zeros.left, zeros.right, params);
  EXPECT_EQ(count_equal(missing.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(missing.disparity, shift, bx, bx + bw, by, by + bh), block * 95 / 100);
}

TEST(CpuEngineFloat, RefusesWhatItCannotMatch) {
  const auto pair = test::sub_gray_shifted_pair(32, 16, 2, 34);
  StereoParams params = plain_census_sgm();
  CpuEngine engine;
  EXPECT_TRUE(engine.supports_float_input(params));
  params.pyramid_levels = 1;  // reduced at full depth (full_depth_pyramid_test.cpp)
  EXPECT_TRUE(engine.supports_float_input(params));
  EXPECT_TRUE(float_input_problem(params).empty()) << float_input_problem(params);
  params = plain_census_sgm();
  params.algorithm = "bm-sad";
  EXPECT_FALSE(engine.supports_float_input(params));
  try {
    engine.compute(pair.left, pair.right, params);
    FAIL() << "bm-sad accepted float input";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("float"), std::string::npos) << e.what();
  }
  params = plain_census_sgm();
  EXPECT_THROW(engine.compute(pair.left, ImageF32(31, 16), params), InputError);
  EXPECT_THROW(engine.compute(ImageF32(), ImageF32(), params), InputError);
}

// An engine of the interface's defaults: 8-bit input only.
class EightBitOnlyEngine : public test::FakeEngine {
 public:
  std::string name() const override { return "eight-bit"; }
  DisparityResult match(const ImageU8& left, const ImageU8& right,
                          const StereoParams& params) override {
    return CpuEngine().compute(left, right, params);
  }
  using StereoEngine::compute;
};

TEST(MatchAtFullDepth, PrefersFloatThenSixteenBitThenEightBit) {
  const auto floats = test::sub_gray_shifted_pair(64, 24, 5, 35);
  const auto deep = test::low_byte_shifted_pair(64, 24, 3, 36);
  const auto pair8 = test::shifted_pair(64, 24, 8, 37);
  const StereoParams params = plain_census_sgm();
  const auto at = [](const DisparityResult& r) { return r.disparity.at(30, 12); };

  CpuEngine cpu;
  EXPECT_EQ(at(match_at_full_depth(cpu, pair8.left, pair8.right, floats.left, floats.right,
                                   deep.left, deep.right, params)), 5.0f);
  EXPECT_EQ(at(match_at_full_depth(cpu, pair8.left, pair8.right, ImageF32(), ImageF32(),
                                   deep.left, deep.right, params)), 3.0f);
  EXPECT_EQ(at(match_at_full_depth(cpu, pair8.left, pair8.right, ImageF32(), ImageF32(),
                                   ImageU16(), ImageU16(), params)), 8.0f);
  EXPECT_EQ(float_input_fallback_note(cpu, params), "");

  // An engine without float input gets the 8-bit views, and the note says why.
  EightBitOnlyEngine eight;
  EXPECT_EQ(at(match_at_full_depth(eight, pair8.left, pair8.right, floats.left, floats.right,
                                   ImageU16(), ImageU16(), params)), 8.0f);
  EXPECT_NE(float_input_fallback_note(eight, params).find("eight-bit engine"), std::string::npos);
  StereoParams bm = params;
  bm.algorithm = "bm-sad";
  EXPECT_NE(float_input_fallback_note(cpu, bm).find("bm-sad"), std::string::npos);
  EXPECT_EQ(match_at_full_depth(cpu, pair8.left, pair8.right, floats.left, floats.right,
                                ImageU16(), ImageU16(), bm).disparity_fixed,
            cpu.compute(pair8.left, pair8.right, bm).disparity_fixed);
}

}  // namespace
}  // namespace sv
