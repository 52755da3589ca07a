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

// Empty when the engines can match `params` on 16-bit input; otherwise why not, as a sentence
// (the algorithm has no census, or the pyramid, whose 2x2 averages are 8-bit, is on).
std::string high_bit_depth_problem(const StereoParams& params);

// Throws InputError with high_bit_depth_problem().
void require_high_bit_depth_support(const StereoParams& params);

// Throws InputError when params.missing_value is larger than the input's largest value
// (`max_value`: 255 for 8-bit input, 65535 for 16-bit), naming both.
void require_missing_value_fits(const StereoParams& params, int max_value);

// The 16-bit counterpart of require_matching_pair (stereo_engine.h): InputError with both sizes.
void require_matching_pair(const ImageU16& left, const ImageU16& right);

// How the frame loops hand a source's pair to an engine: on the 16-bit planes (StereoPair::left16,
// right16) when there are any and the engine takes them for `params`, otherwise on the 8-bit gray
// views. Empty planes mean an 8-bit source.
DisparityResult match_at_full_depth(StereoEngine& engine, const ImageU8& left, const ImageU8& right,
                                    const ImageU16& left16, const ImageU16& right16,
                                    const StereoParams& params);
// The same for a source's colour views: the 16-bit planes when the engine takes them, otherwise
// the colour compute(), which matches the gray views unless colour weights apply.
DisparityResult match_at_full_depth(StereoEngine& engine, const ImageRgb8& left,
                                    const ImageRgb8& right, const ImageU16& left16,
                                    const ImageU16& right16, const StereoParams& params);

// For a pair with 16-bit planes: a note saying why match_at_full_depth uses their 8-bit views
// instead, or empty when the 16-bit values are matched.
std::string high_bit_depth_fallback_note(const StereoEngine& engine, const StereoParams& params);

}  // namespace sv
