#pragma once

#include <cstdint>

#include "src/core/image.h"

namespace sv {

// How two disparity maps of the same pair differ (the viewer's A/B comparison, issue 22): per
// pixel |A - B| where both are valid, and which side alone has a disparity where only one does.
enum class DifferenceKind : uint8_t {
  BothInvalid = 0,
  Equal = 1,   // both valid, |A - B| <= tolerance
  Differ = 2,  // both valid, |A - B| > tolerance
  OnlyA = 3,   // A valid, B invalid
  OnlyB = 4,   // B valid, A invalid
};

struct DifferenceCounts {
  int64_t pixels = 0;
  int64_t both_invalid = 0;
  int64_t equal = 0;
  int64_t differ = 0;
  int64_t only_a = 0;
  int64_t only_b = 0;
  double mean_abs = 0.0;  // of |A - B| over the pixels valid in both; 0 when there are none
  double max_abs = 0.0;
  // Pixels where the two results are not the same: differ + only_a + only_b.
  int64_t changed() const { return differ + only_a + only_b; }
};

struct DisparityDifference {
  ImageF32 magnitude;  // |A - B| where both are valid, 0 elsewhere
  ImageU8 kind;        // a DifferenceKind per pixel
  DifferenceCounts counts;
};

// Compares `a` and `b` pixel by pixel (invalid: not finite, disparity.h). `tolerance` >= 0 in px:
// 0 counts any change. Throws InputError when the sizes differ or the tolerance is negative or
// not finite.
DisparityDifference disparity_difference(const ImageF32& a, const ImageF32& b,
                                         float tolerance = 0.0f);

// The difference as the viewer draws it: equal pixels black, differing ones from dark red to
// yellow by |A - B| / full_scale (clamped; full_scale <= 0 or not finite means 1 px), A alone
// cyan, B alone orange, neither valid dark grey: colours apart from each other and from the
// disparity views' invalid magenta.
ImageRgb8 colorize_difference(const DisparityDifference& difference, float full_scale);

// |A - B| in the engine's fixed point (1/16 px, kDisparityScale) where both sides are valid,
// kInvalidFixedDisparity where at most one is: how a 16-bit recording of the difference view
// stores it (the recording's disparity encoding then decodes it to px). A and B are multiples of
// 1/16 px, so this is exact; a magnitude beyond int16 is clamped.
ImageI16 difference_fixed(const DisparityDifference& difference);

// The colours above, so a legend and the tests name the same ones.
constexpr Rgb8 kDifferenceEqualColor{0, 0, 0};
constexpr Rgb8 kDifferenceOnlyAColor{0, 200, 255};
constexpr Rgb8 kDifferenceOnlyBColor{255, 140, 0};
constexpr Rgb8 kDifferenceBothInvalidColor{48, 48, 48};
// The ends of the |A - B| ramp: just above the tolerance, and full_scale or more.
constexpr Rgb8 kDifferenceSmallColor{110, 0, 0};
constexpr Rgb8 kDifferenceLargeColor{255, 255, 64};

}  // namespace sv
