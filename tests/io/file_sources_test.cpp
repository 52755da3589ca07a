// Every file source on videos and images the test writes itself: two videos, side-by-side and
// top-bottom videos (given and detected), image sequences by pattern and by folder, datasets,
// different lengths, a truncated and a corrupt file, a missing file, seeking and looping.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "src/app/looping_source.h"
#include "src/app/playback_pacer.h"
#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/io/dataset_source.h"
#include "src/io/image_sequence_source.h"
#include "src/io/packed_video_source.h"
#include "src/io/video_file_reader.h"
#include "src/io/video_pair_source.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

using test::flat_frame;
using test::fresh_dir;
using test::level_of_frame;
using test::mean_level;
using test::packed_frame;
using test::write_mjpeg_avi;

// Collects notices so tests can check what the user would be told.
struct Notices {
  std::vector<std::string> lines;
  NoticeSink sink() {
    return [this](const std::string& m) { lines.push_back(m); };
  }
  bool any_contains(const std::string& part) const {
    for (const auto& l : lines) {
      if (l.find(part) != std::string::npos) return true;
    }
    return false;
  }
};

std::vector<cv::Mat> flat_frames(int count, int w, int h, int offset) {
  std::vector<cv::Mat> frames;
  for (int i = 0; i < count; ++i) frames.push_back(flat_frame(w, h, level_of_frame(i, offset)));
  return frames;
}

void expect_throws_with(const std::function<void()>& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning \"" << part << "\"";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// Videos of different rates are paired frame by frame; the user is told so (issue 47).
TEST(VideoPairSource, DifferentFrameRatesAreNamedWithHowFramesArePaired) {
  const std::string dir = fresh_dir("video_rates");
  write_mjpeg_avi(dir + "/l30.avi", flat_frames(3, 32, 24, 0), 30.0);
  write_mjpeg_avi(dir + "/r10.avi", flat_frames(3, 32, 24, 4), 10.0);
  write_mjpeg_avi(dir + "/r30.avi", flat_frames(3, 32, 24, 4), 30.0);
  Notices notices;
  VideoPairSource source(dir + "/l30.avi", dir + "/r10.avi", notices.sink());
  ASSERT_EQ(notices.lines.size(), 1u);
  EXPECT_EQ(notices.lines[0],
            "left video runs at 30 fps, right video at 10 fps: frames are "
            "paired by index (frame n with frame n), not by time");
  auto pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_NEAR(mean_level(pair->right), level_of_frame(0, 4), 2.0);
  Notices same_rate;
  VideoPairSource same(dir + "/l30.avi", dir + "/r30.avi", same_rate.sink());
  EXPECT_TRUE(same_rate.lines.empty()) << same_rate.lines[0];
}

TEST(VideoPairSource, DeliversEveryFrameInOrderWithTimestamps) {
  const std::string dir = fresh_dir("video_pair");
  write_mjpeg_avi(dir + "/l.avi", flat_frames(6, 64, 48, 0), 12.0);
  write_mjpeg_avi(dir + "/r.avi", flat_frames(6, 64, 48, 4), 12.0);
  VideoPairSource source(dir + "/l.avi", dir + "/r.avi");
  EXPECT_FALSE(source.is_live());
  EXPECT_EQ(source.frame_count(), 6);
  EXPECT_NEAR(source.frames_per_second(), 12.0, 1e-6);
  for (int i = 0; i < 6; ++i) {
    auto pair = source.next();
    ASSERT_TRUE(pair) << "frame " << i;
    EXPECT_EQ(pair->index, i);
    EXPECT_NEAR(pair->timestamp_s, i / 12.0, 1e-6);
    ASSERT_TRUE(pair->left.same_size(64, 48));
    EXPECT_NEAR(mean_level(pair->left), level_of_frame(i), 2.0);
    EXPECT_NEAR(mean_level(pair->right), level_of_frame(i, 4), 2.0);
  }
  EXPECT_FALSE(source.next());
}

TEST(VideoPairSource, StopsAtTheShorterFileAndSaysSo) {
  const std::string dir = fresh_dir("video_lengths");
  write_mjpeg_avi(dir + "/l.avi", flat_frames(7, 32, 32, 0));
  write_mjpeg_avi(dir + "/r.avi", flat_frames(4, 32, 32, 0));
  Notices notices;
  VideoPairSource source(dir + "/l.avi", dir + "/r.avi", notices.sink());
  EXPECT_EQ(source.frame_count(), 4);
  EXPECT_TRUE(notices.any_contains("left video has 7 frames, right video 4")) << notices.lines.size();
  int delivered = 0;
  while (source.next()) ++delivered;
  EXPECT_EQ(delivered, 4);
  EXPECT_TRUE(notices.any_contains("stopping at the shorter"));
}

TEST(VideoPairSource, SeekThenReadGivesThatFrame) {
  const std::string dir = fresh_dir("video_seek");
  write_mjpeg_avi(dir + "/l.avi", flat_frames(8, 32, 32, 0));
  write_mjpeg_avi(dir + "/r.avi", flat_frames(8, 32, 32, 2));
  VideoPairSource source(dir + "/l.avi", dir + "/r.avi");
  ASSERT_TRUE(source.seek(5));
  auto pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->index, 5);
  EXPECT_NEAR(mean_level(pair->left), level_of_frame(5), 2.0);
  ASSERT_TRUE(source.seek(1));
  pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_NEAR(mean_level(pair->right), level_of_frame(1, 2), 2.0);
  EXPECT_FALSE(source.seek(8));
  EXPECT_FALSE(source.seek(-1));
}

TEST(VideoPairSource, DifferentFrameSizesAreRefused) {
  const std::string dir = fresh_dir("video_sizes");
  write_mjpeg_avi(dir + "/l.avi", flat_frames(2, 64, 48, 0));
  write_mjpeg_avi(dir + "/r.avi", flat_frames(2, 32, 48, 0));
  expect_throws_with([&] { VideoPairSource(dir + "/l.avi", dir + "/r.avi"); }, "is 64x48 but");
}

TEST(VideoFileReader, MissingCorruptAndEmptyFilesGiveClearErrors) {
  const std::string dir = fresh_dir("video_errors");
  expect_throws_with([&] { VideoFileReader(dir + "/none.avi"); }, "none.avi': no such file");
  {
    std::ofstream garbage(dir + "/garbage.avi", std::ios::binary);
    for (int i = 0; i < 20000; ++i) garbage.put(static_cast<char>((i * 7919) & 0xFF));
  }
  expect_throws_with([&] { VideoFileReader(dir + "/garbage.avi"); }, "garbage.avi'");
  std::ofstream(dir + "/empty.avi").close();
  expect_throws_with([&] { VideoFileReader(dir + "/empty.avi"); }, "empty.avi'");
  expect_throws_with([&] { VideoFileReader reader{dir}; }, "not a regular file");
}

// dir/cut.avi: 10 top-bottom frames of 160x240 announced, cut after about 6 of them. Noise in
// the bottom (right) view makes frames large, so the cut falls among the frames rather than in
// the headers; the flat top (left) view identifies each frame.
void write_truncated_video(const std::string& dir) {
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 10; ++i) {
    cv::Mat frame = packed_frame(160, 120, level_of_frame(i), 0, false);
    cv::Mat noise = frame(cv::Rect(0, 120, 160, 120));
    cv::randu(noise, 0, 255);
    frames.push_back(frame);
  }
  write_mjpeg_avi(dir + "/full.avi", frames);
  const auto size = std::filesystem::file_size(dir + "/full.avi");
  std::filesystem::copy_file(dir + "/full.avi", dir + "/cut.avi");
  std::filesystem::resize_file(dir + "/cut.avi", size * 6 / 10);
}

TEST(VideoFileReader, TruncatedFileEndsEarlyWithANotice) {
  const std::string dir = fresh_dir("video_truncated");
  write_truncated_video(dir);
  Notices notices;
  PackedVideoSource source(dir + "/cut.avi", PackedLayout::TopBottom, notices.sink());
  int delivered = 0;
  while (auto pair = source.next()) {
    EXPECT_NEAR(mean_level(pair->left), level_of_frame(delivered), 2.0);
    ++delivered;
  }
  EXPECT_GE(delivered, 3);
  EXPECT_LE(delivered, 7);
  EXPECT_EQ(source.frame_count(), 10);  // what the AVI header announces
  EXPECT_TRUE(notices.any_contains("ended after " + std::to_string(delivered) + " of the 10 frames"))
      << (notices.lines.empty() ? "no notice" : notices.lines[0]);
}

// A truncated video played with --loop: the notice comes once, not on every pass (issue 47).
TEST(LoopingSource, ATruncatedVideoIsToldOfOnce) {
  const std::string dir = fresh_dir("loop_truncated");
  write_truncated_video(dir);
  write_mjpeg_avi(dir + "/l.avi", flat_frames(10, 160, 240, 0));
  for (const bool pair_of_videos : {false, true}) {
    Notices notices;
    LoopingSource source(pair_of_videos
                             ? std::unique_ptr<FrameSource>(std::make_unique<VideoPairSource>(
                                   dir + "/l.avi", dir + "/cut.avi", notices.sink()))
                             : std::make_unique<PackedVideoSource>(
                                   dir + "/cut.avi", PackedLayout::TopBottom, notices.sink()));
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(source.next()) << i;  // three passes or more
    int told = 0;
    for (const std::string& line : notices.lines)
      told += line.find("frames it announces") != std::string::npos;
    EXPECT_EQ(told, 1) << (pair_of_videos ? "two videos" : "one packed video");
  }
}

TEST(PackedVideoSource, SideBySideSplitsEachFrame) {
  const std::string dir = fresh_dir("sbs");
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 5; ++i) frames.push_back(packed_frame(48, 32, level_of_frame(i), 230 - 9 * i, true));
  write_mjpeg_avi(dir + "/sbs.avi", frames);
  PackedVideoSource source(dir + "/sbs.avi", PackedLayout::SideBySide);
  EXPECT_EQ(source.frame_count(), 5);
  EXPECT_NE(source.describe().find("side-by-side"), std::string::npos);
  for (int i = 0; i < 5; ++i) {
    auto pair = source.next();
    ASSERT_TRUE(pair);
    ASSERT_TRUE(pair->left.same_size(48, 32));
    // Away from the seam, where JPEG blocks mix both halves.
    EXPECT_NEAR(pair->left.at(10, 16).r, level_of_frame(i), 3);
    EXPECT_NEAR(pair->right.at(30, 16).r, 230 - 9 * i, 3);
  }
  EXPECT_FALSE(source.next());
}

TEST(PackedVideoSource, TopBottomGivenAndDetected) {
  const std::string dir = fresh_dir("tb");
  std::vector<cv::Mat> frames;
  for (int i = 0; i < 3; ++i) frames.push_back(packed_frame(32, 32, level_of_frame(i), 200, false));
  write_mjpeg_avi(dir + "/tb.avi", frames);
  for (PackedLayout layout : {PackedLayout::TopBottom, PackedLayout::Auto}) {
    PackedVideoSource source(dir + "/tb.avi", layout);
    EXPECT_EQ(source.layout(), PackedLayout::TopBottom);
    auto pair = source.next();
    ASSERT_TRUE(pair);
    ASSERT_TRUE(pair->left.same_size(32, 32));
    EXPECT_NEAR(pair->left.at(16, 8).g, level_of_frame(0), 3);
    EXPECT_NEAR(pair->right.at(16, 24).g, 200, 3);
  }
  // Side-by-side detected from a 2:1 frame.
  write_mjpeg_avi(dir + "/wide.avi", {packed_frame(32, 32, 50, 150, true)});
  EXPECT_EQ(PackedVideoSource(dir + "/wide.avi", PackedLayout::Auto).layout(),
            PackedLayout::SideBySide);
  // An ordinary 4:3 video cannot be guessed.
  write_mjpeg_avi(dir + "/plain.avi", {flat_frame(64, 48, 90)});
  expect_throws_with([&] { PackedVideoSource(dir + "/plain.avi", PackedLayout::Auto); },
                     "--sbs or --tb");
}

TEST(ImageSequenceSource, PrintfPatternInNumericOrderWithGaps) {
  const std::string dir = fresh_dir("pattern");
  // Frames 1, 2, 3 and 10 (a gap), written out of order; a stray file must be ignored.
  const std::vector<int> numbers = {10, 2, 1, 3};
  for (int n : numbers) {
    char name[64];
    std::snprintf(name, sizeof name, "/left_%04d.png", n);
    cv::imwrite(dir + name, flat_frame(20, 10, n * 10));
    std::snprintf(name, sizeof name, "/right_%04d.png", n);
    cv::imwrite(dir + name, flat_frame(20, 10, n * 10 + 5));
  }
  cv::imwrite(dir + "/left_12.png", flat_frame(20, 10, 0));  // not %04d
  const auto files = list_image_sequence(dir + "/left_%04d.png");
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(std::filesystem::path(files[3]).filename(), "left_0010.png");

  ImageSequenceSource source(dir + "/left_%04d.png", dir + "/right_%04d.png");
  EXPECT_EQ(source.frame_count(), 4);
  const int expected[] = {1, 2, 3, 10};
  for (int k = 0; k < 4; ++k) {
    auto pair = source.next();
    ASSERT_TRUE(pair);
    EXPECT_EQ(pair->left.at(0, 0).r, expected[k] * 10);  // PNG is lossless
    EXPECT_EQ(pair->right.at(0, 0).r, expected[k] * 10 + 5);
  }
  EXPECT_FALSE(source.next());
  ASSERT_TRUE(source.seek(2));
  EXPECT_EQ(source.next()->left.at(0, 0).r, 30);
}

TEST(ImageSequenceSource, FoldersInNaturalOrderAndTheShorterWins) {
  const std::string dir = fresh_dir("folders");
  std::filesystem::create_directories(dir + "/L");
  std::filesystem::create_directories(dir + "/R");
  for (int i : {1, 2, 10}) cv::imwrite(dir + "/L/frame" + std::to_string(i) + ".png", flat_frame(8, 8, i));
  for (int i : {1, 2}) cv::imwrite(dir + "/R/frame" + std::to_string(i) + ".png", flat_frame(8, 8, 100 + i));
  std::ofstream(dir + "/L/notes.txt") << "not an image";
  Notices notices;
  ImageSequenceSource source(dir + "/L", dir + "/R", notices.sink());
  EXPECT_EQ(source.frame_count(), 2);
  EXPECT_TRUE(notices.any_contains("has 3 images, right")) << (notices.lines.empty() ? "" : notices.lines[0]);
  EXPECT_EQ(source.next()->left.at(0, 0).r, 1);
  EXPECT_EQ(source.next()->right.at(0, 0).r, 102);
  EXPECT_FALSE(source.next());
  // frame2 before frame10 in a folder that has both.
  const auto files = list_image_sequence(dir + "/L");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(std::filesystem::path(files[2]).filename(), "frame10.png");
}

TEST(ImageSequenceSource, ErrorsNameWhatIsWrong) {
  const std::string dir = fresh_dir("sequence_errors");
  expect_throws_with([&] { list_image_sequence(dir + "/left_%04d.png"); }, "matches no file");
  expect_throws_with([&] { list_image_sequence(dir + "/none/left_%d.png"); }, "does not exist");
  expect_throws_with([&] { list_image_sequence(dir + "/left_%s.png"); }, "%d or %04d");

  expect_throws_with([&] { list_image_sequence(dir + "/nothing_here"); }, "no such file or folder");
  expect_throws_with([&] { list_image_sequence(dir); }, "holds no image files");
  // Sizes are checked as pairs are delivered.
  cv::imwrite(dir + "/l_1.png", flat_frame(8, 8, 1));
  cv::imwrite(dir + "/r_1.png", flat_frame(9, 8, 1));
  ImageSequenceSource source(dir + "/l_%d.png", dir + "/r_%d.png");
  expect_throws_with([&] { source.next(); }, "differ in size: 8x8 vs 9x8");
  // Field widths past any frame number: 99999999999 overflowed std::stoi (not an InputError),
  // 2000000000 padded every file name of the folder to 2 GB.
  expect_throws_with([&] { list_image_sequence(dir + "/l_%99999999999d.png"); }, "field width");
  expect_throws_with([&] { list_image_sequence(dir + "/l_%2000000000d.png"); }, "field width");
  expect_throws_with([&] { list_image_sequence(dir + "/l_%20d.png"); }, "field width");
  EXPECT_EQ(list_image_sequence(dir + "/l_%1d.png").size(), 1u);
}

TEST(LoopingSource, StartsOverAtTheEndWithIndicesCountingOn) {
  const std::string dir = fresh_dir("loop");
  write_mjpeg_avi(dir + "/sbs.avi", {packed_frame(16, 16, 40, 40, true), packed_frame(16, 16, 140, 140, true)});
  LoopingSource source(std::make_unique<PackedVideoSource>(dir + "/sbs.avi", PackedLayout::SideBySide));
  EXPECT_EQ(source.frame_count(), -1);
  for (int i = 0; i < 5; ++i) {
    auto pair = source.next();
    ASSERT_TRUE(pair) << i;
    EXPECT_EQ(pair->index, i);
    EXPECT_NEAR(mean_level(pair->left), i % 2 == 0 ? 40 : 140, 3) << i;
  }
}

TEST(PlaybackPacer, HoldsFramesToTheirRate) {
  using Clock = std::chrono::steady_clock;
  PlaybackPacer pacer(50.0);
  const auto start = Clock::now();
  for (int i = 0; i < 5; ++i) pacer.wait();  // the first frame goes at once, then one per 20 ms
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(80));

  PlaybackPacer unpaced(0.0);
  const auto again = Clock::now();
  for (int i = 0; i < 100; ++i) unpaced.wait();
  EXPECT_LT(Clock::now() - again, std::chrono::milliseconds(50));
}

TEST(DatasetSource, DeliversTheFolderPairsWithGroundTruth) {
  const std::string dir =
      test::write_middlebury_scene("dataset", flat_frame(40, 30, 60), flat_frame(40, 30, 70), 5.0f);
  DatasetSource source(dir);
  EXPECT_EQ(source.frame_count(), 1);
  EXPECT_NE(source.describe().find("middlebury-2014"), std::string::npos) << source.describe();
  auto pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->left.at(3, 3).r, 60);
  EXPECT_EQ(pair->right.at(3, 3).r, 70);
  EXPECT_FLOAT_EQ(source.sample(0).ground_truth.at(1, 1), 5.0f);
  EXPECT_FALSE(source.next());
  EXPECT_THROW(DatasetSource(dir + "/missing"), InputError);
}

}  // namespace
}  // namespace sv
