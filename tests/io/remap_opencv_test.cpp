// The core's bilinear remap (src/core/remap.h) against OpenCV's cv::remap, which it must equal
// bit for bit: every 1/32 px fraction and the ties between them, maps reaching outside the raw
// image, extreme and non-finite values, and the rectification of a calibrated rig for every pixel
// type StereoRectifier handles.
#include "src/core/remap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "src/core/error.h"
#include "src/io/mat_image.h"
#include "src/io/stereo_rectifier.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

cv::Mat mat_of(const ImageF32& image) {
  return cv::Mat(image.height(), image.width(), CV_32FC1, const_cast<float*>(image.data()));
}

// cv::remap as StereoRectifier calls it, for a single-plane image of type T.
template <typename T>
Image<T> opencv_remap(const Image<T>& raw, const ImageF32& map_x, const ImageF32& map_y,
                      int type, double border) {
  const cv::Mat src(raw.height(), raw.width(), type, const_cast<T*>(raw.data()));
  cv::Mat dst;
  cv::remap(src, dst, mat_of(map_x), mat_of(map_y), cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            cv::Scalar::all(border));
  Image<T> out(dst.cols, dst.rows);
  for (int y = 0; y < dst.rows; ++y) std::memcpy(out.row(y), dst.ptr(y), sizeof(T) * out.width());
  return out;
}

ImageRgb8 opencv_remap(const ImageRgb8& raw, const ImageF32& map_x, const ImageF32& map_y) {
  cv::Mat dst;
  cv::remap(bgr_mat_from_rgb(raw), dst, mat_of(map_x), mat_of(map_y), cv::INTER_LINEAR,
            cv::BORDER_CONSTANT, cv::Scalar::all(0));
  return rgb_image_from_mat(dst);
}

// Float images are equal when every pixel has the same bits (NaN included).
::testing::AssertionResult same_bits(const ImageF32& a, const ImageF32& b) {
  if (!a.same_size(b)) return ::testing::AssertionFailure() << "sizes differ";
  int differ = 0;
  std::string first;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      const float u = a.at(x, y), v = b.at(x, y);
      if (std::memcmp(&u, &v, sizeof u) != 0 && !(std::isnan(u) && std::isnan(v))) {
        if (differ++ == 0) {
          first = "(" + std::to_string(x) + ", " + std::to_string(y) + "): " + std::to_string(u) +
                  " vs " + std::to_string(v);
        }
      }
    }
  }
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " pixels differ, first at " << first;
}

template <typename T>
::testing::AssertionResult same_pixels(const Image<T>& a, const Image<T>& b) {
  if (!a.same_size(b)) return ::testing::AssertionFailure() << "sizes differ";
  int differ = 0, fx = -1, fy = -1;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      if (a.at(x, y) != b.at(x, y) && differ++ == 0) fx = x, fy = y;
    }
  }
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " pixels differ, first at (" << fx << ", "
                                       << fy << ")";
}

struct RandomImages {
  explicit RandomImages(int width, int height, unsigned seed = 7) {
    std::mt19937 rng(seed);
    gray = ImageU8(width, height);
    rgb = ImageRgb8(width, height);
    u16 = ImageU16(width, height);
    f32 = ImageF32(width, height);
    std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
    for (size_t i = 0; i < gray.size(); ++i) {
      gray.data()[i] = static_cast<uint8_t>(rng());
      rgb.data()[i] = Rgb8{static_cast<uint8_t>(rng()), static_cast<uint8_t>(rng()),
                           static_cast<uint8_t>(rng())};
      // Extremes as often as not: the float weights must round the same at the top of the range.
      const uint32_t r = rng();
      u16.data()[i] = r % 3 == 0 ? 65535 : r % 3 == 1 ? static_cast<uint16_t>(65535 - (r >> 20))
                                                      : static_cast<uint16_t>(r >> 16);
      f32.data()[i] = real(rng) * (rng() % 2 ? 1.0f : 1.0e-3f);
    }
  }
  ImageU8 gray;
  ImageRgb8 rgb;
  ImageU16 u16;
  ImageF32 f32;
};

// Compares every pixel type of `images` through the maps.
void expect_all_types_equal(const RandomImages& images, const ImageF32& map_x,
                            const ImageF32& map_y) {
  EXPECT_TRUE(same_pixels(remap_bilinear(images.gray, map_x, map_y),
                          opencv_remap(images.gray, map_x, map_y, CV_8UC1, 0.0)))
      << "8-bit gray";
  EXPECT_TRUE(same_pixels(remap_bilinear(images.rgb, map_x, map_y),
                          opencv_remap(images.rgb, map_x, map_y)))
      << "RGB";
  EXPECT_TRUE(same_pixels(remap_bilinear(images.u16, map_x, map_y),
                          opencv_remap(images.u16, map_x, map_y, CV_16UC1, 0.0)))
      << "16-bit";
  EXPECT_TRUE(same_bits(remap_bilinear(images.f32, map_x, map_y),
                        opencv_remap(images.f32, map_x, map_y, CV_32FC1,
                                     std::numeric_limits<double>::quiet_NaN())))
      << "float";
}

TEST(RemapAgainstOpenCv, EveryFractionAndEveryTieBetweenFractions) {
  // 64 x 64 sub-positions per pixel step (1/64 px): the 32 x 32 fractions and the ties halfway
  // between them, which round to the even fraction.
  const RandomImages images(41, 23);
  ImageF32 map_x(64 * 8, 64), map_y(64 * 8, 64);
  for (int y = 0; y < map_x.height(); ++y) {
    for (int x = 0; x < map_x.width(); ++x) {
      const int cell = x / 64;
      map_x.at(x, y) = 3.0f + 4.0f * cell + static_cast<float>(x % 64) / 64.0f;
      map_y.at(x, y) = 2.0f + 2.5f * cell + static_cast<float>(y) / 64.0f;
    }
  }
  expect_all_types_equal(images, map_x, map_y);
}

TEST(RemapAgainstOpenCv, MapsReachingOutsideTheRawImage) {
  // Positions from 3 px before to 3 px past every edge, so the partly and wholly outside cases
  // (border samples with zero and non-zero weight) all occur, including exact edge positions.
  const RandomImages images(37, 29, 11);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> sub_x(-3 * 64, (37 + 3) * 64);
  std::uniform_int_distribution<int> sub_y(-3 * 64, (29 + 3) * 64);
  ImageF32 map_x(131, 67), map_y(131, 67);
  for (size_t i = 0; i < map_x.size(); ++i) {
    map_x.data()[i] = static_cast<float>(sub_x(rng)) / 64.0f;
    map_y.data()[i] = static_cast<float>(sub_y(rng)) / 64.0f;
  }
  // Exact corner and edge positions, which OpenCV treats by their own rules.
  const float edges_x[] = {-1.0f, -0.5f, 0.0f, 35.5f, 36.0f, 36.5f, 37.0f, -0.984375f};
  const float edges_y[] = {-1.0f, -0.5f, 0.0f, 27.5f, 28.0f, 28.5f, 29.0f, 28.984375f};
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      map_x.at(i * 8 + j, 0) = edges_x[i];
      map_y.at(i * 8 + j, 0) = edges_y[j];
    }
  }
  expect_all_types_equal(images, map_x, map_y);
}

TEST(RemapAgainstOpenCv, ContinuousPositionsAndNonFiniteMaps) {
  // Arbitrary float positions (not on the 1/64 grid), huge ones and NaN / infinite map values.
  const RandomImages images(64, 48, 3);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> pos_x(-2.0f, 66.0f), pos_y(-2.0f, 50.0f);
  ImageF32 map_x(97, 53), map_y(97, 53);
  for (size_t i = 0; i < map_x.size(); ++i) {
    map_x.data()[i] = pos_x(rng);
    map_y.data()[i] = pos_y(rng);
  }
  const float odd[] = {kNaN, kInf, -kInf, 1.0e9f, -1.0e9f, 70000.0f, -70000.0f, 6.7e7f, 3.0e38f};
  for (int i = 0; i < 9; ++i) {
    map_x.at(i, 5) = odd[i];
    map_y.at(i, 6) = odd[i];
  }
  expect_all_types_equal(images, map_x, map_y);
}

TEST(RemapAgainstOpenCv, NonFiniteFloatSamplesSpreadAsOpenCvSpreadsThem) {
  RandomImages images(30, 20, 13);
  images.f32.at(10, 10) = kNaN;
  images.f32.at(20, 5) = kInf;
  images.f32.at(3, 15) = -kInf;
  ImageF32 map_x(120, 80), map_y(120, 80);
  for (int y = 0; y < 80; ++y) {
    for (int x = 0; x < 120; ++x) {
      map_x.at(x, y) = static_cast<float>(x) / 4.0f;
      map_y.at(x, y) = static_cast<float>(y) / 4.0f;
    }
  }
  const ImageF32 ours = remap_bilinear(images.f32, map_x, map_y);
  EXPECT_TRUE(same_bits(ours, opencv_remap(images.f32, map_x, map_y, CV_32FC1,
                                           std::numeric_limits<double>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(ours.at(40, 40)));  // on the NaN sample itself
  EXPECT_TRUE(std::isnan(ours.at(38, 40)));  // weight 1/2 on it
}

// A calibrated rig with distortion, as a calibration file: StereoRectifier (cv::remap) against
// the core remap through the rectifier's own maps.
class RemapOnCalibratedRig : public ::testing::Test {
 protected:
  static constexpr int kWidth = 161, kHeight = 121;  // odd sizes

  void SetUp() override {
    const cv::Matx33d K1(150, 0, 79.5, 0, 151, 61.25, 0, 0, 1), K2(153, 0, 82, 0, 152, 58, 0, 0, 1);
    const cv::Matx<double, 1, 5> D1(-0.12, 0.03, 0.001, -0.0008, 0.0);
    const cv::Matx<double, 1, 5> D2(-0.10, 0.02, -0.0005, 0.001, 0.0);
    cv::Matx33d R;
    cv::Rodrigues(cv::Vec3d(0.02, -0.03, 0.015), R);
    const cv::Vec3d T(-0.1, 0.003, 0.002);
    path_ = test::fresh_dir("remap_rig") + "/rig.yaml";
    cv::FileStorage fs(path_, cv::FileStorage::WRITE);
    fs << "image_width" << kWidth << "image_height" << kHeight << "K1" << cv::Mat(K1) << "D1"
       << cv::Mat(D1) << "K2" << cv::Mat(K2) << "D2" << cv::Mat(D2) << "R" << cv::Mat(R) << "T"
       << cv::Mat(T);
  }
  std::string path_;
};

// Rectifies one pair with the OpenCV rectifier and with the core remap, expects `same` of both
// views, and returns the core's left view.
template <class Image, class Same>
Image expect_core_rectifies_as_opencv(const StereoRectifier& rectifier, const RectificationMaps& maps,
                                      const Image& left, const Image& right, Same same) {
  Image cv_left = left, cv_right = right;
  rectifier.rectify(cv_left, cv_right);
  Image core_left = left, core_right = right;
  rectify_pair(maps, core_left, core_right);
  EXPECT_TRUE(same(core_left, cv_left));
  EXPECT_TRUE(same(core_right, cv_right));
  return core_left;
}

TEST_F(RemapOnCalibratedRig, CoreRemapEqualsTheRectifierForEveryPixelType) {
  for (const double alpha : {0.0, 1.0}) {
    SCOPED_TRACE("alpha " + std::to_string(alpha));
    const StereoRectifier rectifier(load_stereo_calibration(path_), kWidth, kHeight, alpha);
    ASSERT_TRUE(rectifier.remaps());
    const RectificationMaps& maps = rectifier.maps();
    ASSERT_EQ(maps.width(), kWidth);
    ASSERT_EQ(maps.height(), kHeight);
    RandomImages left(kWidth, kHeight, 21), right(kWidth, kHeight, 22);
    left.f32.at(80, 60) = kNaN;  // a missing pixel inside the view

    const auto exact = [](const auto& a, const auto& b) { return same_pixels(a, b); };
    const ImageRgb8 core_left = expect_core_rectifies_as_opencv(rectifier, maps, left.rgb, right.rgb, exact);
    EXPECT_NE(core_left, left.rgb);  // the rig does move pixels
    expect_core_rectifies_as_opencv(rectifier, maps, left.u16, right.u16, exact);
    expect_core_rectifies_as_opencv(rectifier, maps, left.f32, right.f32,
                                    [](const ImageF32& a, const ImageF32& b) { return same_bits(a, b); });
  }
}

TEST(RemapInput, MismatchedOrEmptyMapsAreInputErrors) {
  const ImageU8 raw(8, 8);
  EXPECT_THROW(remap_bilinear(raw, ImageF32(4, 4), ImageF32(4, 5)), InputError);
  EXPECT_THROW(remap_bilinear(raw, ImageF32(), ImageF32()), InputError);
  EXPECT_THROW(remap_bilinear(ImageU8(40000, 1), ImageF32(4, 4), ImageF32(4, 4)), InputError);
}

}  // namespace
}  // namespace sv
