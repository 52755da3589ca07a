#pragma once

#include "src/core/image.h"

namespace sv {

// A rectangle of whole pixels: columns x .. x + width - 1, rows y .. y + height - 1.
struct RegionRect {
  int x = 0, y = 0, width = 0, height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
};

// The part of `rect` inside an image of image_width x image_height (empty when none).
RegionRect clip_rect(const RegionRect& rect, int image_width, int image_height);

// What a drawn rectangle says about the disparity inside it.
struct RegionStatistics {
  RegionRect rect;           // as clipped to the image
  long long pixels = 0;     // in the rectangle
  long long valid = 0;      // with a finite disparity
  double valid_fraction = 0.0;
  // Over the valid disparities (0 when none): mean, median (the lower middle value of an even
  // count) and population standard deviation, in px.
  double mean = 0.0, median = 0.0, std_dev = 0.0;
  // The same for depth Z = focal_px * baseline_m / d over valid d > 0, in metres; only when the
  // geometry is known (has_depth) and such a pixel exists (depth_pixels > 0).
  bool has_depth = false;
  long long depth_pixels = 0;
  double mean_depth = 0.0, median_depth = 0.0, std_depth = 0.0;
  // Least-squares plane d = a x + b y + c through the valid pixels (x, y: pixel coordinates in
  // the image), and the RMS of its residuals in px: how flat a flat surface comes out. Needs at
  // least 3 valid pixels not all on one line (plane_fitted).
  bool plane_fitted = false;
  double plane_a = 0.0, plane_b = 0.0, plane_c = 0.0, plane_rms = 0.0;
  // Against ground truth (has_truth): the rectangle's pixels with finite truth, and the percent
  // of them with an invalid estimate or |estimate - truth| > 1 (bad_1) or > 2 px (bad_2), the
  // rules of evaluation.cpp, so the figures equal `stereoview eval` over the same pixels.
  bool has_truth = false;
  long long truth_pixels = 0;
  double bad_1 = 0.0, bad_2 = 0.0;
};

// `ground_truth` may be null or empty (no truth); it must otherwise have the disparity's size
// (InputError). focal_px and baseline_m > 0 give depth. An empty clipped rectangle gives
// pixels = 0 and nothing else.
RegionStatistics region_statistics(const ImageF32& disparity, const RegionRect& rect,
                                   double focal_px = 0.0, double baseline_m = 0.0,
                                   const ImageF32* ground_truth = nullptr);

}  // namespace sv
