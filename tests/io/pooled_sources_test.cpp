// Sources that write their pairs into pooled blocks they are given (FrameSource::use_pair_memory,
// issue 18) deliver the same pairs, byte for byte, as they do into memory of their own: image
// sequences, two videos, a side-by-side video, a still pair (its views), a dataset folder. The blocks hold garbage before, as blocks coming
// back from earlier frames do, so a pixel a source forgot to write would show.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "src/app/still_pair_source.h"
#include "src/core/block_pool.h"
#include "src/io/dataset_source.h"
#include "src/io/frame_conversion.h"
#include "src/io/image_sequence_source.h"
#include "src/io/packed_video_source.h"
#include "src/io/video_pair_source.h"
#include "tests/io/io_test_support.h"
#include "tests/support/counting_host_memory.h"

namespace sv {
namespace {

using test::fresh_dir;
using test::write_mjpeg_avi;

cv::Mat noise_frame(int width, int height, int seed) {
  cv::Mat frame(height, width, CV_8UC3);
  cv::RNG rng(seed);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
  return frame;
}

std::shared_ptr<BlockPool> dirty_pool(size_t bytes, int blocks) {
  auto pool = std::make_shared<BlockPool>(std::make_shared<test::CountingHostMemory>(), blocks);
  std::vector<std::shared_ptr<PixelBlock>> all;
  for (int i = 0; i < blocks; ++i) {
    all.push_back(pool->acquire(bytes));
    std::memset(all.back()->data(), 0x5A + 3 * i, bytes);
  }
  return pool;
}

// `count` pairs of noise images in `dir`: left_%d.png and right_%d.png.
void write_sequences(const std::string& dir, int count, int width, int height) {
  for (int i = 0; i < count; ++i) {
    cv::imwrite(dir + "/left_" + std::to_string(i) + ".png", noise_frame(width, height, i));
    cv::imwrite(dir + "/right_" + std::to_string(i) + ".png", noise_frame(width, height, 100 + i));
  }
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
    if (pairs >= first_pooled) {
      EXPECT_TRUE(b->left.block() && b->right.block()) << "pair " << pairs;
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

// A 16-bit gray noise image.
cv::Mat noise_frame16(int width, int height, int seed) {
  cv::Mat frame(height, width, CV_16UC1);
  cv::RNG rng(seed);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 65536);
  return frame;
}

TEST(PooledSources, AStillPairIsCopiedIntoGivenBlocks) {
  const std::string dir = fresh_dir("pooled_still");
  cv::imwrite(dir + "/l.png", noise_frame(31, 17, 1));
  cv::imwrite(dir + "/r.png", noise_frame(31, 17, 2));
  cv::imwrite(dir + "/l16.png", noise_frame16(31, 17, 3));
  cv::imwrite(dir + "/r16.png", noise_frame16(31, 17, 4));
  for (const char* depth : {"", "16"}) {
    const std::string l = dir + "/l" + depth + ".png", r = dir + "/r" + depth + ".png";
    StillPairSource own(l, r);
    StillPairSource pooled(l, r);
    pooled.use_pair_memory(dirty_pool(31 * 17 * sizeof(Rgb8), 4));
    std::optional<StereoPair> a = own.next();
    std::optional<StereoPair> b = pooled.next();
    ASSERT_TRUE(a && b) << depth;
    EXPECT_EQ(b->left, a->left) << depth;
    EXPECT_EQ(b->right, a->right) << depth;
    EXPECT_EQ(b->left16, a->left16) << depth;
    EXPECT_EQ(b->right16, a->right16) << depth;
    EXPECT_TRUE(b->left.block() && b->right.block()) << depth;
    EXPECT_EQ(b->left16.empty(), std::string(depth).empty());  // 16-bit planes kept as they were
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
