// Sources that write their pairs into pooled blocks they are given (FrameSource::use_pair_memory,
// issue 18) deliver the same pairs, byte for byte, as they do into memory of their own: image
// sequences (8-bit, 16-bit and float), two videos, a side-by-side video, a still pair (its views
// and 16-bit or float planes), a dataset folder (16-bit videos: full_depth_video_test.cpp). The blocks hold garbage
// before, as blocks coming back from earlier frames do, so a pixel a source forgot to write would
// show.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "src/app/still_pair_source.h"
#include "src/core/block_pool.h"
#include "src/core/image_formats.h"
#include "src/io/dataset_source.h"
#include "src/io/frame_conversion.h"
#include "src/io/image_sequence_source.h"
#include "src/io/packed_video_source.h"
#include "src/io/video_pair_source.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using test::dirty_pool;
using test::fresh_dir;
using test::write_mjpeg_avi;

cv::Mat noise_frame(int width, int height, int seed) {
  cv::Mat frame(height, width, CV_8UC3);
  cv::RNG rng(seed);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
  return frame;
}

// `count` pairs of noise images in `dir`: left_%d.png and right_%d.png.
void write_sequences(const std::string& dir, int count, int width, int height) {
  for (int i = 0; i < count; ++i) {
    cv::imwrite(dir + "/left_" + std::to_string(i) + ".png", noise_frame(width, height, i));
    cv::imwrite(dir + "/right_" + std::to_string(i) + ".png", noise_frame(width, height, 100 + i));
  }
}

// Float planes equal bit for bit (NaN included).
bool same_bits(const ImageF32& a, const ImageF32& b) {
  return a.same_size(b) &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Reads both sources to their end; the pooled one's pairs from `first_pooled` on lie in blocks.
void expect_same_pairs(FrameSource& own, FrameSource& pooled, int expected_pairs,
                       int first_pooled = 0) {
  int pairs = 0;
  while (true) {
    std::optional<StereoPair> a = own.next();
    std::optional<StereoPair> b = pooled.next();
    ASSERT_EQ(a.has_value(), b.has_value()) << "pair " << pairs;
    if (!a) break;
    EXPECT_EQ(b->left, a->left) << "pair " << pairs;
    EXPECT_EQ(b->right, a->right) << "pair " << pairs;
    EXPECT_EQ(b->left16, a->left16) << "pair " << pairs;
    EXPECT_EQ(b->right16, a->right16) << "pair " << pairs;
    EXPECT_TRUE(same_bits(b->leftf, a->leftf) && same_bits(b->rightf, a->rightf)) << "pair " << pairs;
    if (pairs >= first_pooled) {
      // What an engine uploads: the 16-bit or float planes of such a source (its views are for
      // display), else the views.
      const bool in_blocks = !a->leftf.empty()    ? b->leftf.block() && b->rightf.block()
                             : !a->left16.empty() ? b->left16.block() && b->right16.block()
                                                  : b->left.block() && b->right.block();
      EXPECT_TRUE(in_blocks) << "pair " << pairs;
    }
    ++pairs;
  }
  EXPECT_EQ(pairs, expected_pairs);
}

TEST(PooledSources, ImageSequencesDecodeIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_sequence");
  write_sequences(dir, 4, 37, 23);
  ImageSequenceSource own(dir + "/left_%d.png", dir + "/right_%d.png");
  ImageSequenceSource pooled(dir + "/left_%d.png", dir + "/right_%d.png");
  pooled.use_pair_memory(dirty_pool(37 * 23 * sizeof(Rgb8), 4));
  expect_same_pairs(own, pooled, 4);
}

// A 16-bit gray noise image.
cv::Mat noise_frame16(int width, int height, int seed) {
  cv::Mat frame(height, width, CV_16UC1);
  cv::RNG rng(seed);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 65536);
  return frame;
}

TEST(PooledSources, SixteenBitImageSequencesDecodeIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_sequence16");
  for (int i = 0; i < 3; ++i) {
    cv::imwrite(dir + "/left_" + std::to_string(i) + ".png", noise_frame16(29, 19, i));
    cv::imwrite(dir + "/right_" + std::to_string(i) + ".png", noise_frame16(29, 19, 50 + i));
  }
  ImageSequenceSource own(dir + "/left_%d.png", dir + "/right_%d.png");
  ImageSequenceSource pooled(dir + "/left_%d.png", dir + "/right_%d.png");
  pooled.use_pair_memory(dirty_pool(29 * 19 * sizeof(Rgb8), 8));
  expect_same_pairs(own, pooled, 3);
}

// A float plane with every kind of value a float file can hold.
ImageF32 noise_float(int width, int height, int seed) {
  ImageF32 image(width, height);
  for (size_t i = 0; i < image.size(); ++i) {
    image.data()[i] = static_cast<float>((i * 7919 + seed * 104729) % 20011) * 0.37f - 3000.0f;
  }
  image.data()[0] = std::numeric_limits<float>::infinity();
  image.data()[1] = std::numeric_limits<float>::quiet_NaN();
  return image;
}

TEST(PooledSources, FloatImageSequencesDecodeIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_sequencef");
  for (int i = 0; i < 3; ++i) {
    write_pfm(dir + "/left_" + std::to_string(i) + ".pfm", noise_float(23, 11, i));
    write_pfm(dir + "/right_" + std::to_string(i) + ".pfm", noise_float(23, 11, 50 + i));
  }
  ImageSequenceSource own(dir + "/left_%d.pfm", dir + "/right_%d.pfm");
  ImageSequenceSource pooled(dir + "/left_%d.pfm", dir + "/right_%d.pfm");
  pooled.use_pair_memory(dirty_pool(23 * 11 * sizeof(float), 8));
  expect_same_pairs(own, pooled, 3);
}

TEST(PooledSources, TwoVideosDecodeIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_videos");
  std::vector<cv::Mat> left, right;
  for (int i = 0; i < 5; ++i) {
    left.push_back(noise_frame(48, 32, i));
    right.push_back(noise_frame(48, 32, 50 + i));
  }
  write_mjpeg_avi(dir + "/l.avi", left);
  write_mjpeg_avi(dir + "/r.avi", right);
  VideoPairSource own(dir + "/l.avi", dir + "/r.avi");
  VideoPairSource pooled(dir + "/l.avi", dir + "/r.avi");
  pooled.use_pair_memory(dirty_pool(48 * 32 * sizeof(Rgb8), 4));
  // The first frame is decoded as the file opens, before any pool is known.
  expect_same_pairs(own, pooled, 5, /*first_pooled=*/1);
}

TEST(PooledSources, ASideBySideVideoIsCutIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_packed");
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(noise_frame(96, 32, 7 * i));
  write_mjpeg_avi(dir + "/sbs.avi", frames);
  PackedVideoSource own(dir + "/sbs.avi", PackedLayout::SideBySide);
  PackedVideoSource pooled(dir + "/sbs.avi", PackedLayout::SideBySide);
  pooled.use_pair_memory(dirty_pool(48 * 32 * sizeof(Rgb8), 4));
  expect_same_pairs(own, pooled, 4);
}

TEST(PooledSources, AStillPairIsCopiedIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_still");
  cv::imwrite(dir + "/l.png", noise_frame(31, 17, 1));
  cv::imwrite(dir + "/r.png", noise_frame(31, 17, 2));
  cv::imwrite(dir + "/l16.png", noise_frame16(31, 17, 3));
  cv::imwrite(dir + "/r16.png", noise_frame16(31, 17, 4));
  write_pfm(dir + "/lf.pfm", noise_float(31, 17, 5));
  write_pfm(dir + "/rf.pfm", noise_float(31, 17, 6));
  for (const std::string depth : {"", "16", "f"}) {
    const std::string ext = depth == "f" ? ".pfm" : ".png";
    const std::string l = dir + "/l" + depth + ext, r = dir + "/r" + depth + ext;
    StillPairSource own(l, r);
    StillPairSource pooled(l, r);
    // Views and 16-bit or float planes: four blocks a pair, and a second pair while the first
    // is held.
    pooled.use_pair_memory(dirty_pool(31 * 17 * sizeof(float), 8));
    std::optional<StereoPair> a = own.next();
    std::optional<StereoPair> b = pooled.next();
    ASSERT_TRUE(a && b) << depth;
    EXPECT_EQ(b->left, a->left) << depth;
    EXPECT_EQ(b->right, a->right) << depth;
    EXPECT_EQ(b->left16, a->left16) << depth;
    EXPECT_EQ(b->right16, a->right16) << depth;
    EXPECT_TRUE(b->left.block() && b->right.block()) << depth;
    EXPECT_TRUE(same_bits(b->leftf, a->leftf) && same_bits(b->rightf, a->rightf)) << depth;
    EXPECT_EQ(b->left16.empty(), depth != "16");
    EXPECT_EQ(b->leftf.empty(), depth != "f");
    if (!b->left16.empty()) {
      EXPECT_TRUE(b->left16.block() && b->right16.block());
    }
    if (!b->leftf.empty()) {
      EXPECT_TRUE(b->leftf.block() && b->rightf.block());
    }
    // Sought back to the start, it delivers the pair again (into blocks again).
    EXPECT_FALSE(pooled.next());
    ASSERT_TRUE(pooled.seek(0));
    std::optional<StereoPair> again = pooled.next();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->left, a->left);
    EXPECT_TRUE(again->left.block() && again->right.block()) << depth;
  }
}

TEST(PooledSources, ADatasetFolderIsCopiedIntoGivenBlocks) {
  const std::string dir = test::write_middlebury_scene("pooled_dataset", noise_frame(40, 30, 5),
                                                       noise_frame(40, 30, 6), 5.0f);
  DatasetSource own(dir);
  DatasetSource pooled(dir);
  pooled.use_pair_memory(dirty_pool(40 * 30 * sizeof(Rgb8), 4));
  expect_same_pairs(own, pooled, 1);
}

// The frame loops keep a pair to match again and hand the engine sharing_views(pair): pooled
// views and 16-bit planes are shared, not copied; planes of their own memory are copied.
TEST(PooledSources, SharingViewsSharesPooledPlanesAndCopiesOwnOnes) {
  auto pool = dirty_pool(16 * 8 * sizeof(Rgb8), 8);
  StereoPair pair;
  pair.left = pooled_copy(pool.get(), ImageRgb8(16, 8, Rgb8{1, 2, 3}));
  pair.right = pooled_copy(pool.get(), ImageRgb8(16, 8, Rgb8{4, 5, 6}));
  pair.left16 = pooled_copy(pool.get(), ImageU16(16, 8, 1000));
  pair.right16 = ImageU16(16, 8, 2000);  // memory of its own
  const StereoPair shared = sharing_views(pair);
  EXPECT_EQ(shared.left.data(), pair.left.data());
  EXPECT_EQ(shared.right.data(), pair.right.data());
  EXPECT_EQ(shared.left16.data(), pair.left16.data());
  EXPECT_EQ(shared.left16.block(), pair.left16.block());
  EXPECT_NE(shared.right16.data(), pair.right16.data());
  EXPECT_EQ(shared.right16, pair.right16);
}

TEST(PooledSources, AnExhaustedPoolLeavesTheSourceItsOwnMemory) {
  const std::string dir = fresh_dir("pooled_exhausted");
  write_sequences(dir, 3, 16, 8);
  ImageSequenceSource own(dir + "/left_%d.png", dir + "/right_%d.png");
  ImageSequenceSource pooled(dir + "/left_%d.png", dir + "/right_%d.png");
  const auto pool = dirty_pool(16 * 8 * sizeof(Rgb8), 1);
  pooled.use_pair_memory(pool);
  std::vector<StereoPair> kept;  // a consumer that holds every pair: one block is soon all out
  for (int i = 0; i < 3; ++i) {
    std::optional<StereoPair> a = own.next();
    std::optional<StereoPair> b = pooled.next();
    ASSERT_TRUE(a && b);
    EXPECT_EQ(b->left, a->left);
    EXPECT_EQ(b->right, a->right);
    kept.push_back(std::move(*b));
  }
  EXPECT_TRUE(kept[0].left.block());
  EXPECT_FALSE(kept[0].right.block());
  EXPECT_FALSE(kept[2].left.block());
  EXPECT_EQ(pool->blocks(), 1);
}

}  // namespace
}  // namespace sv
