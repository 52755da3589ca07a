#pragma once

#include <cstdint>
#include <limits>

#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

// Census signature of one pixel: one comparison bit and one validity bit per window position
// (centre excluded), packed in 128 bits so windows up to 11x11 (120 bits) fit.
// EXACT DEFINITION (bit order, comparison, borders, missing pixels): the comment block at the
// top of census_transform.cpp. In short: bit i walks the window row-major skipping the centre,
// bit = neighbour < centre, valid = neighbour inside, neither pixel missing; invalid bits are 0.
struct CensusCode {
  uint64_t bits[2] = {0, 0};
  uint64_t valid[2] = {0, 0};
  bool operator==(const CensusCode& o) const {
    return bits[0] == o.bits[0] && bits[1] == o.bits[1] && valid[0] == o.valid[0] &&
           valid[1] == o.valid[1];
  }
};

using CensusImage = Image<CensusCode>;

// `missing_value` >= 0 marks input pixels with that value as missing (no data); -1: none missing.
// Throws InputError for a missing_value outside -1..255.
CensusImage census_transform(const ImageU8& image, CensusWindow window, int missing_value = -1);

// 16-bit input, compared on the full 16-bit values. Throws InputError for a missing_value outside
// -1..65535.
CensusImage census_transform(const ImageU16& image, CensusWindow window, int missing_value = -1);

// Float input, compared as floats. A NaN pixel is always missing; `missing_value` (not NaN)
// designates one more value as missing (compared with ==, so 0 also marks -0). The default NaN
// designates nothing beyond the NaNs.
CensusImage census_transform(const ImageF32& image, CensusWindow window,
                             float missing_value = std::numeric_limits<float>::quiet_NaN());

}  // namespace sv
