#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/error.h"

namespace sv {
namespace {

int popcount(uint64_t v) {
  int n = 0;
  for (; v != 0; v &= v - 1) ++n;
  return n;
}

ImageU8 image_from_rows(int width, int height, std::initializer_list<int> values) {
  ImageU8 image(width, height);
  int i = 0;
  for (int v : values) image.data()[i++] = static_cast<uint8_t>(v);
  return image;
}

ImageU8 random_image(int width, int height, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 255);
  ImageU8 image(width, height);
  for (auto& p : image.pixels()) p = static_cast<uint8_t>(value(rng));
  return image;
}

// left(x, y) = right(x - shift, y) wherever x - shift is inside; random elsewhere.
ImageU8 shifted_copy(const ImageU8& right, int shift, unsigned seed) {
  ImageU8 left = random_image(right.width(), right.height(), seed);
  for (int y = 0; y < right.height(); ++y)
    for (int x = shift; x < right.width(); ++x) left.at(x, y) = right.at(x - shift, y);
  return left;
}

TEST(CensusTransform, HandComputedPatternOfCentrePixel) {
  const ImageU8 image = image_from_rows(5, 5, {50,  150, 99,  100, 101,  //
                                               200, 0,   100, 255, 10,   //
                                               30,  60,  100, 120, 90,   //
                                               100, 100, 100, 101, 99,   //
                                               1,   254, 100, 100, 200});
  const CensusImage codes = census_transform(image, CensusWindow::W5x5);
  const CensusCode& c = codes.at(2, 2);
  // Row-major, centre skipped, bit = neighbour < 100 (equal is 0):
  // 50 99 | 0 10 | 30 60 . 90 | 99 | 1  ->  bits 0 2 | 6 9 | 10 11 13 | 18 | 19.
  const uint64_t expected = (1u << 0) | (1u << 2) | (1u << 6) | (1u << 9) | (1u << 10) |
                            (1u << 11) | (1u << 13) | (1u << 18) | (1u << 19);
  EXPECT_EQ(expected, 0xC2E45u);
  EXPECT_EQ(c.bits[0], expected);
  EXPECT_EQ(c.bits[1], 0u);
  EXPECT_EQ(c.valid[0], (uint64_t{1} << 24) - 1);  // all 24 neighbours inside
  EXPECT_EQ(c.valid[1], 0u);
}

TEST(CensusTransform, CornerPixelHasOnlyInsideNeighboursValid) {
  const ImageU8 image = random_image(12, 12, 1);
  const CensusImage c5 = census_transform(image, CensusWindow::W5x5);
  // Corner (0, 0): dx, dy in 0..2 minus the centre = 8 neighbours, at window bits
  // 12 13 (centre row), 16 17 18 (row +1), 21 22 23 (row +2).
  const uint64_t corner = (1u << 12) | (1u << 13) | (7u << 16) | (7u << 21);
  EXPECT_EQ(c5.at(0, 0).valid[0], corner);
  EXPECT_EQ(c5.at(0, 0).bits[0] & ~corner, 0u);
  // Opposite corner: dx, dy in -2..0 -> bits 0 1 2, 5 6 7, 10 11.
  EXPECT_EQ(c5.at(11, 11).valid[0], uint64_t{(7u << 0) | (7u << 5) | (3u << 10)});

  const CensusImage c97 = census_transform(image, CensusWindow::W9x7);
  EXPECT_EQ(popcount(c97.at(0, 0).valid[0]), 5 * 4 - 1);
  EXPECT_EQ(popcount(c97.at(11, 0).valid[0]), 5 * 4 - 1);
  EXPECT_EQ(popcount(c97.at(5, 0).valid[0]), 9 * 4 - 1);  // top row, full width
  EXPECT_EQ(c97.at(5, 5).valid[0], (uint64_t{1} << 62) - 1);

  // 9x9: 80 bits spill into the second word.
  const CensusImage c99 = census_transform(image, CensusWindow::W9x9);
  EXPECT_EQ(c99.at(5, 5).valid[0], ~uint64_t{0});
  EXPECT_EQ(c99.at(5, 5).valid[1], 0xFFFFu);
  EXPECT_EQ(c99.at(5, 5).bits[1] & ~uint64_t{0xFFFF}, 0u);
  EXPECT_EQ(popcount(c99.at(0, 0).valid[0]) + popcount(c99.at(0, 0).valid[1]), 5 * 5 - 1);

  const CensusImage c77 = census_transform(image, CensusWindow::W7x7);
  EXPECT_EQ(popcount(c77.at(0, 6).valid[0]), 4 * 7 - 1);  // left column, full height

  // 11x11: 120 bits, 64 in the first word and 56 in the second (the centre of a 13x13 image);
  // at the borders only the inside part of the window is valid.
  const ImageU8 big = random_image(13, 13, 11);
  const CensusImage c1111 = census_transform(big, CensusWindow::W11x11);
  EXPECT_EQ(c1111.at(6, 6).valid[0], ~uint64_t{0});
  EXPECT_EQ(c1111.at(6, 6).valid[1], (uint64_t{1} << 56) - 1);
  EXPECT_EQ(c1111.at(6, 6).bits[1] & ~((uint64_t{1} << 56) - 1), 0u);
  EXPECT_EQ(popcount(c1111.at(0, 0).valid[0]) + popcount(c1111.at(0, 0).valid[1]), 6 * 6 - 1);
  EXPECT_EQ(popcount(c1111.at(6, 0).valid[0]) + popcount(c1111.at(6, 0).valid[1]), 11 * 6 - 1);
}

TEST(CensusTransform, ElevenByElevenBitOrderCrossesTheWordBoundary) {
  // Centre (5, 5) of an 11x11 image of 100s; one darker pixel at a time. Row-major positions
  // skipping the centre (position 60): (dx, dy) -> (dy + 5) * 11 + (dx + 5), minus 1 past it.
  const struct {
    int dx, dy, bit;
  } cases[] = {{-5, -5, 0}, {3, 0, 62}, {4, 0, 63}, {5, 0, 64}, {-5, 1, 65}, {5, 5, 119}};
  for (const auto& c : cases) {
    ImageU8 image(11, 11, 100);
    image.at(5 + c.dx, 5 + c.dy) = 99;
    const CensusCode code = census_transform(image, CensusWindow::W11x11).at(5, 5);
    CensusCode expected;
    expected.valid[0] = ~uint64_t{0};
    expected.valid[1] = (uint64_t{1} << 56) - 1;
    expected.bits[c.bit / 64] = uint64_t{1} << (c.bit % 64);
    EXPECT_EQ(code, expected) << "(" << c.dx << ", " << c.dy << ") -> bit " << c.bit;
  }
}

TEST(CensusCost, ElevenByElevenIsNormalizedToTheSameScale) {
  // Full 120-bit interiors: h of 120 differ -> (h * 64 + 60) / 120.
  CensusCode a, b;
  a.valid[0] = b.valid[0] = ~uint64_t{0};
  a.valid[1] = b.valid[1] = (uint64_t{1} << 56) - 1;
  EXPECT_EQ(census_cost(a, b), 0);
  b.bits[1] = uint64_t{1} << 55;  // 1 of 120: (64 + 60) / 120 = 1
  EXPECT_EQ(census_cost(a, b), 1);
  b.bits[0] = 0xFFFF;  // 17 of 120: (1088 + 60) / 120 = 9
  EXPECT_EQ(census_cost(a, b), 9);
  b.bits[0] = a.valid[0];
  b.bits[1] = a.valid[1];  // all differ: the same maximum as every other window
  EXPECT_EQ(census_cost(a, b), kMaxMatchCost);
}

TEST(CensusTransform, FlatImageHasNoComparisonBits) {
  const CensusImage codes = census_transform(ImageU8(9, 9, 77), CensusWindow::W7x7);
  for (const CensusCode& c : codes.pixels()) {
    EXPECT_EQ(c.bits[0], 0u);
    EXPECT_EQ(c.bits[1], 0u);
  }
}

TEST(CensusTransform, MissingNeighbourClearsItsBits) {
  ImageU8 image(5, 5, 100);
  image.at(0, 0) = 0;  // would compare as "less" (bit 0 set) unless missing
  const CensusCode plain = census_transform(image, CensusWindow::W5x5, -1).at(2, 2);
  EXPECT_EQ(plain.bits[0], 1u);
  EXPECT_EQ(plain.valid[0], (uint64_t{1} << 24) - 1);

  const CensusCode masked = census_transform(image, CensusWindow::W5x5, 0).at(2, 2);
  EXPECT_EQ(masked.bits[0], 0u);
  EXPECT_EQ(masked.valid[0], (uint64_t{1} << 24) - 2);
}

TEST(CensusTransform, MissingCentreHasEmptyCodeAndNeverMatches) {
  const ImageU8 image = random_image(9, 9, 2);
  ImageU8 holed = image;
  holed.at(4, 4) = 0;
  const CensusImage codes = census_transform(holed, CensusWindow::W5x5, 0);
  EXPECT_EQ(codes.at(4, 4), CensusCode{});
  const CensusImage other = census_transform(image, CensusWindow::W5x5);
  for (const CensusCode& c : other.pixels()) EXPECT_EQ(census_cost(codes.at(4, 4), c), kMaxMatchCost);
  EXPECT_EQ(census_cost(codes.at(4, 4), codes.at(4, 4)), kMaxMatchCost);
}

TEST(CensusTransform, RejectsBadMissingValue) {
  EXPECT_THROW(census_transform(ImageU8(4, 4), CensusWindow::W5x5, 256), InputError);
  EXPECT_THROW(census_transform(ImageU8(4, 4), CensusWindow::W5x5, -2), InputError);
}

// 16-bit input is compared on the full 16-bit values.
TEST(CensusTransform16, HandComputedPatternAboveTheByteRange) {
  const std::initializer_list<int> values = {999, 1000,  1001, 744,  1256,  //
                                             0,   65535, 800,  1023, 1024,  //
                                             768, 767,   1000, 488,  1512,  //
                                             999, 999,   1001, 1001, 5,     //
                                             1000, 1000, 1000, 1000, 1000};
  ImageU16 image(5, 5);
  int i = 0;
  for (int v : values) image.data()[i++] = static_cast<uint16_t>(v);
  const CensusCode c = census_transform(image, CensusWindow::W5x5).at(2, 2);
  // bit = neighbour < 1000: 999 744 | 0 800 | 768 767 . 488 | 999 999 5
  //   -> bits 0 3 | 5 7 | 10 11 12 | 14 15 18. 744 and 488 share 1000's low byte (0xE8) and
  //   768 767 800 share its high byte: a cast to 8 bits either way would lose some of them.
  const uint64_t expected = (1u << 0) | (1u << 3) | (1u << 5) | (1u << 7) | (1u << 10) |
                            (1u << 11) | (1u << 12) | (1u << 14) | (1u << 15) | (1u << 18);
  EXPECT_EQ(expected, 0x4DCA9u);
  EXPECT_EQ(c.bits[0], expected);
  EXPECT_EQ(c.bits[1], 0u);
  EXPECT_EQ(c.valid[0], (uint64_t{1} << 24) - 1);

  ImageU8 low_bytes(5, 5), high_bytes(5, 5);
  for (size_t p = 0; p < image.size(); ++p) {
    low_bytes.data()[p] = static_cast<uint8_t>(image.data()[p] & 0xFF);
    high_bytes.data()[p] = static_cast<uint8_t>(image.data()[p] >> 8);
  }
  EXPECT_NE(census_transform(low_bytes, CensusWindow::W5x5).at(2, 2).bits[0], expected);
  EXPECT_NE(census_transform(high_bytes, CensusWindow::W5x5).at(2, 2).bits[0], expected);
}

TEST(CensusTransform16, MissingValueAboveTheByteRangeMatchesExactly) {
  ImageU16 image(5, 5, 1000);
  image.at(0, 0) = 300;  // missing
  image.at(1, 0) = 556;  // same low byte as 300, not missing, less than 1000: bit 1
  image.at(2, 0) = 300 + 65536 / 2;  // not missing, greater
  const CensusCode c = census_transform(image, CensusWindow::W5x5, 300).at(2, 2);
  EXPECT_EQ(c.bits[0], 0b10u);
  EXPECT_EQ(c.valid[0], (uint64_t{1} << 24) - 2);

  // The top value can be the missing one; a missing centre has an all-zero code.
  ImageU16 top(7, 7, 7);
  top.at(3, 3) = 65535;
  EXPECT_EQ(census_transform(top, CensusWindow::W5x5, 65535).at(3, 3), CensusCode{});
  EXPECT_EQ(census_transform(top, CensusWindow::W5x5, -1).at(3, 3).bits[0],
            (uint64_t{1} << 24) - 1);  // not missing: every neighbour (7) is less
  // (3, 3) is (+1, +1) of (2, 2): window position 3 * 5 + 3 = 18, bit 17 after the centre.
  EXPECT_EQ(census_transform(top, CensusWindow::W5x5, 65535).at(2, 2).valid[0],
            ((uint64_t{1} << 24) - 1) & ~(uint64_t{1} << 17));
}

TEST(CensusTransform16, EqualsTheEightBitTransformOnByteValues) {
  const ImageU8 image8 = random_image(23, 19, 8);
  ImageU16 image16(23, 19);
  for (size_t p = 0; p < image8.size(); ++p) image16.data()[p] = image8.data()[p];
  for (CensusWindow window : {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                              CensusWindow::W9x9, CensusWindow::W11x11}) {
    for (int missing : {-1, 0, 77}) {
      EXPECT_EQ(census_transform(image16, window, missing), census_transform(image8, window, missing))
          << census_window_name(window) << " missing " << missing;
    }
  }
}

TEST(CensusTransform16, RejectsBadMissingValue) {
  EXPECT_THROW(census_transform(ImageU16(4, 4), CensusWindow::W5x5, 65536), InputError);
  EXPECT_THROW(census_transform(ImageU16(4, 4), CensusWindow::W5x5, -2), InputError);
  EXPECT_NO_THROW(census_transform(ImageU16(4, 4), CensusWindow::W5x5, 65535));
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Float input is compared as floats: fractions, signed zeros, infinities and subnormals.
TEST(CensusTransformFloat, HandComputedPatternOfFractionsAndSpecialValues) {
  const std::initializer_list<float> values = {0.25f, 0.75f,  0.5f,   -0.0f,  kInf,     //
                                               -kInf, 1e-40f, 0.4999999f, 0.5000001f, 0.5f,  //
                                               0.0f,  -1e30f, 0.5f,   0.49f,  0.51f,    //
                                               0.5f,  0.5f,   0.5f,   0.5f,   0.5f,     //
                                               0.5f,  0.5f,   0.5f,   0.5f,   0.1f};
  ImageF32 image(5, 5);
  int i = 0;
  for (float v : values) image.data()[i++] = v;
  const CensusCode c = census_transform(image, CensusWindow::W5x5).at(2, 2);
  // bit = neighbour < 0.5: 0.25 -0 | -inf 1e-40 0.4999999 | 0 -1e30 . 0.49 | ... | 0.1
  //   -> bits 0 3 | 5 6 7 | 10 11 12 | 23. Rounded to integers, most would equal the centre.
  const uint64_t expected = (1u << 0) | (1u << 3) | (1u << 5) | (1u << 6) | (1u << 7) |
                            (1u << 10) | (1u << 11) | (1u << 12) | (1u << 23);
  EXPECT_EQ(expected, 0x801CE9u);
  EXPECT_EQ(c.bits[0], expected);
  EXPECT_EQ(c.valid[0], (uint64_t{1} << 24) - 1);
}

TEST(CensusTransformFloat, SignedZerosAreEqualAndSubnormalsAreNotFlushed) {
  ImageF32 image(3, 3, 0.0f);
  image.at(0, 0) = -0.0f;
  image.at(2, 2) = std::numeric_limits<float>::denorm_min();
  // Centre +0: -0 is equal (bit 0 clear), the smallest subnormal is greater.
  EXPECT_EQ(census_transform(image, CensusWindow::W5x5).at(1, 1).bits[0], 0u);
  // Centre the subnormal: every other pixel (0 or -0) is less. Its window's 8 inside neighbours
  // are at (dx, dy) in -2..0: bits 0 1 2 | 5 6 7 | 10 11.
  const CensusCode c = census_transform(image, CensusWindow::W5x5).at(2, 2);
  EXPECT_EQ(c.valid[0], uint64_t{(7u << 0) | (7u << 5) | (3u << 10)});
  EXPECT_EQ(c.bits[0], c.valid[0]);
}

TEST(CensusTransformFloat, NaNCentreHasAnAllZeroCode) {
  ImageF32 image(7, 7, 3.0f);
  image.at(0, 0) = 1.0f;
  image.at(3, 3) = kNaN;
  const CensusImage codes = census_transform(image, CensusWindow::W7x7);
  EXPECT_EQ(codes.at(3, 3), CensusCode{});
  EXPECT_EQ(census_cost(codes.at(3, 3), codes.at(3, 3)), kMaxMatchCost);
  // Also with a designated missing value that is not NaN.
  EXPECT_EQ(census_transform(image, CensusWindow::W7x7, 3.0f).at(3, 3), CensusCode{});
}

TEST(CensusTransformFloat, NaNAndDesignatedNeighboursClearTheirBits) {
  ImageF32 image(5, 5, 10.0f);
  image.at(0, 0) = kNaN;     // bit 0: always missing
  image.at(1, 0) = -1.0f;    // bit 1: missing only when designated
  image.at(2, 0) = 2.0f;     // bit 2: less, never missing
  image.at(3, 0) = -0.0f;    // bit 3: missing when 0 is designated (== ignores the sign)
  const uint64_t all = (uint64_t{1} << 24) - 1;
  const CensusCode plain = census_transform(image, CensusWindow::W5x5).at(2, 2);
  EXPECT_EQ(plain.valid[0], all & ~uint64_t{0b1});
  EXPECT_EQ(plain.bits[0], 0b1110u);
  const CensusCode minus_one = census_transform(image, CensusWindow::W5x5, -1.0f).at(2, 2);
  EXPECT_EQ(minus_one.valid[0], all & ~uint64_t{0b11});
  EXPECT_EQ(minus_one.bits[0], 0b1100u);
  const CensusCode zero = census_transform(image, CensusWindow::W5x5, 0.0f).at(2, 2);
  EXPECT_EQ(zero.valid[0], all & ~uint64_t{0b1001});
  EXPECT_EQ(zero.bits[0], 0b0110u);
}

TEST(CensusTransformFloat, EqualsTheEightBitTransformOnIntegralValues) {
  const ImageU8 image8 = random_image(21, 17, 9);
  ImageF32 image_f(21, 17);
  for (size_t p = 0; p < image8.size(); ++p) image_f.data()[p] = image8.data()[p];
  for (CensusWindow window : {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                              CensusWindow::W9x9, CensusWindow::W11x11}) {
    EXPECT_EQ(census_transform(image_f, window), census_transform(image8, window, -1))
        << census_window_name(window);
    EXPECT_EQ(census_transform(image_f, window, 0.0f), census_transform(image8, window, 0))
        << census_window_name(window);
    // NaN holes behave exactly like holes of a designated value.
    ImageF32 with_nan = image_f;
    for (float& v : with_nan.pixels()) if (v == 0.0f) v = kNaN;
    EXPECT_EQ(census_transform(with_nan, window), census_transform(image8, window, 0))
        << census_window_name(window);
  }
}

TEST(CensusCost, HandCases) {
  CensusCode a, b;
  a.valid[0] = b.valid[0] = (uint64_t{1} << 40) - 1;
  b.bits[0] = 0b111;
  EXPECT_EQ(census_cost(a, b), 5);  // 3 of 40 differ: (3*64 + 20) / 40 = 212 / 40 = 5
  EXPECT_EQ(census_cost(a, a), 0);
  b.bits[0] = a.valid[0];
  EXPECT_EQ(census_cost(a, b), 64);  // every valid bit differs

  // Half rounds up: 1 of 128 differs -> 64 / 128 = 0.5 -> 1.
  CensusCode c, e;
  c.valid[0] = c.valid[1] = e.valid[0] = e.valid[1] = ~uint64_t{0};
  e.bits[1] = uint64_t{1} << 63;
  EXPECT_EQ(census_cost(c, e), 1);

  // Only bits valid in both count: L valid 0..9, R valid 5..14 -> v = 5 (bits 5..9);
  // differences at bit 0 (L only) and bit 7 (both) -> h = 1: (64 + 2) / 5 = 13.
  CensusCode l, r;
  l.valid[0] = 0x3FF;
  r.valid[0] = 0x7FE0;
  l.bits[0] = (1u << 0) | (1u << 7);
  EXPECT_EQ(census_cost(l, r), 13);

  EXPECT_EQ(census_cost(CensusCode{}, CensusCode{}), kMaxMatchCost);  // v == 0
}

TEST(CensusCostVolume, ShiftedTextureHasItsMinimumAtTheShift) {
  for (CensusWindow window : {CensusWindow::W5x5, CensusWindow::W9x7, CensusWindow::W9x9,
                              CensusWindow::W11x11}) {
    const int shift = 5;
    const ImageU8 right = random_image(43, 23, 3);  // 11x11 still leaves 13 x 27 interior pixels
    const ImageU8 left = shifted_copy(right, shift, 4);
    const SearchRange range(-2, 14);
    const auto costs = census_cost_volume(census_transform(left, window),
                                          census_transform(right, window), range);
    const int rx = census_window_width(window) / 2;
    const int ry = census_window_height(window) / 2;
    const int k_true = shift - range.uniform_base();
    // Interior pixels only (border codes have few valid bits). The true shift always costs 0;
    // a wrong candidate may tie only by chance (e.g. both centres are their window's minimum),
    // which must stay rare.
    int interior = 0, ties = 0;
    for (int y = ry; y + ry < left.height(); ++y) {
      for (int x = shift + rx; x + rx < left.width(); ++x) {
        ASSERT_EQ(costs.at(x, y, k_true), 0) << x << "," << y;
        ++interior;
        for (int k = 0; k < range.count(); ++k) {
          if (k != k_true && costs.at(x, y, k) == 0) {
            ++ties;
            break;
          }
        }
      }
    }
    EXPECT_GT(interior, 300);
    EXPECT_LT(ties, interior / 20) << census_window_name(window);
  }
}

TEST(CensusCostVolume, OutOfImageCandidatesTakeTheMaximum) {
  const CensusImage codes = census_transform(ImageU8(6, 3, 9), CensusWindow::W5x5);
  const auto costs = census_cost_volume(codes, codes, SearchRange(-2, 6));  // d = -2..3
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 6; ++x) {
      for (int k = 0; k < 6; ++k) {
        const int xr = x - (k - 2);
        const int expected = (xr < 0 || xr >= 6) ? kMaxMatchCost : 0;  // flat: codes agree
        EXPECT_EQ(costs.at(x, y, k), expected) << x << "," << y << " d " << k - 2;
      }
    }
  }
}

TEST(CensusCostVolume, SizeMismatchThrows) {
  const CensusImage a = census_transform(ImageU8(8, 6), CensusWindow::W5x5);
  const CensusImage b = census_transform(ImageU8(8, 7), CensusWindow::W5x5);
  EXPECT_THROW(census_cost_volume(a, b, SearchRange(0, 4)), InputError);
  EXPECT_THROW(census_cost_volume(a, a, SearchRange(ImageI16(3, 3), 4)), InputError);
}

TEST(CensusCostVolume, PerPixelRangeMatchesUniformRange) {
  const ImageU8 right = random_image(37, 23, 5);
  const ImageU8 left = shifted_copy(right, 3, 6);
  const CensusImage cl = census_transform(left, CensusWindow::W7x7);
  const CensusImage cr = census_transform(right, CensusWindow::W7x7);
  const int low = -3, count = 6;
  ImageI16 base(37, 23);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(low, 5);
  for (auto& b : base.pixels()) b = static_cast<int16_t>(pick(rng));
  const auto per_pixel = census_cost_volume(cl, cr, SearchRange(base, count));
  const auto uniform = census_cost_volume(cl, cr, SearchRange(low, 5 - low + count));
  for (int y = 0; y < 23; ++y)
    for (int x = 0; x < 37; ++x)
      for (int k = 0; k < count; ++k)
        ASSERT_EQ(per_pixel.at(x, y, k), uniform.at(x, y, base.at(x, y) - low + k));
}

}  // namespace
}  // namespace sv
