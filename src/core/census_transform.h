#pragma once

#include <cstdint>

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

}  // namespace sv
