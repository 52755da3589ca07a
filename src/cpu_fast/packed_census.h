#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "src/core/image.h"
#include "src/core/stereo_params.h"

namespace sv {

// Census codes as the fast engine stores them: the bits of census_transform.h's CensusCode
// (same bit order, validity and missing rules) in 32-bit words, one plane per word, so a row of
// one word is contiguous and the cost kernel can load many pixels' words in one vector.
// Word w of pixel (x, y) holds code bits 32w .. 32w + 31.
struct PackedCensus {
  int width = 0;
  int height = 0;
  int words = 0;                // 32-bit words per code: 1 (5x5) .. 4 (11x11)
  int code_bits = 0;            // bits per code: the window's W*H - 1
  std::vector<uint32_t> bits;   // [word][y][x]
  std::vector<uint32_t> valid;  // [word][y][x]

  const uint32_t* bits_row(int word, int y) const { return bits.data() + offset(word, y); }
  const uint32_t* valid_row(int word, int y) const { return valid.data() + offset(word, y); }
  size_t offset(int word, int y) const {
    return (static_cast<size_t>(word) * height + y) * static_cast<size_t>(width);
  }
};

// Words a window's code needs (its W*H - 1 bits).
int packed_census_words(CensusWindow window);

// The census transform of census_transform.h, bit for bit, on the best SIMD target of this CPU.
// Missing values as there: -1 none, else that value; float: NaN always, `missing_value` too
// unless it is NaN. Throws InputError for an integer missing value the type cannot hold.
PackedCensus packed_census(const ImageU8& image, CensusWindow window, int missing_value = -1);
PackedCensus packed_census(const ImageU16& image, CensusWindow window, int missing_value = -1);
PackedCensus packed_census(const ImageF32& image, CensusWindow window,
                           float missing_value = std::numeric_limits<float>::quiet_NaN());
// The same into `out`, whose memory is reused when large enough (a frame's census then touches
// no fresh pages).
void packed_census(const ImageU8& image, CensusWindow window, int missing_value, PackedCensus& out);
void packed_census(const ImageU16& image, CensusWindow window, int missing_value, PackedCensus& out);
void packed_census(const ImageF32& image, CensusWindow window, float missing_value, PackedCensus& out);

}  // namespace sv
