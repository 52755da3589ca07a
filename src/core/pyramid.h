#pragma once

#include <utility>
#include <vector>

#include "src/core/cost_volume.h"
#include "src/core/image.h"

namespace sv {

// Coarse-to-fine matching (Prehn 2007, section 5.3): each level halves the image by 2x2
// averaging; the coarsest level searches the whole (scaled) range, and every finer level only
// +-radius around twice the estimate of the level below (the disparity predictor).

// One 2x2 averaging reduction, rounded half up: out(x, y) = (a + b + c + d + 2) / 4 over the
// source block at (2x, 2y). Odd sizes round up; the missing row/column replicates the border.
ImageU8 downsample_2x2(const ImageU8& image);

// The same reduction on 16-bit and float input (high_bit_depth.h), keeping every bit of the
// values and leaving missing pixels out of the means, so a missing pixel never drags a real one
// toward the missing value and a block with no data stays missing. Exact definitions (rounding,
// NaN, infinities, a mean that lands on the missing value): the top of pyramid.cpp.
// `missing_value`: -1 (none) or 0..65535; float: NaN (nothing beyond the NaNs) or the value.
ImageU16 downsample_2x2(const ImageU16& image, int missing_value);
ImageF32 downsample_2x2(const ImageF32& image, float missing_value);

// The smallest image a pyramid level may shrink to: below it windows see mostly border.
constexpr int kMinPyramidLevelSize = 8;

// Width and height of every level (level 0 first); throws InputError, with both sizes, when the
// coarsest level would be smaller than kMinPyramidLevelSize.
std::vector<std::pair<int, int>> pyramid_level_sizes(int width, int height, int levels);

// levels[0] is `image`, levels[i] the i-th reduction.
std::vector<ImageU8> build_pyramid(const ImageU8& image, int levels);
std::vector<ImageU16> build_pyramid(const ImageU16& image, int levels, int missing_value);
std::vector<ImageF32> build_pyramid(const ImageF32& image, int levels, float missing_value);

// Search range of the coarsest level: [floor(min / 2^L), ... ] covering the full range scaled
// down by 2^levels (rounded outward so no disparity of the full range is lost).
SearchRange coarse_search_range(int min_disparity, int num_disparities, int levels);

// Per-pixel range of a finer level of size width x height from the estimate of the level below
// (fixed point, 1/16 px): base = round(2 * coarse(x/2, y/2)) - radius, count = 2 * radius + 1,
// clamped so the window stays inside the full-resolution range scaled to this level. Invalid
// coarse pixels take the nearest valid estimate on their row (or the range centre if none).
// Candidates per pixel on a refined level: 2 * radius + 1, or fewer when the level's whole range
// is narrower.
int refined_search_count(int radius, int min_disparity, int num_disparities, int level);

SearchRange refine_search_range(const ImageI16& coarse_fixed, int width, int height, int radius,
                                int min_disparity, int num_disparities, int level);

}  // namespace sv
