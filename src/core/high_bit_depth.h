#pragma once

#include <string>

#include "src/core/image.h"
#include "src/core/stereo_engine.h"
#include "src/core/stereo_params.h"

namespace sv {

// 16-bit gray input (sensors of 10 to 16 bits, scientific and machine-vision cameras) for the
// engines' StereoEngine::compute(ImageU16, ...). The census compares the full 16-bit values
// (Fuerntratt poster: 8/16-bit input); every stage after it is the 8-bit pipeline's, bit for bit.
// Stages that read intensities themselves (the adaptive P2, the confidence's texture) see the
// 8-bit view below, so their settings keep their 8-bit meaning.

// The 8-bit view of a 16-bit image: the high byte of each value, v >> 8. It is also what the
// file sources show for a 16-bit image, so the viewer and the engine see the same 8 bits.
uint8_t eight_bit_value(uint16_t value);
ImageU8 eight_bit_view(const ImageU16& image);

// Float gray input (PFM, 32-bit float TIFF: scientific and HDR data) for
// StereoEngine::compute(ImageF32, ...), the same design: the census compares the float values
// (census_transform(ImageF32): a NaN pixel is always missing, and params.missing_value >= 0 marks
// that value as missing too), every later stage is the 8-bit pipeline on the pair's 8-bit view.
// The 8-bit view is scaled by the pair's range, so data of any units (0..1, counts, Kelvin) shows
// and drives the adaptive P2 sensibly. EXACT DEFINITION (the CUDA engine reproduces it):
//   lo, hi = the smallest and largest finite value over both images, NaN, +-inf and pixels equal
//   to the missing value skipped; scale = 255.0f / (hi - lo) in float, or 0 when there is no
//   finite value, hi == lo, or the division is not finite. Per pixel, in float:
//   q = (v - lo) * scale (two roundings, never fused); view = 0 when q is NaN, else q clamped to
//   [0, 255] and rounded to nearest, ties to even.
struct FloatViewRange {
  float lo = 0.0f;
  float scale = 0.0f;
};
FloatViewRange float_view_range(const ImageF32& left, const ImageF32& right,
                                const StereoParams& params);
uint8_t eight_bit_value(float value, FloatViewRange range);
ImageU8 eight_bit_view(const ImageF32& image, FloatViewRange range);
// params.missing_value as the float census's missing value: NaN (nothing beyond NaNs) for -1.
float float_missing_value(const StereoParams& params);

// Empty when the engines can match `params` on 16-bit input; otherwise why not, as a sentence
// (the algorithm has no census). With pyramid levels, every level is reduced at full depth
// (pyramid.h) and its census compares those values; the missing value stays missing on every level.
std::string high_bit_depth_problem(const StereoParams& params);

// Throws InputError with high_bit_depth_problem().
void require_high_bit_depth_support(const StereoParams& params);

// Throws InputError when params.missing_value is larger than the input's largest value
// (`max_value`: 255 for 8-bit input, 65535 for 16-bit), naming both.
void require_missing_value_fits(const StereoParams& params, int max_value);

// The float counterparts: why float input cannot be matched (empty when it can), and its check.
std::string float_input_problem(const StereoParams& params);
void require_float_input_support(const StereoParams& params);

// The 16-bit counterpart of require_matching_pair (stereo_engine.h): InputError with both sizes.
void require_matching_pair(const ImageU16& left, const ImageU16& right);
void require_matching_pair(const ImageF32& left, const ImageF32& right);

// How the frame loops hand a source's pair to an engine: its float planes (StereoPair::leftf,
// rightf) when there are any and the engine takes them for `params` (supports_float_input),
// else its 16-bit planes (left16, right16; supports_high_bit_depth), else the views: the gray
// ones, or the colour ones, whose compute() matches gray unless colour weights apply. Empty
// planes are skipped. full_depth_view() picks the planes for a request (they must outlive
// submit()); match_at_full_depth() computes the frame at once.
PairView full_depth_view(const StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                         const ImageF32& leftf, const ImageF32& rightf, const ImageU16& left16,
                         const ImageU16& right16, const StereoParams& params);
PairView full_depth_view(const StereoEngine& engine, const ImageRgb8& left, const ImageRgb8& right,
                         const ImageF32& leftf, const ImageF32& rightf, const ImageU16& left16,
                         const ImageU16& right16, const StereoParams& params);
DisparityResult match_at_full_depth(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                    const ImageF32& leftf, const ImageF32& rightf,
                                    const ImageU16& left16, const ImageU16& right16,
                                    const StereoParams& params);
DisparityResult match_at_full_depth(StereoEngine& engine, const ImageRgb8& left,
                                    const ImageRgb8& right, const ImageF32& leftf,
                                    const ImageF32& rightf, const ImageU16& left16,
                                    const ImageU16& right16, const StereoParams& params);

// For a pair with float planes: why their 8-bit view is matched instead, or empty.
std::string float_input_fallback_note(const StereoEngine& engine, const StereoParams& params);

// For a pair with 16-bit planes: a note saying why match_at_full_depth uses their 8-bit views
// instead, or empty when the 16-bit values are matched.
std::string high_bit_depth_fallback_note(const StereoEngine& engine, const StereoParams& params);

}  // namespace sv
