// The Cost curve window's logic without a display (ui/cost_curve.h): which pixel it asks the
// engine about (hover, pin, closed), the numbers it prints for a known probe, and its command
// line flags. The drawing itself is checked under Xvfb (viewer_test.cpp).
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "src/core/winner_takes_all.h"
#include "ui/cost_curve.h"
#include "ui/viewer_options.h"

namespace sv {
namespace {

bool same(const std::optional<ProbePixel>& a, int x, int y) { return a && a->x == x && a->y == y; }

TEST(CostCurveTarget, FollowsTheCursorUntilPinnedAndAsksNothingWhileClosed) {
  CostCurveTarget target;
  target.hover(ProbePixel{3, 4});
  EXPECT_FALSE(target.wanted());  // closed
  target.set_open(true);
  EXPECT_TRUE(same(target.wanted(), 3, 4));
  target.hover(std::nullopt);  // the cursor left the views: the last pixel stays
  EXPECT_TRUE(same(target.wanted(), 3, 4));
  target.pin(ProbePixel{10, 20});
  target.hover(ProbePixel{5, 5});
  EXPECT_TRUE(target.pinned());
  EXPECT_TRUE(same(target.wanted(), 10, 20));
  target.unpin();
  EXPECT_TRUE(same(target.wanted(), 5, 5));
  target.set_open(false);
  EXPECT_FALSE(target.wanted());
}

TEST(CostCurveLines, KnownCurve) {
  const uint16_t costs[] = {16, 30, 40, 22, 10, 14, 30, 50};
  PixelCosts c;
  c.pixel = {7, 9};
  c.base = 5;
  c.matching = cost_curve(costs, 8);
  c.aggregated = c.matching;
  WtaSettings wta;
  wta.uniqueness = 10;
  c.uniqueness = 10;
  c.selection = explain_selection(costs, 8, 5, wta);
  c.final_disparity = c.selection.disparity;
  EXPECT_EQ(cost_curve_lines(c), (std::vector<std::string>{
                                     "pixel (7, 9), disparities 5..12",
                                     "best d 9 cost 10 -> 9.25 px",
                                     "subpixel: parabola through 22, 10, 14: vertex +0.250 px, offset +4/16",
                                     "second d 5 cost 16, ratio 0.625 (limit 0.90)",
                                     "result 9.25 px",
                                 }));
  wta.uniqueness = 40;
  c.uniqueness = 40;
  c.selection = explain_selection(costs, 8, 5, wta);
  c.final_disparity = c.selection.disparity;
  c.reason = c.selection.reason;
  const std::vector<std::string> rejected = cost_curve_lines(c);
  EXPECT_EQ(rejected[1], "best d 9 cost 10");
  EXPECT_EQ(rejected[2], "second d 5 cost 16, ratio 0.625 (limit 0.60)");
  EXPECT_EQ(rejected[3], "selection rejected it: uniqueness");
  EXPECT_EQ(rejected[4], "result invalid: uniqueness");
  c.final_disparity = 9 * 16;  // hole filling gave it a value again
  c.reason = InvalidReason::None;
  EXPECT_EQ(cost_curve_lines(c).back(), "result 9 px (filled in after the rejection)");
}

TEST(CostCurveLines, NoCurveSaysWhy) {
  CostCurveTarget target;
  target.set_open(true);
  EXPECT_EQ(cost_curve_unavailable_text(target, std::nullopt),
            "no pixel yet: point at a view (a click pins the pixel)");
  target.hover(ProbePixel{400, 3});
  EXPECT_EQ(cost_curve_unavailable_text(target, std::nullopt),
            "no curve: the engine returned none for this frame");
  PixelCosts outside;
  outside.unavailable = "(400, 3) lies outside the 320x240 image";
  EXPECT_EQ(cost_curve_unavailable_text(target, outside),
            "no curve: (400, 3) lies outside the 320x240 image");
  PixelCosts fine;
  EXPECT_EQ(cost_curve_unavailable_text(target, fine), "");
}

ViewerOptions parse(std::vector<const char*> args) {
  args.insert(args.begin(), "stereoview-viewer");
  return parse_viewer_options(static_cast<int>(args.size()), args.data());
}

TEST(CostCurveFlags, OpenAndPin) {
  EXPECT_FALSE(parse({}).cost_curve);
  const ViewerOptions open = parse({"--cost-curve"});
  EXPECT_TRUE(open.cost_curve);
  EXPECT_FALSE(open.cost_curve_pin);
  const ViewerOptions pinned = parse({"--cost-curve-at", "12,34"});
  EXPECT_TRUE(pinned.cost_curve);
  EXPECT_TRUE(same(pinned.cost_curve_pin, 12, 34));
  EXPECT_THROW(parse({"--cost-curve-at", "12"}), ViewerUsageError);
  EXPECT_THROW(parse({"--cost-curve-at", "-1,3"}), ViewerUsageError);
  EXPECT_THROW(parse({"--cost-curve-at", "a,b"}), ViewerUsageError);
  EXPECT_THROW(parse({"--cost-curve-at"}), ViewerUsageError);
}

}  // namespace
}  // namespace sv
