// The viewer's source of ground truth (ui/source_truth.h): the synthetic scene's exact truth and
// non-occluded mask; a dataset's files (Middlebury 2014's layout written here) with its occlusion
// mask when it has one ("nonocc"), every pixel with known truth otherwise ("all"); none for a
// source without truth.
#include "ui/source_truth.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "src/app/synthetic_source.h"
#include "src/core/image_formats.h"
#include "src/io/dataset_source.h"
#include "src/io/png_io.h"
#include "tests/support/synthetic_frames.h"

namespace sv {
namespace {

SyntheticSceneConfig small_scene() { return test::scene_config(96, 64, 16); }

TEST(SourceTruth, TheSyntheticScenesIsItsRenderedTruthOverTheNonOccludedPixels) {
  const SourceTruth truth = SourceTruth::of_synthetic(small_scene());
  ASSERT_TRUE(truth.known());
  const std::optional<PairTruth> t = truth.at(2);
  ASSERT_TRUE(t);
  const SyntheticFrame frame = SyntheticScene(small_scene()).render(2);
  EXPECT_EQ(t->disparity.pixels(), frame.ground_truth.pixels());
  EXPECT_EQ(t->masks.nonocc.pixels(), frame.nonoccluded_mask.pixels());
  EXPECT_STREQ(SourceTruth::region_of(*t), "nonocc");
}

TEST(SourceTruth, ADatasetsIsItsFilesTruthWithItsMaskOrAll) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    ("stereoview_source_truth_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const SyntheticFrame frame = SyntheticScene(small_scene()).render(0);
  write_png((dir / "im0.png").string(), frame.left);
  write_png((dir / "im1.png").string(), frame.right);
  write_pfm((dir / "disp0GT.pfm").string(), frame.ground_truth);
  {
    const DatasetSource source(dir.string());
    const SourceTruth truth = SourceTruth::of_source(source);
    ASSERT_TRUE(truth.known());
    const std::optional<PairTruth> t = truth.at(0);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->disparity.pixels(), frame.ground_truth.pixels());
    EXPECT_STREQ(SourceTruth::region_of(*t), "all");  // no occlusion mask
    EXPECT_FALSE(truth.at(1));  // one pair only
  }
  write_png((dir / "mask0nocc.png").string(), frame.nonoccluded_mask);
  const DatasetSource source(dir.string());
  const std::optional<PairTruth> t = SourceTruth::of_source(source).at(0);
  ASSERT_TRUE(t);
  EXPECT_STREQ(SourceTruth::region_of(*t), "nonocc");
  std::filesystem::remove_all(dir);
}

TEST(SourceTruth, OtherSourcesHaveNone) {
  const SyntheticSource source(small_scene());  // as a frame source: no truth through it
  const SourceTruth truth = SourceTruth::of_source(source);
  EXPECT_FALSE(truth.known());
  EXPECT_FALSE(truth.at(0));
  EXPECT_FALSE(SourceTruth().known());
}

}  // namespace
}  // namespace sv
