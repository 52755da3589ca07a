// Raw recordings of 16-bit and float sources (src/io/recording_encoder.h, make_recording_encoder):
// the pair must decode back to the recorded values exactly, through the sources that replay it
// (--sbs for 16-bit FFV1, image sequences for float PFM), and the sidecar must say the depth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/app/recorder.h"
#include "src/app/recording_setup.h"
#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/io/frame_conversion.h"
#include "src/io/image_sequence_source.h"
#include "src/io/packed_video_source.h"
#include "src/io/recording_encoder.h"
#include "tests/io/io_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

constexpr int kWidth = 41;
constexpr int kHeight = 23;
constexpr int kFrames = 4;

ImageU16 view16(int i, int view) {
  ImageU16 image(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      image.at(x, y) = static_cast<uint16_t>(test::hash_value(x, y, 300 + 5 * i + view) * 257 +
                                             test::hash_value(x, y, 400 + i + view) % 200);
    }
  }
  image.at(0, 0) = 65535;
  image.at(1, 0) = 0;
  return image;
}

ImageF32 viewf(int i, int view) {
  ImageF32 image(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      image.at(x, y) = -12.5f + 0.37f * test::hash_value(x, y, 500 + 3 * i + view) +
                       test::hash_value(x, y, 600 + view) * 1.7e-5f;
    }
  }
  // Values no integer format could hold: NaN (with a payload), infinities, -0, a subnormal.
  uint32_t payload_nan = 0x7fc01234u;
  std::memcpy(&image.at(0, 0), &payload_nan, 4);
  image.at(1, 0) = std::numeric_limits<float>::infinity();
  image.at(2, 0) = -std::numeric_limits<float>::infinity();
  image.at(3, 0) = -0.0f;
  image.at(4, 0) = std::numeric_limits<float>::denorm_min();
  image.at(5, 0) = 1e30f * (i + 1);
  return image;
}

bool same_bits(const ImageF32& a, const ImageF32& b) {
  return a.same_size(b) && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A frame as the frame loops hand it over for a raw recording: the 8-bit views and the planes.
RecordingFrame frame16(int i) {
  RecordingFrame r;
  r.index = 10 + i;
  r.timestamp_s = 0.1 * i;
  r.left16 = view16(i, 0);
  r.right16 = view16(i, 1);
  r.left = to_rgb(eight_bit_view(r.left16));
  r.right = to_rgb(eight_bit_view(r.right16));
  return r;
}

RecordingFrame framef(int i) {
  RecordingFrame r;
  r.index = i;
  r.timestamp_s = 0.1 * i;
  r.leftf = viewf(i, 0);
  r.rightf = viewf(i, 1);
  const FloatViewRange range = float_view_range(r.leftf, r.rightf, StereoParams());
  r.left = to_rgb(eight_bit_view(r.leftf, range));
  r.right = to_rgb(eight_bit_view(r.rightf, range));
  return r;
}

RecordingFrame frame8(int i) {
  RecordingFrame r;
  r.index = i;
  r.left = to_rgb(test::random_texture(kWidth, kHeight, 700 + i));
  r.right = to_rgb(test::random_texture(kWidth, kHeight, 800 + i));
  return r;
}

RecorderSettings raw_settings(const std::string& path, const std::string& codec = "") {
  RecordingRequest request;
  request.path = path;
  request.format = "raw";
  request.codec = codec;
  request.source = "full depth test";
  request.engine = "cpu";
  return make_recorder_settings(request);
}

template <typename MakeFrame>
RecorderStatus record(const RecorderSettings& settings, MakeFrame make_frame, int frames = kFrames) {
  Recorder recorder(settings);
  for (int i = 0; i < frames; ++i) EXPECT_TRUE(recorder.submit_waiting(make_frame(i))) << i;
  return recorder.stop();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(FullDepthRecording, SixteenBitRawIsLosslessFfv1ReplayedBySbs) {
  const std::string dir = test::fresh_dir("raw16");
  // Asked for as .mp4 (the raw default), which cannot hold FFV1: written as .mkv beside it.
  const RecorderStatus status = record(raw_settings(dir + "/pair.mp4"), frame16);
  ASSERT_EQ(status.error, "");
  EXPECT_EQ(status.path, dir + "/pair.mkv");
  EXPECT_EQ(status.frames_written, kFrames);
  EXPECT_FALSE(std::filesystem::exists(dir + "/pair.mp4"));
  EXPECT_NE(status.description.find("ffv1"), std::string::npos) << status.description;

  PackedVideoSource source(dir + "/pair.mkv", PackedLayout::SideBySide);
  for (int i = 0; i < kFrames; ++i) {
    const auto pair = source.next();
    ASSERT_TRUE(pair) << i;
    const RecordingFrame written = frame16(i);
    ASSERT_EQ(pair->left16, written.left16) << i;
    ASSERT_EQ(pair->right16, written.right16) << i;
    EXPECT_EQ(pair->left, written.left) << i;
  }
  EXPECT_FALSE(source.next());

  // The sidecar sits where it was asked for and says what is in the file and how to replay it.
  const auto doc = read_json(dir + "/pair.mp4.json");
  EXPECT_EQ(doc["format"], "raw");
  EXPECT_EQ(doc["sample_depth"], "16-bit");
  EXPECT_EQ(doc["codec"], "ffv1");
  EXPECT_EQ(doc["file"], dir + "/pair.mkv");
  EXPECT_EQ(doc["replay"], "--sbs " + dir + "/pair.mkv");
  EXPECT_EQ(doc["width"], 2 * kWidth);
  EXPECT_EQ(doc["height"], kHeight);
  EXPECT_EQ(doc["frame_count"], kFrames);
  EXPECT_EQ(doc["frames"][1]["source_index"], 11);

  // A Matroska name is kept as it is.
  ASSERT_EQ(record(raw_settings(dir + "/kept.mkv"), frame16, 2).path, dir + "/kept.mkv");
  EXPECT_EQ(read_json(dir + "/kept.mkv.json")["file"], dir + "/kept.mkv");
}

TEST(FullDepthRecording, SixteenBitRawWithACodecThatCannotHoldItIsAClearError) {
  const std::string dir = test::fresh_dir("raw16_codec");
  const RecorderStatus status = record(raw_settings(dir + "/pair.mkv", "mpeg4"), frame16, 1);
  EXPECT_NE(status.error.find("16-bit"), std::string::npos) << status.error;
  // No recording came to exist, so no sidecar may claim one (issue 17).
  EXPECT_FALSE(std::filesystem::exists(dir + "/pair.mkv.json"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/pair.mkv"));
}

TEST(FullDepthRecording, FloatRawIsBitExactPfmPairsReplayedAsImageSequences) {
  const std::string dir = test::fresh_dir("rawf");
  const RecorderStatus status = record(raw_settings(dir + "/pair.mp4"), framef);
  ASSERT_EQ(status.error, "");
  EXPECT_EQ(status.path, dir + "/pair_left_%06d.pfm");
  EXPECT_TRUE(std::filesystem::exists(dir + "/pair_left_000000.pfm"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/pair_right_000003.pfm"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/pair_left_000004.pfm"));
  EXPECT_GT(status.bytes_written, 2 * kFrames * kWidth * kHeight * 4);

  ImageSequenceSource source(dir + "/pair_left_%06d.pfm", dir + "/pair_right_%06d.pfm");
  ASSERT_EQ(source.frame_count(), kFrames);
  for (int i = 0; i < kFrames; ++i) {
    const auto pair = source.next();
    ASSERT_TRUE(pair) << i;
    const RecordingFrame written = framef(i);
    EXPECT_TRUE(same_bits(pair->leftf, written.leftf)) << i;
    EXPECT_TRUE(same_bits(pair->rightf, written.rightf)) << i;
    EXPECT_EQ(pair->left, written.left) << i;  // the same range view
  }

  const auto doc = read_json(dir + "/pair.mp4.json");
  EXPECT_EQ(doc["sample_depth"], "float");
  EXPECT_EQ(doc["codec"], "pfm");
  EXPECT_EQ(doc["file"], dir + "/pair_left_%06d.pfm");
  EXPECT_EQ(doc["replay"],
            "--left " + dir + "/pair_left_%06d.pfm --right " + dir + "/pair_right_%06d.pfm");
  EXPECT_EQ(doc["width"], kWidth);

  // A .pfm name gives the same files.
  ASSERT_EQ(record(raw_settings(dir + "/b.pfm"), framef, 1).error, "");
  EXPECT_TRUE(std::filesystem::exists(dir + "/b_right_000000.pfm"));
}

TEST(FullDepthRecording, EightBitRawIsUnchangedAndSaysItsDepth) {
  const std::string dir = test::fresh_dir("raw8");
  const RecorderStatus status = record(raw_settings(dir + "/pair.mp4"), frame8, 2);
  ASSERT_EQ(status.error, "");
  EXPECT_EQ(status.path, dir + "/pair.mp4");
  PackedVideoSource source(dir + "/pair.mp4", PackedLayout::SideBySide);
  const auto pair = source.next();
  ASSERT_TRUE(pair);
  EXPECT_TRUE(pair->left16.empty());
  const auto doc = read_json(dir + "/pair.mp4.json");
  EXPECT_EQ(doc["sample_depth"], "8-bit");
  EXPECT_EQ(doc["replay"], "--sbs " + dir + "/pair.mp4");
}

// A source that changes depth mid-recording stops it with a message, keeping what was written;
// a .pfm name for a non-float source is refused with a message.
TEST(FullDepthRecording, DepthChangesAndPfmNamesForIntegerSourcesAreClearErrors) {
  const std::string dir = test::fresh_dir("raw_bad");
  const RecorderStatus changed = record(raw_settings(dir + "/mix.mkv"),
                                        [](int i) { return i < 2 ? frame16(i) : frame8(i); });
  EXPECT_NE(changed.error.find("changed from 16-bit to 8-bit"), std::string::npos) << changed.error;
  EXPECT_EQ(changed.frames_written, 2);
  PackedVideoSource kept(dir + "/mix.mkv", PackedLayout::SideBySide);
  for (int i = 0; i < 2; ++i) {
    const auto pair = kept.next();
    ASSERT_TRUE(pair) << i;
    EXPECT_EQ(pair->left16, frame16(i).left16) << i;
  }
  EXPECT_FALSE(kept.next());

  const RecorderStatus pfm = record(raw_settings(dir + "/x.pfm"), frame16, 1);
  EXPECT_NE(pfm.error.find("only the raw pairs of float sources"), std::string::npos) << pfm.error;
  RecordingEncoderSettings colour;
  colour.path = dir + "/c.pfm";
  colour.format = RecordingFormat::Color;
  EXPECT_THROW(make_recording_encoder(colour), RuntimeError);
}

TEST(FullDepthRecording, FloatPairPathsAreNumberedPerView) {
  EXPECT_EQ(float_pair_frame_path("rec/pair.mp4", "left", 7), "rec/pair_left_000007.pfm");
  EXPECT_EQ(float_pair_frame_path("rec/pair.pfm", "right", 123456), "rec/pair_right_123456.pfm");
  EXPECT_EQ(float_pair_frame_path("pair", "left", -1), "pair_left_%06d.pfm");
}

}  // namespace
}  // namespace sv
