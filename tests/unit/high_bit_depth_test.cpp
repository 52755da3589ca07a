// 16-bit input end to end on the CPU reference engine (src/core/high_bit_depth.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "tests/support/high_bit_depth_pairs.h"
#include "tests/support/test_images.h"
#include "tests/support/plain_matching.h"
#include "tests/support/fake_engine.h"

namespace sv {
namespace {

using test::count_equal;
using test::plain_census_sgm;

TEST(EightBitView, IsTheHighByte) {
  ImageU16 image(5, 1);
  const uint16_t values[] = {0, 255, 256, 0x12EF, 65535};
  for (int x = 0; x < 5; ++x) image.at(x, 0) = values[x];
  const ImageU8 view = eight_bit_view(image);
  EXPECT_EQ(view.at(0, 0), 0);
  EXPECT_EQ(view.at(1, 0), 0);
  EXPECT_EQ(view.at(2, 0), 1);
  EXPECT_EQ(view.at(3, 0), 0x12);
  EXPECT_EQ(view.at(4, 0), 255);
}

TEST(CpuEngine16, FindsTheDisparityOfTextureTheEightBitViewLoses) {
  const int shift = 6;
  const auto pair = test::low_byte_shifted_pair(80, 40, shift, 21);
  const StereoParams params = plain_census_sgm();
  // Interior: the census window (9x7) inside the image and the match inside the right image.
  const int x0 = shift + 4, x1 = 80 - 4, y0 = 3, y1 = 40 - 3;
  const int interior = (x1 - x0) * (y1 - y0);

  const DisparityResult deep = CpuEngine().compute(pair.left, pair.right, params);
  ASSERT_EQ(deep.disparity.width(), 80);
  EXPECT_GE(count_equal(deep.disparity, shift, x0, x1, y0, y1), interior * 99 / 100);

  // The same pair reduced to 8 bits is flat: nothing is found at the shift.
  const ImageU8 left8 = eight_bit_view(pair.left), right8 = eight_bit_view(pair.right);
  for (size_t i = 0; i < left8.size(); ++i) ASSERT_EQ(left8.data()[i], 0x40);
  const DisparityResult shallow = CpuEngine().compute(left8, right8, params);
  EXPECT_LT(count_equal(shallow.disparity, shift, x0, x1, y0, y1), interior / 10);
}

// On values v * 257 the 16-bit census sees the 8-bit order and the 8-bit view is v itself, so
// every stage (adaptive P2 and the confidence included) gives the 8-bit engine's result.
TEST(CpuEngine16, EqualsTheEightBitEngineOnWidenedValues) {
  const auto pair8 = test::shifted_pair(67, 33, 5, 22, 1);
  const ImageU16 left = test::widened(pair8.left), right = test::widened(pair8.right);
  for (const CensusWindow window : {CensusWindow::W5x5, CensusWindow::W9x7, CensusWindow::W11x11}) {
    for (const bool adaptive : {false, true}) {
      StereoParams params;
      params.num_disparities = 24;
      params.census = window;
      params.adaptive_p2 = adaptive;
      const std::string what = std::string(census_window_name(window)) + (adaptive ? " adaptive P2" : "");
      const DisparityResult r8 = CpuEngine().compute(pair8.left, pair8.right, params);
      const DisparityResult r16 = CpuEngine().compute(left, right, params);
      EXPECT_EQ(r16.disparity_fixed, r8.disparity_fixed) << what;
    }
  }
  // A missing value m of the 8-bit pair is m * 257 in the widened one.
  ImageU8 holed_left = pair8.left, holed_right = pair8.right;
  for (auto* image : {&holed_left, &holed_right})
    for (auto& v : image->pixels()) v = v < 20 ? 7 : v;
  StereoParams params;
  params.num_disparities = 24;
  params.missing_value = 7;
  const DisparityResult r8 = CpuEngine().compute(holed_left, holed_right, params);
  params.missing_value = 7 * 257;
  const DisparityResult r16 =
      CpuEngine().compute(test::widened(holed_left), test::widened(holed_right), params);
  EXPECT_EQ(r16.disparity_fixed, r8.disparity_fixed);
}

// Both views hold a block of the missing value 0, the right one 2 px left of the left one: a
// decoy at disparity 2 inside a scene at disparity 6. Without missing-value the blocks match
// each other; with it their pixels never match and take the surrounding disparity from SGM.
TEST(CpuEngine16, MissingPixelsNeverMatch) {
  const int shift = 6, decoy = 2;
  auto pair = test::low_byte_shifted_pair(96, 48, shift, 23);
  const int bx = 40, by = 14, bw = 20, bh = 20;
  test::fill_block(pair.left, bx, by, bw, bh, 0);
  test::fill_block(pair.right, bx - decoy, by, bw, bh, 0);
  StereoParams params = plain_census_sgm();
  params.uniqueness = 0;
  const int block = bw * bh;

  const DisparityResult fooled = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_GT(count_equal(fooled.disparity, decoy, bx, bx + bw, by, by + bh), block / 4);

  params.missing_value = 0;
  const DisparityResult masked = CpuEngine().compute(pair.left, pair.right, params);
  EXPECT_EQ(count_equal(masked.disparity, decoy, bx, bx + bw, by, by + bh), 0);
  EXPECT_GE(count_equal(masked.disparity, shift, bx, bx + bw, by, by + bh), block * 95 / 100);
  // Around the block the texture still matches at the shift.
  EXPECT_GE(count_equal(masked.disparity, shift, shift + 4, bx - 6, 3, 45), (bx - 10 - shift) * 42 * 98 / 100);
}

TEST(CpuEngine16, MissingValueIsAnInputValueOfEitherDepth) {
  StereoParams params = plain_census_sgm();
  params.missing_value = 300;  // fits 16 bits, not 8
  const auto pair16 = test::low_byte_shifted_pair(32, 16, 2, 24);
  EXPECT_NO_THROW(CpuEngine().compute(pair16.left, pair16.right, params));
  const auto pair8 = test::shifted_pair(32, 16, 2, 24);
  try {
    CpuEngine().compute(pair8.left, pair8.right, params);
    FAIL() << "8-bit input accepted missing value 300";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("300"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("8-bit"), std::string::npos) << e.what();
  }
  params.missing_value = 65536;
  EXPECT_THROW(CpuEngine().compute(pair16.left, pair16.right, params), InputError);
  EXPECT_FALSE(params.validate().empty());
}

TEST(CpuEngine16, RefusesWhatOnlyEightBitsCanDo) {
  const auto pair = test::low_byte_shifted_pair(64, 32, 2, 25);
  StereoParams params = plain_census_sgm();
  CpuEngine engine;
  EXPECT_TRUE(engine.supports_high_bit_depth(params));

  params.algorithm = "bm-sad";
  EXPECT_FALSE(engine.supports_high_bit_depth(params));
  EXPECT_THROW(engine.compute(pair.left, pair.right, params), InputError);

  params.algorithm = "census-sgm";
  params.pyramid_levels = 1;  // reduced at full depth (full_depth_pyramid_test.cpp)
  EXPECT_TRUE(engine.supports_high_bit_depth(params));
  EXPECT_TRUE(high_bit_depth_problem(params).empty()) << high_bit_depth_problem(params);

  params.pyramid_levels = 0;
  EXPECT_THROW(engine.compute(pair.left, ImageU16(63, 32), params), InputError);
  EXPECT_THROW(engine.compute(ImageU16(), ImageU16(), params), InputError);
}

// An engine with only the 8-bit compute: the interface's default refuses 16-bit input, and the
// frame loops' routing then uses the 8-bit views.
class EightBitOnlyEngine : public test::FakeEngine {
 public:
  using StereoEngine::compute;
  std::string name() const override { return "eight-bit"; }
  DisparityResult match(const ImageU8& left, const ImageU8&, const StereoParams&) override {
    DisparityResult r;
    r.disparity = ImageF32(left.width(), left.height(), 8.0f);
    return r;
  }
};

TEST(MatchAtFullDepth, UsesThePlanesOnlyWhenTheEngineTakesThem) {
  const auto pair = test::low_byte_shifted_pair(64, 32, 6, 26);
  const ImageU8 left8 = eight_bit_view(pair.left), right8 = eight_bit_view(pair.right);
  const StereoParams params = plain_census_sgm();

  EightBitOnlyEngine eight;
  EXPECT_THROW(eight.compute(pair.left, pair.right, params), InputError);
  EXPECT_EQ(match_at_full_depth(eight, left8, right8, ImageF32(), ImageF32(), pair.left, pair.right,
                                params)
                .disparity.at(20, 10),
            8.0f);
  EXPECT_NE(high_bit_depth_fallback_note(eight, params).find("eight-bit engine"),
            std::string::npos);

  CpuEngine cpu;
  EXPECT_EQ(high_bit_depth_fallback_note(cpu, params), "");
  const DisparityResult deep = match_at_full_depth(cpu, left8, right8, ImageF32(), ImageF32(),
                                                   pair.left, pair.right, params);
  EXPECT_EQ(deep.disparity.at(30, 16), 6.0f);  // only the 16-bit values have the texture
  const DisparityResult no_planes = match_at_full_depth(cpu, left8, right8, ImageF32(), ImageF32(),
                                                        ImageU16(), ImageU16(), params);
  EXPECT_EQ(no_planes.disparity_fixed, cpu.compute(left8, right8, params).disparity_fixed);

  StereoParams bm = params;
  bm.algorithm = "bm-sad";
  EXPECT_NE(high_bit_depth_fallback_note(cpu, bm).find("bm-sad"), std::string::npos);
  EXPECT_EQ(
      match_at_full_depth(cpu, left8, right8, ImageF32(), ImageF32(), pair.left, pair.right, bm)
          .disparity_fixed,
      cpu.compute(left8, right8, bm).disparity_fixed);
}

}  // namespace
}  // namespace sv
