#include "src/io/frame_conversion.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "src/core/error.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

// Worked out by hand from the BT.601 integer formulas in frame_conversion.h.
TEST(YuyvToRgb, KnownColours) {
  // Pixel pairs: (Y0 U Y1 V). White/black share chroma 128; then BT.601 red, then a mid gray.
  const std::vector<uint8_t> yuyv = {235, 128, 16, 128,   // white, black
                                     81, 90, 81, 240,     // red, red
                                     126, 128, 126, 128}; // gray 128: (298*110+128)>>8 = 128
  const ImageRgb8 rgb = yuyv_to_rgb(yuyv.data(), yuyv.size(), 2, 3);
  ASSERT_EQ(rgb.width(), 2);
  ASSERT_EQ(rgb.height(), 3);
  EXPECT_EQ(rgb.at(0, 0), (Rgb8{255, 255, 255}));
  EXPECT_EQ(rgb.at(1, 0), (Rgb8{0, 0, 0}));
  // R = (298*65 + 409*112 + 128) >> 8 = 65306 >> 8 = 255; G = (19370 + 3800 - 23296 + 128) >> 8
  // = 2 >> 8 = 0; B = 19370 - 19608 + 128 < 0 -> 0.
  EXPECT_EQ(rgb.at(0, 1), (Rgb8{255, 0, 0}));
  EXPECT_EQ(rgb.at(1, 1), (Rgb8{255, 0, 0}));
  EXPECT_EQ(rgb.at(0, 2), (Rgb8{128, 128, 128}));
}

TEST(YuyvToRgb, SharedChromaAndStride) {
  // One pixel pair with U = 200: B = (298*(100-16) + 516*72 + 128) >> 8 = (25032 + 37152 + 128)
  // >> 8 = 243; G = (25032 - 7200 + 128) >> 8 = 70; R = (25032 + 128) >> 8 = 98. Row stride 6 with
  // two padding bytes that must be skipped.
  const std::vector<uint8_t> buffer = {100, 200, 100, 128, 9, 9, 100, 200, 100, 128, 9, 9};
  const ImageRgb8 rgb = yuyv_to_rgb(buffer.data(), buffer.size(), 2, 2, 6);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 2; ++x) EXPECT_EQ(rgb.at(x, y), (Rgb8{98, 70, 243})) << x << "," << y;
  }
}

TEST(YuyvToRgb, RefusesShortBuffersAndOddWidths) {
  const std::vector<uint8_t> buffer(2 * 4 * 2 - 1, 128);
  try {
    yuyv_to_rgb(buffer.data(), buffer.size(), 4, 2);
    FAIL() << "a short buffer was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 16 bytes, got 15"), std::string::npos) << e.what();
  }
  EXPECT_THROW(yuyv_to_rgb(buffer.data(), buffer.size(), 3, 1), InputError);
  EXPECT_THROW(yuyv_to_rgb(nullptr, 0, 2, 1), InputError);
}

TEST(DecodeMjpeg, RecordedFrameDecodesAndTornFrameIsRefused) {
  // A frame as a camera would send it: a JPEG of a known image.
  cv::Mat bgr(24, 32, CV_8UC3, cv::Scalar(40, 120, 200));  // B G R
  std::vector<uint8_t> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", bgr, jpeg, {cv::IMWRITE_JPEG_QUALITY, 100}));
  const ImageRgb8 rgb = decode_mjpeg(jpeg.data(), jpeg.size());
  ASSERT_EQ(rgb.width(), 32);
  ASSERT_EQ(rgb.height(), 24);
  EXPECT_NEAR(rgb.at(5, 5).r, 200, 3);
  EXPECT_NEAR(rgb.at(5, 5).g, 120, 3);
  EXPECT_NEAR(rgb.at(5, 5).b, 40, 3);

  const std::vector<uint8_t> not_jpeg(100, 7);
  EXPECT_THROW(decode_mjpeg(not_jpeg.data(), not_jpeg.size()), InputError);
  const std::vector<uint8_t> header_only(jpeg.begin(), jpeg.begin() + 20);
  EXPECT_THROW(decode_mjpeg(header_only.data(), header_only.size()), InputError);
}

ImageRgb8 coordinate_image(int w, int h) {
  ImageRgb8 image(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) image.at(x, y) = Rgb8{static_cast<uint8_t>(x), static_cast<uint8_t>(y), 7};
  }
  return image;
}

TEST(SplitPackedFrame, SideBySideAndTopBottomCutExactly) {
  const ImageRgb8 frame = coordinate_image(8, 3);
  const SplitViews sbs = split_packed_frame(frame, PackedLayout::SideBySide);
  ASSERT_TRUE(sbs.left.same_size(4, 3));
  ASSERT_TRUE(sbs.right.same_size(4, 3));
  EXPECT_EQ(sbs.left.at(3, 2), (Rgb8{3, 2, 7}));
  EXPECT_EQ(sbs.right.at(0, 0), (Rgb8{4, 0, 7}));
  EXPECT_EQ(sbs.right.at(3, 2), (Rgb8{7, 2, 7}));

  const ImageRgb8 tall = coordinate_image(3, 6);
  const SplitViews tb = split_packed_frame(tall, PackedLayout::TopBottom);
  ASSERT_TRUE(tb.left.same_size(3, 3));
  EXPECT_EQ(tb.left.at(2, 2), (Rgb8{2, 2, 7}));
  EXPECT_EQ(tb.right.at(0, 0), (Rgb8{0, 3, 7}));
  EXPECT_EQ(tb.right.at(2, 2), (Rgb8{2, 5, 7}));
}

TEST(SplitPackedFrame, AutoDetectsTheLayoutFromTheProportions) {
  EXPECT_EQ(detect_packed_layout(2560, 720), PackedLayout::SideBySide);
  EXPECT_EQ(detect_packed_layout(1280, 480), PackedLayout::SideBySide);
  EXPECT_EQ(detect_packed_layout(640, 320), PackedLayout::SideBySide);
  EXPECT_EQ(detect_packed_layout(1280, 1440), PackedLayout::TopBottom);
  EXPECT_EQ(detect_packed_layout(320, 640), PackedLayout::TopBottom);
  try {
    detect_packed_layout(640, 480);
    FAIL() << "an ordinary 4:3 frame was taken for a packed one";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--sbs or --tb"), std::string::npos) << e.what();
  }
  const SplitViews views = split_packed_frame(coordinate_image(8, 2), PackedLayout::Auto);
  EXPECT_TRUE(views.left.same_size(4, 2));
}

TEST(SplitPackedFrame, OddSizesAreRefused) {
  EXPECT_THROW(split_packed_frame(coordinate_image(9, 3), PackedLayout::SideBySide), InputError);
  EXPECT_THROW(split_packed_frame(coordinate_image(3, 7), PackedLayout::TopBottom), InputError);
  EXPECT_THROW(split_packed_frame(ImageRgb8(), PackedLayout::SideBySide), InputError);
}

// A recorded YUYV side-by-side frame, as a stereo webcam sends it: convert, then split.
TEST(SplitPackedFrame, RecordedYuyvStereoFrame) {
  const int w = 8, h = 2;  // two 4x2 views
  std::vector<uint8_t> yuyv;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; x += 2) {
      const uint8_t luma = x < w / 2 ? 235 : 16;  // white left view, black right view
      yuyv.insert(yuyv.end(), {luma, 128, luma, 128});
    }
  }
  const SplitViews views = split_packed_frame(yuyv_to_rgb(yuyv.data(), yuyv.size(), w, h),
                                              PackedLayout::Auto);
  for (const Rgb8& p : views.left.pixels()) EXPECT_EQ(p, (Rgb8{255, 255, 255}));
  for (const Rgb8& p : views.right.pixels()) EXPECT_EQ(p, (Rgb8{0, 0, 0}));
}

}  // namespace
}  // namespace sv
