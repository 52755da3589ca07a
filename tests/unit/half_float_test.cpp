// The exact float <-> half conversions of src/core/half_float.h: hand-checked encodings, every
// half round-tripping, and every midpoint between neighbouring halves rounding to the even one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "src/core/half_float.h"

namespace sv {
namespace {

float from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

bool is_nan_half(uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0; }

TEST(HalfFloat, HandCheckedEncodings) {
  EXPECT_EQ(float_to_half_bits(0.0f), 0x0000);
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half_bits(0.1f), 0x2E66);  // 0.0999755859375
  EXPECT_EQ(float_to_half_bits(1.8f), 0x3F33);  // lambda * tau of the defaults
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7BFF);       // the largest half
  EXPECT_EQ(float_to_half_bits(65519.996f), 0x7BFF);     // just below the midpoint to 2^16
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7C00);       // the midpoint: ties to even = infinity
  EXPECT_EQ(float_to_half_bits(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -14)), 0x0400);  // the smallest normal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -24)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -25)), 0x0000);  // midpoint to 0: ties to even
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(float_to_half_bits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units: ties to even (2)
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);       // tie, down to even
  EXPECT_EQ(float_to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);   // tie, up to even
  EXPECT_EQ(float_to_half_bits(std::ldexp(2047.0f, -11)), 0x3BFF);  // the half just below 1
  EXPECT_EQ(float_to_half_bits(std::ldexp(8191.0f, -13)), 0x3C00);  // rounds up, carries to 1.0
  EXPECT_TRUE(is_nan_half(float_to_half_bits(std::numeric_limits<float>::quiet_NaN())));

  EXPECT_EQ(half_bits_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_bits_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_bits_to_float(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(half_bits_to_float(0xFC00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(half_bits_to_float(0x7E00)));
  EXPECT_EQ(round_to_half(0.15f * 12.0f), 1.7998046875f);
}

// Every finite half converts to float and back unchanged, and the float is the value the bits
// encode: (-1)^s * 2^(e - 15) * (1 + m / 1024), or 2^-14 * m / 1024 for subnormals.
TEST(HalfFloat, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    if (is_nan_half(bits)) continue;
    const float f = half_bits_to_float(bits);
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const float magnitude = e == 0    ? std::ldexp(static_cast<float>(m), -24)
                            : e == 31 ? std::numeric_limits<float>::infinity()
                                      : std::ldexp(1.0f + m / 1024.0f, e - 15);
    ASSERT_EQ(f, (h & 0x8000u) ? -magnitude : magnitude) << std::hex << h;
    ASSERT_EQ(float_to_half_bits(f), bits) << std::hex << h;
  }
}

// Between two neighbouring positive halves a and b: just above a rounds to a, just below b to
// b, and the exact midpoint to whichever of the two has an even mantissa.
TEST(HalfFloat, MidpointsRoundToEvenAndNeighboursToTheNearest) {
  for (uint32_t h = 0; h < 0x7BFFu; ++h) {
    const float a = half_bits_to_float(static_cast<uint16_t>(h));
    const float b = half_bits_to_float(static_cast<uint16_t>(h + 1));
    const float mid = a + (b - a) / 2;  // exact: halves have 11 bits, floats 24
    uint32_t mid_bits;
    std::memcpy(&mid_bits, &mid, sizeof mid_bits);
    const uint16_t even = (h & 1u) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h);
    ASSERT_EQ(float_to_half_bits(mid), even) << std::hex << h;
    ASSERT_EQ(float_to_half_bits(from_bits(mid_bits - 1)), h) << std::hex << h;
    ASSERT_EQ(float_to_half_bits(from_bits(mid_bits + 1)), h + 1) << std::hex << h;
    ASSERT_EQ(float_to_half_bits(-mid), static_cast<uint16_t>(even | 0x8000u)) << std::hex << h;
  }
}

TEST(HalfFloat, VolumeRoundingRoundsEveryCost) {
  // Decimal fractions: none of them is a half (or even a float) exactly.
  const float values[12] = {0.1f, 0.2f, 0.3f, 0.7f, 0.9f, 1.1f, 1.3f, 1.7f, 2.9f, 3.3f, 7.1f, 9.9f};
  CostVolume<float> volume(3, 2, SearchRange(0, 2));
  std::copy(values, values + 12, volume.costs().begin());
  round_to_half(volume);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(volume.costs()[i], round_to_half(values[i]));
    EXPECT_NE(volume.costs()[i], values[i]);
    EXPECT_LE(std::abs(volume.costs()[i] - values[i]), std::ldexp(std::abs(values[i]), -11));
  }
}

}  // namespace
}  // namespace sv
