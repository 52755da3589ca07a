#include "src/core/pyramid.h"

#include <algorithm>

#include "src/core/disparity.h"
#include "src/core/error.h"

#include <string>

namespace sv {
namespace {

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
