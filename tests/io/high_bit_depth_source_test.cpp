// 16-bit image files end to end: a 16-bit PNG pair keeps its values through the image-pair
// source (beside the 8-bit views), rectification keeps the planes aligned with the views, and the
// headless CLI matches the 16-bit values (src/core/high_bit_depth.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "src/app/cli_options.h"
#include "src/app/headless_runner.h"
#include "src/io/image_sequence_source.h"
#include "src/app/still_pair_source.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/image_formats.h"
#include "src/io/png_io.h"
#include "tests/io/io_test_support.h"
#include "tests/support/high_bit_depth_pairs.h"

namespace sv {
namespace {

using test::fresh_dir;

// Values across the whole 16-bit range, with neighbours that differ only in the low byte.
ImageU16 full_range_image(int width, int height, uint32_t seed) {
  ImageU16 image(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image.at(x, y) = static_cast<uint16_t>(test::hash_value(x, y, seed) * 256 +
                                             test::hash_value(x, y, seed + 1));
  image.at(0, 0) = 0;
  image.at(1, 0) = 65535;
  image.at(2, 0) = 255;
  image.at(3, 0) = 256;
  return image;
}

TEST(HighBitDepthSource, SixteenBitPngPairKeepsItsValues) {
  const std::string dir = fresh_dir("deep_pair");
  const ImageU16 left = full_range_image(37, 21, 1), right = full_range_image(37, 21, 2);
  write_png(dir + "/left.png", left);
  write_png(dir + "/right.png", right);

  StillPairSource source(dir + "/left.png", dir + "/right.png");
  const std::optional<StereoPair> pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->left16, left);
  EXPECT_EQ(pair->right16, right);
  // The 8-bit views are the high bytes, replicated into r, g, b.
  const ImageU8 view = eight_bit_view(left);
  ASSERT_TRUE(pair->left.same_size(left));
  for (size_t i = 0; i < view.size(); ++i) {
    const uint8_t v = view.data()[i];
    ASSERT_EQ(pair->left.data()[i], (Rgb8{v, v, v})) << i;
  }
  EXPECT_EQ(pair->left.at(1, 0), (Rgb8{255, 255, 255}));
  EXPECT_EQ(pair->left.at(3, 0), (Rgb8{1, 1, 1}));
}

TEST(HighBitDepthSource, SixteenBitColourGivesFullDepthGray) {
  const std::string dir = fresh_dir("deep_colour");
  cv::Mat bgr(2, 3, CV_16UC3);
  const uint16_t samples[6][3] = {{0, 0, 0},       {65535, 65535, 65535}, {1000, 2000, 3000},
                                  {65535, 0, 0},   {0, 65535, 0},         {300, 301, 302}};
  for (int i = 0; i < 6; ++i)
    for (int c = 0; c < 3; ++c) bgr.at<cv::Vec3w>(i / 3, i % 3)[c] = samples[i][c];
  ASSERT_TRUE(cv::imwrite(dir + "/c.png", bgr));
  const FullDepthImage image = read_image_full_depth(dir + "/c.png");
  ASSERT_EQ(image.gray16.width(), 3);
  for (int i = 0; i < 6; ++i) {
    const uint32_t b = samples[i][0], g = samples[i][1], r = samples[i][2];
    EXPECT_EQ(image.gray16.data()[i], (77 * r + 150 * g + 29 * b + 128) >> 8) << i;
    EXPECT_EQ(image.view.data()[i], (Rgb8{static_cast<uint8_t>(r >> 8), static_cast<uint8_t>(g >> 8),
                                          static_cast<uint8_t>(b >> 8)}))
        << i;
  }
  EXPECT_EQ(image.gray16.data()[1], 65535);
  EXPECT_EQ(image.gray16.data()[2], 2188);  // (77*3000 + 150*2000 + 29*1000 + 128) >> 8 = 560128 >> 8
}

TEST(HighBitDepthSource, EightBitFilesHaveNoPlanesAndDepthsMustAgree) {
  const std::string dir = fresh_dir("shallow_pair");
  ImageU8 gray(16, 8, 99);
  write_png(dir + "/a.png", gray);
  write_png(dir + "/b.png", gray);
  write_png(dir + "/deep.png", full_range_image(16, 8, 3));
  StillPairSource shallow(dir + "/a.png", dir + "/b.png");
  const auto pair = shallow.next();
  ASSERT_TRUE(pair);
  EXPECT_TRUE(pair->left16.empty());
  EXPECT_TRUE(pair->right16.empty());
  EXPECT_EQ(pair->left.at(3, 3), (Rgb8{99, 99, 99}));
  try {
    StillPairSource mixed(dir + "/deep.png", dir + "/b.png");
    FAIL() << "a 16-bit and an 8-bit file were accepted as a pair";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("same bit depth"), std::string::npos) << e.what();
  }
}

// 16-bit PGM/PPM used to go through the 8-bit path, losing the low byte silently, and a 16-bit
// PGM with an 8-bit one passed as a pair.
TEST(HighBitDepthSource, SixteenBitPgmPairKeepsItsValuesAndDepthsMustAgree) {
  const std::string dir = fresh_dir("deep_pgm");
  const ImageU16 left = full_range_image(23, 11, 5), right = full_range_image(23, 11, 6);
  write_pgm(dir + "/left.pgm", left);
  write_pgm(dir + "/right.pgm", right);
  write_pgm(dir + "/shallow.pgm", eight_bit_view(right));

  StillPairSource source(dir + "/left.pgm", dir + "/right.pgm");
  const std::optional<StereoPair> pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->left16, left);
  EXPECT_EQ(pair->right16, right);
  EXPECT_EQ(pair->left.at(1, 0), (Rgb8{255, 255, 255}));
  EXPECT_EQ(pair->left.at(3, 0), (Rgb8{1, 1, 1}));
  try {
    StillPairSource mixed(dir + "/left.pgm", dir + "/shallow.pgm");
    FAIL() << "a 16-bit and an 8-bit PGM were accepted as a pair";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("same bit depth"), std::string::npos) << message;
    EXPECT_NE(message.find(dir + "/left.pgm"), std::string::npos) << message;
    EXPECT_NE(message.find(dir + "/shallow.pgm"), std::string::npos) << message;
  }

  // The same files in folders: the sequence keeps the depth too.
  std::filesystem::create_directories(dir + "/L");
  std::filesystem::create_directories(dir + "/R");
  write_pgm(dir + "/L/0.pgm", left);
  write_pgm(dir + "/R/0.pgm", right);
  ImageSequenceSource folders(dir + "/L", dir + "/R");
  const std::optional<StereoPair> frame = folders.next();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->left16, left);
  EXPECT_EQ(frame->right16, right);
}

TEST(HighBitDepthSource, SixteenBitImageSequencesKeepTheirValuesFrameByFrame) {
  const std::string dir = fresh_dir("deep_sequence");
  std::vector<ImageU16> lefts, rights;
  for (int i = 0; i < 2; ++i) {
    lefts.push_back(full_range_image(29, 17, 10 + i));
    rights.push_back(full_range_image(29, 17, 20 + i));
    write_png(dir + "/left_000" + std::to_string(i) + ".png", lefts.back());
    write_png(dir + "/right_000" + std::to_string(i) + ".png", rights.back());
  }
  ImageSequenceSource source(dir + "/left_%04d.png", dir + "/right_%04d.png");
  for (int i = 0; i < 2; ++i) {
    const std::optional<StereoPair> pair = source.next();
    ASSERT_TRUE(pair) << i;
    EXPECT_EQ(pair->left16, lefts[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(pair->right16, rights[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(pair->left.at(1, 0), (Rgb8{255, 255, 255}));
  }
  EXPECT_FALSE(source.next());

  // A sequence whose right frame is 8-bit is refused with both names.
  write_png(dir + "/right_0000.png", eight_bit_view(rights[0]));
  ImageSequenceSource mixed(dir + "/left_%04d.png", dir + "/right_%04d.png");
  try {
    mixed.next();
    FAIL() << "a mix of 16-bit and 8-bit frames was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("differ in sample depth"), std::string::npos) << e.what();
  }
}

// Runs the headless CLI in-process; returns its exit code.
int run_cli(const std::vector<std::string>& args, std::string& out, std::string& err) {
  std::vector<const char*> argv{"stereoview"};
  for (const auto& a : args) argv.push_back(a.c_str());
  const CliOptions options = parse_cli(static_cast<int>(argv.size()), argv.data());
  std::ostringstream o, e;
  const int rc = run_headless(options, o, e);
  out = o.str();
  err = e.str();
  return rc;
}

TEST(HighBitDepthCli, HeadlessRunMatchesTheSixteenBitValues) {
  const std::string dir = fresh_dir("deep_cli");
  const int shift = 7;
  const auto pair = test::low_byte_shifted_pair(96, 48, shift, 41);  // flat in 8 bits
  write_png(dir + "/left.png", pair.left);
  write_png(dir + "/right.png", pair.right);
  std::string out, err;
  const int rc = run_cli({"--left", dir + "/left.png", "--right", dir + "/right.png", "--headless",
                          "--engine", "cpu", "--disparities", "16", "--subpixel", "off", "--out",
                          dir + "/out"},
                         out, err);
  ASSERT_EQ(rc, 0) << out << err;
  EXPECT_NE(out.find("matching the 16-bit values"), std::string::npos) << out;
  const ImageF32 disparity = read_pfm(dir + "/out/disparity_000000.pfm");
  ASSERT_EQ(disparity.width(), 96);
  int hits = 0, total = 0;
  for (int y = 3; y < 45; ++y)
    for (int x = shift + 4; x < 92; ++x, ++total) hits += disparity.at(x, y) == shift;
  EXPECT_GE(hits, total * 98 / 100);

  // An algorithm without a 16-bit form says so and matches the 8-bit view instead.
  const int rc_bm = run_cli({"--left", dir + "/left.png", "--right", dir + "/right.png",
                             "--headless", "--engine", "cpu", "--disparities", "16",
                             "--algorithm", "bm-sad"},
                            out, err);
  EXPECT_EQ(rc_bm, 0) << out << err;
  EXPECT_NE(err.find("bm-sad cannot take 16-bit input"), std::string::npos) << err;
}

}  // namespace
}  // namespace sv
