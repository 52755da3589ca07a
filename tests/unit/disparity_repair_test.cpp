#include "src/core/disparity_repair.h"

#include <gtest/gtest.h>

#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {
namespace {

constexpr int16_t kInvalid = kInvalidFixedDisparity;

struct Field {
  ImageI16 d;
  ImageF32 c;
};

// A width x height field from row-major values.
Field field(int width, int height, const std::vector<int16_t>& d, const std::vector<float>& c) {
  Field f{ImageI16(width, height), ImageF32(width, height)};
  std::copy(d.begin(), d.end(), f.d.data());
  std::copy(c.begin(), c.end(), f.c.data());
  return f;
}

std::vector<int16_t> values(const ImageI16& d) { return d.pixels(); }
std::vector<float> values(const ImageF32& c) { return c.pixels(); }

TEST(DisparityRepair, OutlierBetweenAgreeingConfidentNeighboursIsCorrected) {
  Field f = field(7, 1, {80, 80, 80, 144, 80, 80, 80}, {0.9f, 0.9f, 0.9f, 0.2f, 0.9f, 0.9f, 0.9f});
  // Pass 1 (H): pixel 3 needs 0.3; x 2 and x 4 (80) qualify and agree -> 80, confidence 0.3.
  // The V pass has no neighbours; pass 3 finds pixel 3 already agreeing. The confident pixels
  // find no one 0.1 above 0.9 and stay.
  EXPECT_EQ(repair_disparity(f.d, f.c), 1);
  EXPECT_EQ(values(f.d), (std::vector<int16_t>{80, 80, 80, 80, 80, 80, 80}));
  EXPECT_FLOAT_EQ(f.c.at(3, 0), 0.2f + 0.1f);
  EXPECT_FLOAT_EQ(f.c.at(2, 0), 0.9f);
}

TEST(DisparityRepair, GapBetweenTwoSurfacesPixelsTakesTheirMean) {
  Field f = field(6, 1, {64, 64, kInvalid, kInvalid, 72, 72}, {0.5f, 0.5f, 0.0f, 0.0f, 0.5f, 0.5f});
  // Pixels 2 and 3 both skip the invalid pixel between and find 64 and 72 (spread 8 <= 16):
  // floor(136 / 2) = 68 and confidence 0.1; pass 3 finds them agreeing.
  EXPECT_EQ(repair_disparity(f.d, f.c), 2);
  EXPECT_EQ(values(f.d), (std::vector<int16_t>{64, 64, 68, 68, 72, 72}));
  EXPECT_EQ(values(f.c), (std::vector<float>{0.5f, 0.5f, 0.1f, 0.1f, 0.5f, 0.5f}));
}

TEST(DisparityRepair, MeanRoundsDownForNegativeDisparities) {
  Field f = field(3, 1, {-17, kInvalid, -16}, {0.5f, 0.0f, 0.5f});
  repair_disparity(f.d, f.c);
  EXPECT_EQ(f.d.at(1, 0), -17);  // floor(-33 / 2)
}

TEST(DisparityRepair, DisagreeingOrOneSidedSupportChangesNothing) {
  Field f = field(3, 1, {16, kInvalid, 160}, {0.9f, 0.0f, 0.9f});  // spread 144 > 16
  const Field before = f;
  EXPECT_EQ(repair_disparity(f.d, f.c), 0);
  EXPECT_EQ(f.d, before.d);
  EXPECT_EQ(f.c, before.c);
  Field edge = field(3, 1, {kInvalid, 32, 32}, {0.0f, 0.9f, 0.9f});  // nothing on the left
  EXPECT_EQ(repair_disparity(edge.d, edge.c), 0);
  EXPECT_EQ(edge.d.at(0, 0), kInvalid);
  // Spread exactly 16 agrees: floor((32 + 48) / 2) = 40.
  Field limit = field(3, 1, {32, kInvalid, 48}, {0.9f, 0.0f, 0.9f});
  EXPECT_EQ(repair_disparity(limit.d, limit.c), 1);
  EXPECT_EQ(limit.d.at(1, 0), 40);
}

TEST(DisparityRepair, SupportersMustBeClearlyMoreConfident) {
  RepairSettings s;
  s.step = 0.25f;  // exact in binary: need = 0.25 + 0.25 = 0.5
  Field enough = field(3, 1, {16, 160, 16}, {0.5f, 0.25f, 0.5f});
  EXPECT_EQ(repair_disparity(enough.d, enough.c, s), 1);
  EXPECT_EQ(enough.d.at(1, 0), 16);
  EXPECT_FLOAT_EQ(enough.c.at(1, 0), 0.5f);
  Field short_of_it = field(3, 1, {16, 160, 16}, {0.5f, 0.25f, 0.49f});
  EXPECT_EQ(repair_disparity(short_of_it.d, short_of_it.c, s), 0);
  // The boost stops at 1.
  Field top = field(3, 1, {16, 160, 16}, {1.0f, 0.9f, 1.0f});
  s.step = 0.05f;
  repair_disparity(top.d, top.c, s);
  EXPECT_EQ(top.d.at(1, 0), 16);
  EXPECT_FLOAT_EQ(top.c.at(1, 0), 0.95f);
}

TEST(DisparityRepair, SearchesTenPixelsToEitherSide) {
  // Centre pixel 11 of 23; weak (0.05) pixels around it, confident ones `reach` px away.
  for (int reach : {10, 11}) {
    std::vector<int16_t> d(23, 160);
    std::vector<float> c(23, 0.05f);
    d[11] = kInvalid;
    c[11] = 0.0f;
    for (int x = 0; x < 23; ++x) {
      if (x != 11) d[x] = static_cast<int16_t>(x % 2 ? 400 : 500);  // weak pixels disagree
    }
    d[11 - reach] = d[11 + reach] = 48;
    c[11 - reach] = c[11 + reach] = 0.8f;
    Field f = field(23, 1, d, c);
    repair_disparity(f.d, f.c);
    EXPECT_EQ(f.d.at(11, 0), reach == 10 ? 48 : kInvalid) << "reach " << reach;
  }
}

TEST(DisparityRepair, VerticalPassRepairsColumns) {
  Field f = field(1, 5, {48, 48, 160, 48, 48}, {0.8f, 0.8f, 0.1f, 0.8f, 0.8f});
  EXPECT_EQ(repair_disparity(f.d, f.c), 1);
  EXPECT_EQ(values(f.d), (std::vector<int16_t>{48, 48, 48, 48, 48}));
  EXPECT_FLOAT_EQ(f.c.at(0, 2), 0.1f + 0.1f);
}

TEST(DisparityRepair, PassesChainHorizontalVerticalHorizontal) {
  // 3x3, centre invalid. Pass 1 (H): the centre row has one confident side only -> nothing.
  // Pass 2 (V): column 1 has 64 above and 64 below -> centre 64 at 0.1.
  // Pass 3 (H): the centre (needs 0.2) has 96 on its left but nothing valid on its right; the
  // right pixel finds the repaired centre on its left and nothing beyond the border.
  Field f = field(3, 3,
                  {kInvalid, 64, kInvalid,
                   96, kInvalid, kInvalid,
                   kInvalid, 64, kInvalid},
                  {0.0f, 0.7f, 0.0f,
                   0.7f, 0.0f, 0.0f,
                   0.0f, 0.7f, 0.0f});
  EXPECT_EQ(repair_disparity(f.d, f.c), 1);
  EXPECT_EQ(f.d.at(1, 1), 64);
  EXPECT_FLOAT_EQ(f.c.at(1, 1), 0.1f);
  EXPECT_EQ(f.d.at(2, 1), kInvalid);
}

TEST(DisparityRepair, PixelsThatAgreeAreLeftAloneInLaterPasses) {
  // Row 1: 40 _ _ 40 at 0.3, the two middle pixels invalid with columns of 40 above/below at 0.9.
  // Pass 1 (H): both middle pixels see 40 (0.3 >= 0.1) on each side -> 40 at 0.1.
  // Pass 2 (V) finds them supported by the 40s above and below, but they already agree, so
  // nothing changes (and their confidence is not raised again): two updates in total.
  Field f = field(4, 3,
                  {0, 40, 40, 0,
                   40, kInvalid, kInvalid, 40,
                   0, 40, 40, 0},
                  {0.0f, 0.9f, 0.9f, 0.0f,
                   0.3f, 0.0f, 0.0f, 0.3f,
                   0.0f, 0.9f, 0.9f, 0.0f});
  EXPECT_EQ(repair_disparity(f.d, f.c), 2);
  EXPECT_EQ(f.d.at(1, 1), 40);
  EXPECT_EQ(f.d.at(2, 1), 40);
  EXPECT_FLOAT_EQ(f.c.at(1, 1), 0.1f);
}

TEST(DisparityRepair, RejectsBadInput) {
  ImageI16 d(3, 2);
  ImageF32 c(3, 1);
  EXPECT_THROW(repair_disparity(d, c), InputError);
  ImageF32 c2(3, 2);
  RepairSettings s;
  s.radius = 0;
  EXPECT_THROW(repair_disparity(d, c2, s), InputError);
  s = RepairSettings();
  s.tolerance = -1;
  EXPECT_THROW(repair_disparity(d, c2, s), InputError);
}

}  // namespace
}  // namespace sv
