// 16-bit gray videos as sources (src/io/video_file_reader.h): FFV1 gray16le files written here,
// as two views and packed side by side / top-bottom, must come back through the file sources with
// every value (far above 255) unchanged, the 8-bit view being their high byte; seeking, the ends
// of the files and bad input (mixed depths, a cut file) behave as for 8-bit video.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/io/ffmpeg_video_reader.h"
#include "src/io/ffmpeg_video_writer.h"
#include "src/io/frame_conversion.h"
#include "src/io/packed_video_source.h"
#include "src/io/video_file_reader.h"
#include "src/io/video_pair_source.h"
#include "tests/io/io_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

constexpr int kWidth = 37;  // odd, so no codec padding can hide
constexpr int kHeight = 22;
constexpr int kFrames = 5;

// Frame `i` of view `view`: values over the whole 16-bit range, with fine structure in the low
// byte (lost by any 8-bit path) and the extremes 0 and 65535 present.
ImageU16 frame16(int width, int height, int i, int view) {
  ImageU16 image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.at(x, y) = static_cast<uint16_t>(test::hash_value(x, y, 100 + 7 * i + view) * 256 +
                                             test::hash_value(x, y, 200 + 7 * i + view));
    }
  }
  image.at(0, 0) = 0;
  image.at(1, 0) = 65535;
  image.at(2, 0) = 0x0101 * static_cast<uint16_t>(i + 1);
  return image;
}

void write_gray16_video(const std::string& path, const std::vector<ImageU16>& frames,
                        double fps = 10.0) {
  VideoWriterSettings settings;
  settings.path = path;
  settings.codec = "ffv1";
  settings.width = frames.front().width();
  settings.height = frames.front().height();
  settings.frames_per_second = fps;
  settings.gray16 = true;
  FfmpegVideoWriter writer(settings);
  for (const ImageU16& frame : frames) writer.write(frame);
  writer.finish();
}

std::vector<ImageU16> view_frames(int view) {
  std::vector<ImageU16> frames;
  for (int i = 0; i < kFrames; ++i) frames.push_back(frame16(kWidth, kHeight, i, view));
  return frames;
}

ImageU16 pack(const ImageU16& left, const ImageU16& right, bool side_by_side) {
  ImageU16 out(side_by_side ? 2 * left.width() : left.width(),
               side_by_side ? left.height() : 2 * left.height());
  for (int y = 0; y < left.height(); ++y) {
    for (int x = 0; x < left.width(); ++x) {
      out.at(x, y) = left.at(x, y);
      if (side_by_side) out.at(x + left.width(), y) = right.at(x, y);
      else out.at(x, y + left.height()) = right.at(x, y);
    }
  }
  return out;
}

// The pair must hold the written values exactly and, as views, their high bytes.
void expect_pair_equals(const StereoPair& pair, const ImageU16& left, const ImageU16& right, int i) {
  EXPECT_EQ(pair.index, i);
  ASSERT_EQ(pair.left16, left) << "frame " << i;
  ASSERT_EQ(pair.right16, right) << "frame " << i;
  EXPECT_EQ(pair.left, to_rgb(eight_bit_view(left))) << "frame " << i;
  EXPECT_EQ(pair.right, to_rgb(eight_bit_view(right))) << "frame " << i;
  EXPECT_TRUE(pair.leftf.empty());
}

TEST(FullDepthVideo, ReaderDetectsGrayDepthAndKeepsValues) {
  const std::string dir = test::fresh_dir("deep_reader");
  const auto frames = view_frames(0);
  write_gray16_video(dir + "/a.mkv", frames);
  EXPECT_EQ(video_gray_bits(dir + "/a.mkv"), std::optional<int>(16));

  VideoFileReader reader(dir + "/a.mkv");
  EXPECT_TRUE(reader.high_bit_depth());
  EXPECT_EQ(reader.gray_bits(), 16);
  EXPECT_EQ(reader.width(), kWidth);
  EXPECT_EQ(reader.height(), kHeight);
  EXPECT_NEAR(reader.frames_per_second(), 10.0, 1e-6);
  for (int i = 0; i < kFrames; ++i) {
    const auto frame = reader.read();
    ASSERT_TRUE(frame) << i;
    EXPECT_EQ(frame->gray16, frames[i]) << i;
    EXPECT_DOUBLE_EQ(frame->timestamp_s, i / 10.0);
  }
  EXPECT_FALSE(reader.read());
  EXPECT_FALSE(reader.ended_early());

  // An 8-bit colour video is not taken for a deep one.
  std::vector<cv::Mat> mats;
  for (int i = 0; i < 2; ++i) mats.push_back(test::flat_frame(32, 16, test::level_of_frame(i)));
  test::write_mjpeg_avi(dir + "/c.avi", mats);
  EXPECT_EQ(video_gray_bits(dir + "/c.avi"), std::optional<int>(0));
  VideoFileReader colour(dir + "/c.avi");
  EXPECT_FALSE(colour.high_bit_depth());
  const auto first = colour.read();
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->gray16.empty());
  EXPECT_EQ(video_gray_bits(dir + "/missing.mkv"), std::nullopt);
}

TEST(FullDepthVideo, TwoSixteenBitVideosGiveExactPairs) {
  const std::string dir = test::fresh_dir("deep_pair");
  const auto left = view_frames(0), right = view_frames(1);
  write_gray16_video(dir + "/l.mkv", left);
  write_gray16_video(dir + "/r.mkv", right);
  VideoPairSource source(dir + "/l.mkv", dir + "/r.mkv");
  EXPECT_NE(source.describe().find("16-bit"), std::string::npos) << source.describe();
  for (int i = 0; i < kFrames; ++i) {
    const auto pair = source.next();
    ASSERT_TRUE(pair) << i;
    expect_pair_equals(*pair, left[i], right[i], i);
  }
  EXPECT_FALSE(source.next());

  // Seeking decodes from the start and lands on the exact frame.
  ASSERT_TRUE(source.seek(3));
  const auto third = source.next();
  ASSERT_TRUE(third);
  expect_pair_equals(*third, left[3], right[3], 3);
  ASSERT_TRUE(source.seek(0));
  const auto zeroth = source.next();
  ASSERT_TRUE(zeroth);
  expect_pair_equals(*zeroth, left[0], right[0], 0);
}

TEST(FullDepthVideo, PackedSixteenBitVideoSplitsExactly) {
  const std::string dir = test::fresh_dir("deep_packed");
  const auto left = view_frames(2), right = view_frames(3);
  for (const bool sbs : {true, false}) {
    std::vector<ImageU16> packed;
    for (int i = 0; i < kFrames; ++i) packed.push_back(pack(left[i], right[i], sbs));
    const std::string path = dir + (sbs ? "/sbs.mkv" : "/tb.avi");
    write_gray16_video(path, packed);
    PackedVideoSource source(path, sbs ? PackedLayout::SideBySide : PackedLayout::TopBottom);
    EXPECT_NE(source.describe().find("16-bit"), std::string::npos) << source.describe();
    for (int i = 0; i < kFrames; ++i) {
      const auto pair = source.next();
      ASSERT_TRUE(pair) << path << " " << i;
      expect_pair_equals(*pair, left[i], right[i], i);
    }
    EXPECT_FALSE(source.next()) << path;
    ASSERT_TRUE(source.seek(4)) << path;
    const auto last = source.next();
    ASSERT_TRUE(last);
    expect_pair_equals(*last, left[4], right[4], 4);
  }
}

// Given the frame loop's pooled memory (issue 18), both kinds of 16-bit video sources decode
// their 16-bit planes, which an engine uploads, into its blocks, with the same values; the first
// frame is decoded as the file opens, before any pool is known.
TEST(FullDepthVideo, SixteenBitPlanesDecodeIntoGivenBlocks) {
  const std::string dir = test::fresh_dir("deep_pooled");
  const auto left = view_frames(4), right = view_frames(5);
  write_gray16_video(dir + "/l.mkv", left);
  write_gray16_video(dir + "/r.mkv", right);
  std::vector<ImageU16> packed;
  for (int i = 0; i < kFrames; ++i) packed.push_back(pack(left[i], right[i], true));
  write_gray16_video(dir + "/sbs.mkv", packed);
  VideoPairSource two(dir + "/l.mkv", dir + "/r.mkv");
  PackedVideoSource side_by_side(dir + "/sbs.mkv", PackedLayout::SideBySide);
  for (FrameSource* source : std::vector<FrameSource*>{&two, &side_by_side}) {
    source->use_pair_memory(test::dirty_pool(kWidth * kHeight * sizeof(Rgb8), 8));
    for (int i = 0; i < kFrames; ++i) {
      const auto pair = source->next();
      ASSERT_TRUE(pair) << source->describe() << " " << i;
      expect_pair_equals(*pair, left[i], right[i], i);
      if (i > 0 || source == &side_by_side) {
        EXPECT_TRUE(pair->left16.block() && pair->right16.block()) << source->describe() << " " << i;
      }
    }
  }
}

TEST(FullDepthVideo, EightAndSixteenBitViewsAreRefusedTogether) {
  const std::string dir = test::fresh_dir("deep_mixed");
  // Even sizes: MJPEG would pad an odd width, and the depth must be what tells them apart.
  std::vector<ImageU16> deep;
  for (int i = 0; i < kFrames; ++i) deep.push_back(frame16(32, 16, i, 0));
  write_gray16_video(dir + "/l.mkv", deep);
  std::vector<cv::Mat> mats;
  for (int i = 0; i < kFrames; ++i) mats.push_back(test::flat_frame(32, 16, test::level_of_frame(i)));
  test::write_mjpeg_avi(dir + "/r.avi", mats);
  try {
    VideoPairSource source(dir + "/l.mkv", dir + "/r.avi");
    FAIL() << "a 16-bit and an 8-bit video were paired";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("16-bit"), std::string::npos) << message;
    EXPECT_NE(message.find("8-bit"), std::string::npos) << message;
    EXPECT_NE(message.find("sample depth"), std::string::npos) << message;
  }
}

// A recording cut short (a full disk): the frames before the cut come back exactly, then the
// source ends without an exception; a file with nothing decodable is refused by name.
TEST(FullDepthVideo, ACutFileReadsUpToTheCutAndGarbageIsRefused) {
  const std::string dir = test::fresh_dir("deep_cut");
  const auto left = view_frames(0), right = view_frames(1);
  std::vector<ImageU16> packed;
  for (int i = 0; i < kFrames; ++i) packed.push_back(pack(left[i], right[i], true));
  write_gray16_video(dir + "/full.mkv", packed);
  const auto size = std::filesystem::file_size(dir + "/full.mkv");
  std::filesystem::copy_file(dir + "/full.mkv", dir + "/cut.mkv");
  std::filesystem::resize_file(dir + "/cut.mkv", size * 6 / 10);

  PackedVideoSource source(dir + "/cut.mkv", PackedLayout::SideBySide);
  int read = 0;
  while (const auto pair = source.next()) {
    ASSERT_LT(read, kFrames);
    expect_pair_equals(*pair, left[read], right[read], read);
    ++read;
  }
  EXPECT_GE(read, 1);
  EXPECT_LT(read, kFrames);

  { std::ofstream(dir + "/junk.mkv") << "not a video at all"; }
  try {
    PackedVideoSource junk(dir + "/junk.mkv", PackedLayout::SideBySide);
    FAIL() << "garbage opened as a video";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("junk.mkv"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sv
