#include "src/core/colorize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {
namespace {

constexpr Colormap kAllMaps[] = {Colormap::Turbo, Colormap::Jet, Colormap::Inferno, Colormap::Gray};

TEST(Colorize, GrayIsExactAtEndpointsAndRoundsInBetween) {
  EXPECT_EQ(colormap_color(Colormap::Gray, 0.0f), (Rgb8{0, 0, 0}));
  EXPECT_EQ(colormap_color(Colormap::Gray, 1.0f), (Rgb8{255, 255, 255}));
  // floor(255 * 0.5 + 0.5) = 128; floor(255 * 0.2 + 0.5) = 51.
  EXPECT_EQ(colormap_color(Colormap::Gray, 0.5f), (Rgb8{128, 128, 128}));
  EXPECT_EQ(colormap_color(Colormap::Gray, 0.2f), (Rgb8{51, 51, 51}));
}

TEST(Colorize, TurboRunsFromDarkBluePurpleToDarkRed) {
  const Rgb8 low = colormap_color(Colormap::Turbo, 0.0f);
  EXPECT_GT(low.b, low.r);
  EXPECT_GT(low.b, low.g);
  EXPECT_LT(low.r + low.g + low.b, 200);  // dark
  const Rgb8 high = colormap_color(Colormap::Turbo, 1.0f);
  EXPECT_GT(high.r, high.g);
  EXPECT_GT(high.r, high.b);
  EXPECT_LT(high.r, 200);  // dark red, not bright red
  // Quarter points: blue-cyan, yellow-green, orange.
  const Rgb8 quarter = colormap_color(Colormap::Turbo, 0.25f);
  EXPECT_GT(quarter.b, quarter.r);
  EXPECT_GT(quarter.g, quarter.r);
  const Rgb8 middle = colormap_color(Colormap::Turbo, 0.5f);
  EXPECT_GT(middle.g, middle.b);
  EXPECT_GT(middle.r, middle.b);
  const Rgb8 three_quarters = colormap_color(Colormap::Turbo, 0.75f);
  EXPECT_GT(three_quarters.r, three_quarters.g);
  EXPECT_GT(three_quarters.g, three_quarters.b);
}

TEST(Colorize, JetHasBlueEndsGreenMiddleRedTop) {
  // r = 1.5 - |4t - 3|, g = 1.5 - |4t - 2|, b = 1.5 - |4t - 1|, clamped: 0.5 -> 128.
  EXPECT_EQ(colormap_color(Colormap::Jet, 0.0f), (Rgb8{0, 0, 128}));
  EXPECT_EQ(colormap_color(Colormap::Jet, 1.0f), (Rgb8{128, 0, 0}));
  EXPECT_EQ(colormap_color(Colormap::Jet, 0.5f), (Rgb8{128, 255, 128}));
  const Rgb8 middle = colormap_color(Colormap::Jet, 0.5f);
  EXPECT_GT(middle.g, middle.r);
  EXPECT_GT(middle.g, middle.b);
}

TEST(Colorize, InfernoRunsFromBlackToPaleYellow) {
  const Rgb8 low = colormap_color(Colormap::Inferno, 0.0f);
  EXPECT_LT(low.r + low.g + low.b, 20);
  const Rgb8 high = colormap_color(Colormap::Inferno, 1.0f);
  EXPECT_GT(high.r, 240);
  EXPECT_GT(high.g, 240);
  EXPECT_GT(high.g, high.b);
}

TEST(Colorize, EveryMapIsContinuous) {
  // 1/1024 steps: a piecewise-linear map with sane keys never jumps more than a few levels.
  for (Colormap map : kAllMaps) {
    Rgb8 previous = colormap_color(map, 0.0f);
    for (int i = 1; i <= 1024; ++i) {
      const Rgb8 c = colormap_color(map, i / 1024.0f);
      EXPECT_LE(std::abs(c.r - previous.r), 6) << colormap_name(map) << " at " << i;
      EXPECT_LE(std::abs(c.g - previous.g), 6) << colormap_name(map) << " at " << i;
      EXPECT_LE(std::abs(c.b - previous.b), 6) << colormap_name(map) << " at " << i;
      previous = c;
    }
  }
}

TEST(Colorize, OutOfRangeAndNanAreClamped) {
  for (Colormap map : kAllMaps) {
    EXPECT_EQ(colormap_color(map, -3.0f), colormap_color(map, 0.0f)) << colormap_name(map);
    EXPECT_EQ(colormap_color(map, 7.0f), colormap_color(map, 1.0f)) << colormap_name(map);
    EXPECT_EQ(colormap_color(map, std::numeric_limits<float>::quiet_NaN()),
              colormap_color(map, 0.0f))
        << colormap_name(map);
  }
}

TEST(Colorize, DisparityImageMapsRangeClampsAndMarksInvalid) {
  ImageF32 disparity(3, 2);
  disparity.at(0, 0) = 10.0f;  // min -> 0
  disparity.at(1, 0) = 20.0f;  // middle -> 0.5
  disparity.at(2, 0) = 30.0f;  // max -> 1
  disparity.at(0, 1) = -5.0f;  // below -> clamped to 0
  disparity.at(1, 1) = 99.0f;  // above -> clamped to 1
  disparity.at(2, 1) = kInvalidDisparity;
  const Rgb8 invalid{255, 0, 255};
  const ImageRgb8 gray = colorize_disparity(disparity, 10.0f, 30.0f, Colormap::Gray, invalid);
  ASSERT_TRUE(gray.same_size(disparity));
  EXPECT_EQ(gray.at(0, 0), (Rgb8{0, 0, 0}));
  EXPECT_EQ(gray.at(1, 0), (Rgb8{128, 128, 128}));
  EXPECT_EQ(gray.at(2, 0), (Rgb8{255, 255, 255}));
  EXPECT_EQ(gray.at(0, 1), (Rgb8{0, 0, 0}));
  EXPECT_EQ(gray.at(1, 1), (Rgb8{255, 255, 255}));
  EXPECT_EQ(gray.at(2, 1), invalid);

  const ImageRgb8 turbo = colorize_disparity(disparity, 10.0f, 30.0f);
  EXPECT_EQ(turbo.at(1, 0), colormap_color(Colormap::Turbo, 0.5f));
  EXPECT_EQ(turbo.at(2, 1), (Rgb8{0, 0, 0}));  // default invalid colour
}

TEST(Colorize, NanAndNegativeInfinityAreInvalidToo) {
  ImageF32 disparity(2, 1);
  disparity.at(0, 0) = std::numeric_limits<float>::quiet_NaN();
  disparity.at(1, 0) = -std::numeric_limits<float>::infinity();
  const ImageRgb8 out = colorize_disparity(disparity, 0.0f, 1.0f, Colormap::Gray, Rgb8{1, 2, 3});
  EXPECT_EQ(out.at(0, 0), (Rgb8{1, 2, 3}));
  EXPECT_EQ(out.at(1, 0), (Rgb8{1, 2, 3}));
}

TEST(Colorize, EmptyRangeMapsToLowEndAndReversedRangeFlips) {
  ImageF32 disparity(2, 1);
  disparity.at(0, 0) = 4.0f;
  disparity.at(1, 0) = 9.0f;
  const ImageRgb8 flat = colorize_disparity(disparity, 4.0f, 4.0f, Colormap::Gray);
  EXPECT_EQ(flat.at(0, 0), (Rgb8{0, 0, 0}));
  EXPECT_EQ(flat.at(1, 0), (Rgb8{0, 0, 0}));
  const ImageRgb8 reversed = colorize_disparity(disparity, 9.0f, 4.0f, Colormap::Gray);
  EXPECT_EQ(reversed.at(0, 0), (Rgb8{255, 255, 255}));
  EXPECT_EQ(reversed.at(1, 0), (Rgb8{0, 0, 0}));
}

TEST(Colorize, ParseColormapRoundTripsAndRejectsUnknownNames) {
  for (Colormap map : kAllMaps) EXPECT_EQ(parse_colormap(colormap_name(map)), map);
  EXPECT_STREQ(colormap_name(Colormap::Turbo), "turbo");
  EXPECT_THROW(parse_colormap("viridis"), InputError);
  EXPECT_THROW(parse_colormap(""), InputError);
  EXPECT_THROW(parse_colormap("Turbo"), InputError);  // names are lower case, as documented
  try {
    parse_colormap("viridis");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("viridis"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("turbo"), std::string::npos);
  }
}

}  // namespace
}  // namespace sv
