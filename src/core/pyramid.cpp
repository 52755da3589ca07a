// Coarse-to-fine pyramid: the 2x2 reductions and the search ranges of every level.
//
// EXACT DEFINITION of the reductions (the CUDA engine reproduces them bit for bit)
//   Samples: out(x, y) reads the four pixels at (2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1),
//     in that order, with coordinates clamped into the image (an odd last column or row counts
//     twice). The output is ceil(W / 2) x ceil(H / 2).
//   8-bit: out = (a + b + c + d + 2) / 4 (integer division: the mean rounded half up).
//   16-bit, with missing value M (-1: none; else 0..65535): a sample is missing when it equals M.
//     n = the number of real samples, s = their integer sum.
//     n == 0: out = M (a block with no data stays missing).
//     else m = (s + n / 2) / n (the mean rounded half up; n = 3 has no halves), and out = m,
//     except m == M (real values on both sides of M), which becomes M + 1 (M - 1 for M = 65535),
//     so real data never turns missing. Without M this is the 8-bit rule.
//   float, with missing value M (NaN: none beyond the NaNs): a sample is missing when it is NaN
//     or == M (census_transform.cpp's rule).
//     n == 0: out = NaN.
//     else s = the sum of the real samples in sample order, in double, each addition rounded to
//     nearest; m = s / n in double; out = m rounded to float (to nearest, ties to even). +inf and
//     -inf are values: a block holding both sums to NaN and so turns missing. A result == M
//     becomes nextafter(M, +inf), the next float above it, so real data never turns missing.
//   Averages of real values stay within their range, so the 8-bit view of a reduced level
//   (high_bit_depth.h: the high byte; the float pair's range view with level 0's range) is the
//   coarse level's 8-bit image for the stages that read 8 bits.
#include "src/core/pyramid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/pyramid_reduction.h"

namespace sv {
namespace {

// The four samples of out(x, y) in the definition's order.
template <typename T>
void block_samples(const Image<T>& image, int x, int y, T samples[4]) {
  samples[0] = image.clamped(2 * x, 2 * y);
  samples[1] = image.clamped(2 * x + 1, 2 * y);
  samples[2] = image.clamped(2 * x, 2 * y + 1);
  samples[3] = image.clamped(2 * x + 1, 2 * y + 1);
}

template <typename T, typename Missing>
Image<T> downsample_with_missing(const Image<T>& image, Missing missing_value) {
  Image<T> out((image.width() + 1) / 2, (image.height() + 1) / 2);
  for (int y = 0; y < out.height(); ++y) {
    for (int x = 0; x < out.width(); ++x) {
      T samples[4];
      block_samples(image, x, y, samples);
      out.at(x, y) = reduce_block(samples, missing_value);
    }
  }
  return out;
}

template <typename T, typename Missing>
std::vector<Image<T>> pyramid_with_missing(const Image<T>& image, int levels, Missing missing_value) {
  std::vector<Image<T>> pyramid{image};
  for (int i = 0; i < levels; ++i) pyramid.push_back(downsample_2x2(pyramid.back(), missing_value));
  return pyramid;
}

int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int ceil_div(int a, int b) { return -floor_div(-a, b); }

// Inclusive disparity bounds of the full range [min, min + count) scaled to `level`.
struct LevelBounds {
  int lo, hi;
};

LevelBounds level_bounds(int min_disparity, int num_disparities, int level) {
  const int scale = 1 << level;
  return {floor_div(min_disparity, scale), ceil_div(min_disparity + num_disparities - 1, scale)};
}

}  // namespace

std::vector<std::pair<int, int>> pyramid_level_sizes(int width, int height, int levels) {
  std::vector<std::pair<int, int>> sizes{{width, height}};
  for (int i = 0; i < levels; ++i) {
    sizes.emplace_back((sizes.back().first + 1) / 2, (sizes.back().second + 1) / 2);
  }
  const auto [coarse_w, coarse_h] = sizes.back();
  if (coarse_w < kMinPyramidLevelSize || coarse_h < kMinPyramidLevelSize) {
    throw InputError("image " + std::to_string(width) + "x" + std::to_string(height) +
                     " is too small for " + std::to_string(levels) +
                     " pyramid levels (the coarsest level would be " + std::to_string(coarse_w) +
                     "x" + std::to_string(coarse_h) + ", at least " +
                     std::to_string(kMinPyramidLevelSize) + "x" +
                     std::to_string(kMinPyramidLevelSize) + " is needed)");
  }
  return sizes;
}

ImageU8 downsample_2x2(const ImageU8& image) {
  ImageU8 out((image.width() + 1) / 2, (image.height() + 1) / 2);
  for (int y = 0; y < out.height(); ++y) {
    for (int x = 0; x < out.width(); ++x) {
      const int sum = image.clamped(2 * x, 2 * y) + image.clamped(2 * x + 1, 2 * y) +
                      image.clamped(2 * x, 2 * y + 1) + image.clamped(2 * x + 1, 2 * y + 1);
      out.at(x, y) = static_cast<uint8_t>((sum + 2) / 4);
    }
  }
  return out;
}

std::vector<ImageU8> build_pyramid(const ImageU8& image, int levels) {
  std::vector<ImageU8> pyramid{image};
  for (int i = 0; i < levels; ++i) pyramid.push_back(downsample_2x2(pyramid.back()));
  return pyramid;
}

ImageU16 downsample_2x2(const ImageU16& image, int missing_value) {
  if (missing_value < -1 || missing_value > 65535) {
    throw InputError("16-bit missing value must be -1 (none) or 0..65535, got " +
                     std::to_string(missing_value));
  }
  return downsample_with_missing(image, missing_value);
}

ImageF32 downsample_2x2(const ImageF32& image, float missing_value) {
  return downsample_with_missing(image, missing_value);
}

std::vector<ImageU16> build_pyramid(const ImageU16& image, int levels, int missing_value) {
  return pyramid_with_missing(image, levels, missing_value);
}

std::vector<ImageF32> build_pyramid(const ImageF32& image, int levels, float missing_value) {
  return pyramid_with_missing(image, levels, missing_value);
}

SearchRange coarse_search_range(int min_disparity, int num_disparities, int levels) {
  const LevelBounds b = level_bounds(min_disparity, num_disparities, levels);
  return SearchRange(b.lo, b.hi - b.lo + 1);
}

int refined_search_count(int radius, int min_disparity, int num_disparities, int level) {
  const LevelBounds b = level_bounds(min_disparity, num_disparities, level);
  return std::min(2 * radius + 1, b.hi - b.lo + 1);
}

SearchRange refine_search_range(const ImageI16& coarse_fixed, int width, int height, int radius,
                                int min_disparity, int num_disparities, int level) {
  const LevelBounds b = level_bounds(min_disparity, num_disparities, level);
  const int count = refined_search_count(radius, min_disparity, num_disparities, level);
  const int centre = (b.lo + b.hi) / 2;

  // Fill invalid coarse estimates from the nearest valid one on the same row, so every pixel
  // gets a prediction; ties go to the left neighbour.
  const int cw = coarse_fixed.width();
  const int ch = coarse_fixed.height();
  ImageI16 predicted(cw, ch);
  for (int y = 0; y < ch; ++y) {
    const int16_t* row = coarse_fixed.row(y);
    for (int x = 0; x < cw; ++x) {
      int16_t value = kInvalidFixedDisparity;
      for (int dist = 0; dist < cw && value == kInvalidFixedDisparity; ++dist) {
        if (x - dist >= 0 && is_valid_fixed_disparity(row[x - dist])) {
          value = row[x - dist];
        } else if (x + dist < cw && is_valid_fixed_disparity(row[x + dist])) {
          value = row[x + dist];
        }
      }
      predicted.at(x, y) = value;
    }
  }

  ImageI16 base(width, height);
  for (int y = 0; y < height; ++y) {
    const int cy = std::min(y / 2, ch - 1);
    for (int x = 0; x < width; ++x) {
      const int cx = std::min(x / 2, cw - 1);
      const int16_t coarse = predicted.at(cx, cy);
      // Twice the coarse estimate, in whole px at this level, rounded half up.
      const int prediction = is_valid_fixed_disparity(coarse)
                                 ? floor_div(2 * coarse + kDisparityScale / 2, kDisparityScale)
                                 : centre;
      const int first = std::clamp(prediction - radius, b.lo, b.hi - count + 1);
      base.at(x, y) = static_cast<int16_t>(first);
    }
  }
  return SearchRange(std::move(base), count);
}

}  // namespace sv
