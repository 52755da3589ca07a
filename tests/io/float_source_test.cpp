// Float image files end to end: a PFM pair (the core's reader) and a 32-bit float TIFF pair
// (OpenCV) keep their values through the image-pair source, the views being the pair's 8-bit
// range view, and the matching takes the float values (src/core/high_bit_depth.h).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <vector>
#include <sstream>
#include <limits>
#include <opencv2/imgcodecs.hpp>
#include <string>

#include "src/app/cli_options.h"
#include "src/app/headless_runner.h"
#include "src/app/still_pair_source.h"
#include "src/core/cpu_engine.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/image_formats.h"
#include "src/io/image_sequence_source.h"
#include "src/io/png_io.h"
#include "tests/io/io_test_support.h"
#include "tests/support/float_pairs.h"

namespace sv {
namespace {

using test::fresh_dir;

// Bit for bit, so NaN compares equal to itself.
bool same_bits(const ImageF32& a, const ImageF32& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Values no integer image holds: fractions, negatives, a NaN, +inf and -0.
ImageF32 float_image(int width, int height, uint32_t seed) {
  ImageF32 image(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image.at(x, y) = test::hash_value(x, y, seed) * 0.01f - 1.0f + test::hash_value(x, y, seed + 1) * 1e-5f;
  image.at(0, 0) = std::numeric_limits<float>::quiet_NaN();
  image.at(1, 0) = std::numeric_limits<float>::infinity();
  image.at(2, 0) = -0.0f;
  return image;
}

void expect_range_views(const StereoPair& pair) {
  const FloatViewRange range = float_view_range(pair.leftf, pair.rightf, StereoParams());
  EXPECT_GT(range.scale, 0.0f);
  for (const auto& [view, values] : {std::pair{&pair.left, &pair.leftf}, std::pair{&pair.right, &pair.rightf}}) {
    ASSERT_TRUE(view->same_size(*values));
    for (size_t i = 0; i < values->size(); ++i) {
      const uint8_t v = eight_bit_value(values->data()[i], range);
      ASSERT_EQ(view->data()[i], (Rgb8{v, v, v})) << i;
    }
  }
}

TEST(FloatSource, PfmPairKeepsItsValues) {
  const std::string dir = fresh_dir("float_pfm_pair");
  const ImageF32 left = float_image(37, 21, 1), right = float_image(37, 21, 3);
  write_pfm(dir + "/left.pfm", left);
  write_pfm(dir + "/right.PFM", right);

  StillPairSource source(dir + "/left.pfm", dir + "/right.PFM");
  const std::optional<StereoPair> pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_TRUE(same_bits(pair->leftf, left));
  EXPECT_TRUE(same_bits(pair->rightf, right));
  EXPECT_TRUE(pair->left16.empty());
  expect_range_views(*pair);
  // The smallest finite value (-1 + ...) maps to 0 somewhere, the largest to 255.
  bool dark = false, bright = false;
  for (const Rgb8 p : pair->left.pixels()) dark |= p.r == 0, bright |= p.r == 255;
  for (const Rgb8 p : pair->right.pixels()) dark |= p.r == 0, bright |= p.r == 255;
  EXPECT_TRUE(dark && bright);
}

// A folder of PFM files is a sequence like the same files under a %04d pattern (it used to
// hold "no image files").
TEST(FloatSource, FolderOfPfmFilesIsASequence) {
  const std::string dir = fresh_dir("pfm_folders");
  std::filesystem::create_directories(dir + "/L");
  std::filesystem::create_directories(dir + "/R");
  std::vector<ImageF32> lefts, rights;
  for (int i = 0; i < 2; ++i) {
    lefts.push_back(float_image(13, 7, 40 + i));
    rights.push_back(float_image(13, 7, 50 + i));
    write_pfm(dir + "/L/f" + std::to_string(i) + ".pfm", lefts.back());
    write_pfm(dir + "/R/f" + std::to_string(i) + ".pfm", rights.back());
  }
  ImageSequenceSource folders(dir + "/L", dir + "/R");
  ASSERT_EQ(folders.frame_count(), 2);
  for (int i = 0; i < 2; ++i) {
    const std::optional<StereoPair> pair = folders.next();
    ASSERT_TRUE(pair) << i;
    EXPECT_TRUE(same_bits(pair->leftf, lefts[static_cast<size_t>(i)])) << i;
    EXPECT_TRUE(same_bits(pair->rightf, rights[static_cast<size_t>(i)])) << i;
    expect_range_views(*pair);
  }
  ImageSequenceSource pattern(dir + "/L/f%d.pfm", dir + "/R/f%d.pfm");
  ASSERT_EQ(pattern.frame_count(), 2);
  EXPECT_TRUE(same_bits(pattern.next()->leftf, lefts[0]));
}

TEST(FloatSource, FloatTiffPairKeepsItsValues) {
  const std::string dir = fresh_dir("float_tiff_pair");
  const ImageF32 left = float_image(33, 19, 5), right = float_image(33, 19, 7);
  for (const auto& [name, image] : {std::pair{"left", &left}, std::pair{"right", &right}}) {
    const cv::Mat mat(image->height(), image->width(), CV_32FC1,
                      const_cast<float*>(image->data()));
    ASSERT_TRUE(cv::imwrite(dir + "/" + name + ".tiff", mat));
  }
  StillPairSource source(dir + "/left.tiff", dir + "/right.tiff");
  const std::optional<StereoPair> pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_TRUE(same_bits(pair->leftf, left));
  EXPECT_TRUE(same_bits(pair->rightf, right));
  expect_range_views(*pair);

  // A float colour file is refused by name.
  cv::Mat colour(4, 4, CV_32FC3, cv::Scalar(0.5, 0.25, 1.0));
  ASSERT_TRUE(cv::imwrite(dir + "/colour.tiff", colour));
  try {
    read_image_full_depth(dir + "/colour.tiff");
    FAIL() << "a float colour file was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("colour.tiff"), std::string::npos) << e.what();
  }
}

TEST(FloatSource, MixedFloatAndIntegerPairIsRefused) {
  const std::string dir = fresh_dir("float_mixed_pair");
  write_pfm(dir + "/left.pfm", float_image(16, 8, 9));
  write_png(dir + "/right.png", ImageU8(16, 8));
  try {
    StillPairSource source(dir + "/left.pfm", dir + "/right.png");
    FAIL() << "a float and an 8-bit file were accepted as a pair";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("float"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("left.pfm"), std::string::npos) << e.what();
  }
  write_pfm(dir + "/small.pfm", float_image(15, 8, 10));
  EXPECT_THROW(StillPairSource(dir + "/left.pfm", dir + "/small.pfm"), InputError);
}

// The pair read back matches on its float values: texture below one gray level gives the shift.
TEST(FloatSource, PfmPairMatchesOnItsFloatValues) {
  const std::string dir = fresh_dir("float_pfm_match");
  const int shift = 5;
  const auto pair = test::sub_gray_shifted_pair(72, 32, shift, 11);
  write_pfm(dir + "/left.pfm", pair.left);
  write_pfm(dir + "/right.pfm", pair.right);
  StillPairSource source(dir + "/left.pfm", dir + "/right.pfm");
  const std::optional<StereoPair> read = source.next();
  ASSERT_TRUE(read);
  StereoParams params;
  params.num_disparities = 16;
  params.lr_check = false;
  CpuEngine engine;
  const DisparityResult result = match_at_full_depth(engine, read->left, read->right, read->leftf,
                                                     read->rightf, read->left16, read->right16, params);
  EXPECT_EQ(result.disparity_fixed, engine.compute(pair.left, pair.right, params).disparity_fixed);
  EXPECT_NEAR(result.disparity.at(36, 16), shift, 0.1f);
}

// The headless CLI on a PFM pair whose texture lives below one gray level: it says it matches
// the float values and finds the shift.
TEST(FloatCli, HeadlessRunMatchesTheFloatValues) {
  const std::string dir = fresh_dir("float_cli");
  const int shift = 5;
  const auto pair = test::sub_gray_shifted_pair(96, 48, shift, 23);
  write_pfm(dir + "/left.pfm", pair.left);
  write_pfm(dir + "/right.pfm", pair.right);
  const std::vector<std::string> args = {"stereoview", "--left", dir + "/left.pfm", "--right",
                                         dir + "/right.pfm", "--headless", "--engine", "cpu",
                                         "--disparities", "16", "--subpixel", "off", "--out",
                                         dir + "/out"};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int rc = run_headless(parse_cli(static_cast<int>(argv.size()), argv.data()), out, err);
  ASSERT_EQ(rc, 0) << out.str() << err.str();
  EXPECT_NE(out.str().find("matching the float values"), std::string::npos) << out.str();
  const ImageF32 disparity = read_pfm(dir + "/out/disparity_000000.pfm");
  ASSERT_EQ(disparity.width(), 96);
  int hits = 0, total = 0;
  for (int y = 4; y < 44; ++y) {
    for (int x = shift + 5; x < 91; ++x, ++total) hits += disparity.at(x, y) == shift;
  }
  EXPECT_GE(hits, total * 95 / 100);
}

}  // namespace
}  // namespace sv
