// --swap-views (issue 17): SwappedViewsSource exchanges every plane of a pair; the source flags
// (the CLI's, the viewer's command line, panel and scripts) take it.
#include "src/app/swapped_views_source.h"

#include <gtest/gtest.h>

#include "src/app/source_factory.h"
#include "src/core/error.h"

namespace sv {
namespace {

TEST(SwappedViewsSource, ExchangesEveryPlaneOfThePair) {
  struct Planes : FrameSource {
    bool done = false;
    std::string describe() const override { return "planes"; }
    bool is_live() const override { return true; }
    std::optional<StereoPair> next() override {
      if (done) return std::nullopt;
      done = true;
      StereoPair p;
      p.left = ImageRgb8(4, 2, Rgb8{1, 1, 1});
      p.right = ImageRgb8(4, 2, Rgb8{2, 2, 2});
      p.left16 = ImageU16(4, 2, 100);
      p.right16 = ImageU16(4, 2, 200);
      p.leftf = ImageF32(4, 2, 0.25f);
      p.rightf = ImageF32(4, 2, 0.5f);
      return p;
    }
  };
  SwappedViewsSource source(std::make_unique<Planes>());
  EXPECT_EQ(source.describe(), "planes, views swapped");
  EXPECT_TRUE(source.is_live());
  const std::optional<StereoPair> pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->left.at(0, 0), (Rgb8{2, 2, 2}));
  EXPECT_EQ(pair->right.at(3, 1), (Rgb8{1, 1, 1}));
  EXPECT_EQ(pair->left16.at(0, 0), 200);
  EXPECT_EQ(pair->right16.at(0, 0), 100);
  EXPECT_EQ(pair->leftf.at(0, 0), 0.5f);
  EXPECT_EQ(pair->rightf.at(0, 0), 0.25f);
  EXPECT_FALSE(source.next());
}

TEST(SwappedViewsSource, TheSourceFlagsTakeSwapViews) {
  // The viewer's command line, its panel and its scripts name sources through these flags.
  EXPECT_TRUE(parse_source_flags({"--sbs", "pair.avi", "--swap-views"}).swap_views);
  EXPECT_FALSE(parse_source_flags({"--sbs", "pair.avi"}).swap_views);
  EXPECT_THROW(parse_source_flags({"--swap-views"}), InputError);  // the synthetic scene
}

}  // namespace
}  // namespace sv
