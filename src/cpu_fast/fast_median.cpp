// The median filter (median_filter.cpp's EXACT DEFINITION) with one SIMD lane per pixel.
//
// Invalid disparities are the smallest int16 (kInvalidFixedDisparity) and so are the pixels
// outside the image (a padded copy), so a sorting network over the window's values puts the
// m = size*size - n invalid ones first and the n valid ones, sorted, after them: the median of
// the valid values is element m + n / 2, chosen per lane. The network is a plain odd-even
// transposition sort, enough for 9 or 25 values; the values live in a stack buffer rather than in
// an array of vectors, which some targets (SVE) cannot hold.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/fast_median.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/fast_median.h"

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// `padded`: the disparities with `radius` invalid pixels around them and row slack for a vector.
void MedianRows(const std::vector<int16_t>& padded, int padded_width, int radius, ImageI16& out) {
  const hn::ScalableTag<int16_t> d;
  const int n = static_cast<int>(hn::Lanes(d));
  const int size = 2 * radius + 1;
  const int values = size * size;
  const int width = out.width();
  const auto invalid = hn::Set(d, kInvalidFixedDisparity);
  parallel_for(0, out.height(), [&](int y) {
    std::vector<int16_t> window(static_cast<size_t>(values) * n);
    std::vector<int16_t> row(static_cast<size_t>(width) + n);
    for (int x = 0; x < width; x += n) {
      auto valid_count = hn::Zero(d);
      int i = 0;
      for (int dy = 0; dy < size; ++dy) {
        const int16_t* source = padded.data() + static_cast<size_t>(y + dy) * padded_width + x;
        for (int dx = 0; dx < size; ++dx, ++i) {
          const auto v = hn::LoadU(d, source + dx);
          valid_count = hn::Sub(valid_count, hn::VecFromMask(d, hn::Ne(v, invalid)));  // mask is -1
          hn::StoreU(v, d, window.data() + i * n);
        }
      }
      for (int pass = 0; pass < values; ++pass) {
        for (int j = pass % 2; j + 1 < values; j += 2) {
          int16_t* a = window.data() + j * n;
          int16_t* b = a + n;
          const auto va = hn::LoadU(d, a);
          const auto vb = hn::LoadU(d, b);
          hn::StoreU(hn::Min(va, vb), d, a);
          hn::StoreU(hn::Max(va, vb), d, b);
        }
      }
      // Index m + n / 2 = values - count + count / 2, lane by lane.
      const auto index = hn::Add(hn::Sub(hn::Set(d, static_cast<int16_t>(values)), valid_count),
                                 hn::ShiftRight<1>(valid_count));
      auto median = invalid;
      for (int k = values / 2; k < values; ++k) {
        median = hn::IfThenElse(hn::Eq(index, hn::Set(d, static_cast<int16_t>(k))),
                                hn::LoadU(d, window.data() + k * n), median);
      }
      const auto centre = hn::LoadU(d, padded.data() + static_cast<size_t>(y + radius) * padded_width + x + radius);
      hn::StoreU(hn::IfThenElse(hn::Eq(centre, invalid), invalid, median), d, row.data() + x);
    }
    std::copy(row.begin(), row.begin() + width, out.row(y));
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(MedianRows);

ImageI16 fast_median_filter(const ImageI16& disparity_fixed, int size) {
  if (size == 0 || size == 1) return disparity_fixed;
  if (size != 3 && size != 5) {
    throw InputError("Median filter size must be 0, 1, 3 or 5, got " + std::to_string(size) + ".");
  }
  const int width = disparity_fixed.width();
  const int height = disparity_fixed.height();
  const int radius = size / 2;
  ImageI16 out(width, height, kInvalidFixedDisparity);
  if (width == 0 || height == 0) return out;
  constexpr int kSlack = 128;  // a whole vector read at the last pixel of a row, any target
  const int padded_width = width + 2 * radius + kSlack;
  std::vector<int16_t> padded(static_cast<size_t>(padded_width) * (height + 2 * radius),
                              kInvalidFixedDisparity);
  for (int y = 0; y < height; ++y) {
    std::copy(disparity_fixed.row(y), disparity_fixed.row(y) + width,
              padded.data() + static_cast<size_t>(y + radius) * padded_width + radius);
  }
  HWY_DYNAMIC_DISPATCH(MedianRows)(padded, padded_width, radius, out);
  return out;
}

}  // namespace sv
#endif  // HWY_ONCE
