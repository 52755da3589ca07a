// The error map of `stereoview eval --out`: its coloured pixels are exactly the pixels the
// evaluation counts as bad-1, on a hand-made case and on the synthetic scene.
#include "src/core/error_map.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/core/cpu_engine.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "tests/support/synthetic_frames.h"

namespace sv {
namespace {

bool is_gray(Rgb8 p) { return p.r == p.g && p.g == p.b; }

long long count_class(const Image<ErrorClass>& classes, ErrorClass c) {
  long long n = 0;
  for (ErrorClass k : classes.pixels()) n += k == c;
  return n;
}

TEST(ErrorMap, ClassesFollowTheEvaluationRules) {
  const float inf = kInvalidDisparity;
  EXPECT_EQ(classify_error_pixel(5.0f, inf, true, false), ErrorClass::Unevaluated);
  EXPECT_EQ(classify_error_pixel(5.0f, 5.0f, false, false), ErrorClass::Unevaluated);
  EXPECT_EQ(classify_error_pixel(6.0f, 5.0f, true, false), ErrorClass::Good);  // exactly 1: good
  EXPECT_EQ(classify_error_pixel(6.0625f, 5.0f, true, false), ErrorClass::Bad);
  EXPECT_EQ(classify_error_pixel(inf, 5.0f, true, false), ErrorClass::Bad);
  EXPECT_EQ(classify_error_pixel(inf, 5.0f, true, true), ErrorClass::BadOccluded);
  EXPECT_EQ(classify_error_pixel(5.5f, 5.0f, true, true), ErrorClass::Good);
}

TEST(ErrorMap, ColoursExactlyTheBadPixelsOverTheGrayLeftView) {
  // 4x1: good, bad by 3 px, invalid, bad but occluded.
  ImageRgb8 left(4, 1, Rgb8{200, 10, 90});
  ImageF32 truth(4, 1, 10.0f), estimate(4, 1, 10.0f);
  estimate.at(1, 0) = 13.0f;
  estimate.at(2, 0) = kInvalidDisparity;
  estimate.at(3, 0) = 20.0f;
  EvaluationMasks masks;
  masks.nonocc = ImageU8(4, 1, 255);
  masks.nonocc.at(3, 0) = 0;
  const ImageRgb8 map = error_map(left, estimate, truth, masks);
  EXPECT_TRUE(is_gray(map.at(0, 0)));
  EXPECT_EQ(map.at(1, 0).r, 255);  // yellow-red for an error
  EXPECT_EQ(map.at(1, 0).b, 0);
  EXPECT_FALSE(is_gray(map.at(2, 0)));
  EXPECT_FALSE(is_gray(map.at(3, 0)));
  EXPECT_NE(map.at(2, 0), map.at(3, 0));  // invalid and occluded read apart
  EXPECT_NE(map.at(1, 0), map.at(3, 0));
  EXPECT_THROW(error_map(ImageRgb8(3, 1), estimate, truth, masks), InputError);
  EXPECT_THROW(error_map(left, ImageF32(3, 1), truth, masks), InputError);
}

TEST(ErrorMap, MarksWhatEvalCountsOnTheSyntheticScene) {
  const SyntheticFrame frame = test::render_synthetic(160, 120, 32, 5);
  StereoParams params;
  params.num_disparities = 32;
  params.fill_holes = false;  // invalid pixels too
  const ImageF32 estimate = CpuEngine().compute(frame.left, frame.right, params).disparity;
  EvaluationMasks masks;
  masks.nonocc = frame.nonoccluded_mask;
  const DisparityEvaluation ev = evaluate_disparity(estimate, frame.ground_truth, masks);
  const Image<ErrorClass> classes = classify_errors(estimate, frame.ground_truth, masks);
  const RegionErrors& nonocc = *ev.find("nonocc");
  const RegionErrors& all = *ev.find("all");
  const long long bad_nonocc = count_class(classes, ErrorClass::Bad);
  const long long bad_all = bad_nonocc + count_class(classes, ErrorClass::BadOccluded);
  ASSERT_GT(bad_nonocc, 0);
  ASSERT_GT(bad_all, bad_nonocc);
  EXPECT_NEAR(100.0 * bad_nonocc / nonocc.pixels, nonocc.bad_1, 1e-9);
  EXPECT_NEAR(100.0 * bad_all / all.pixels, all.bad_1, 1e-9);

  const ImageRgb8 map = error_map(frame.left, estimate, frame.ground_truth, masks);
  ASSERT_TRUE(map.same_size(frame.left));
  for (size_t i = 0; i < map.size(); ++i) {
    const ErrorClass c = classes.data()[i];
    const bool bad = c == ErrorClass::Bad || c == ErrorClass::BadOccluded;
    ASSERT_EQ(!is_gray(map.data()[i]), bad) << "pixel " << i;
  }
}

}  // namespace
}  // namespace sv
