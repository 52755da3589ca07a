// Census transform with validity masks (Fuerntratt poster: "valid bitstrings"), for 8-bit,
// 16-bit and float input.
//
// EXACT DEFINITION (the CUDA engine reproduces this bit for bit, for every input type)
//   Window W x H from CensusWindow (5x5, 7x7, 9x7, 9x9, 11x11); rx = W / 2, ry = H / 2.
//   Bit order: the window positions (dx, dy) are walked row-major, dy = -ry..ry outer,
//     dx = -rx..rx inner, skipping the centre (0, 0); the i-th visited position is bit i,
//     stored in word i / 64 at bit i % 64 (bits[0] holds bits 0..63, bits[1] bits 64..).
//     So a W x H window uses bits 0 .. W*H-2; every higher bit is 0 in both words.
//   Validity: valid bit i = 1 exactly when the neighbour (x+dx, y+dy) lies inside the image,
//     the neighbour is not missing and the centre is not missing. A missing centre therefore
//     has an all-zero code: it shares no valid bit with anything and never matches.
//   Comparison: bit i = 1 exactly when valid bit i = 1 and I(neighbour) < I(centre) (strict),
//     on the native values of the input type: uint8 and uint16 as integers (no scaling, so
//     16-bit values that differ only in their low byte still compare unequal), float with the
//     IEEE < (-0 and +0 are equal, -inf and +inf order as usual, subnormals are not flushed).
//     Invalid positions carry comparison bit 0, so equal inputs give equal (canonical) codes.
//   Missing:
//     uint8:  a pixel is missing when missing_value >= 0 and its value equals missing_value
//             (missing_value in -1..255; -1 means no pixel is missing).
//     uint16: the same with missing_value in -1..65535.
//     float:  a NaN pixel is always missing (so no comparison ever involves a NaN); in addition
//             a pixel is missing when it == missing_value, unless missing_value is NaN (the
//             default: nothing beyond the NaNs). Being ==, a missing 0 marks -0 as well.
#include "src/core/census_transform.h"

#include <cmath>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

void check_integer_missing_value(int missing_value, int max_value) {
  if (missing_value < -1 || missing_value > max_value) {
    throw InputError("census missing value must be -1 (none) or 0.." + std::to_string(max_value) +
                     ", got " + std::to_string(missing_value));
  }
}

// The definition above, once for every input type; `is_missing(value)` decides "no data".
template <typename Pixel, typename IsMissing>
CensusImage census_of(const Image<Pixel>& image, CensusWindow window, IsMissing is_missing) {
  const int rx = census_window_width(window) / 2;
  const int ry = census_window_height(window) / 2;
  const int width = image.width();
  const int height = image.height();

  CensusImage codes(width, height);
  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const Pixel centre = image.at(x, y);
      CensusCode code;
      if (!is_missing(centre)) {
        int bit = 0;
        for (int dy = -ry; dy <= ry; ++dy) {
          for (int dx = -rx; dx <= rx; ++dx) {
            if (dx == 0 && dy == 0) continue;
            const int nx = x + dx;
            const int ny = y + dy;
            if (nx >= 0 && nx < width && ny >= 0 && ny < height) {
              const Pixel neighbour = image.at(nx, ny);
              if (!is_missing(neighbour)) {
                const uint64_t mask = uint64_t{1} << (bit % 64);
                code.valid[bit / 64] |= mask;
                if (neighbour < centre) code.bits[bit / 64] |= mask;
              }
            }
            ++bit;
          }
        }
      }
      codes.at(x, y) = code;
    }
  });
  return codes;
}

// -1 never equals a non-negative value, so it needs no separate "none" test.
template <typename Pixel>
auto equals_integer(int missing_value) {
  return [missing_value](Pixel value) { return static_cast<int>(value) == missing_value; };
}

}  // namespace

CensusImage census_transform(const ImageU8& image, CensusWindow window, int missing_value) {
  check_integer_missing_value(missing_value, 255);
  return census_of(image, window, equals_integer<uint8_t>(missing_value));
}

CensusImage census_transform(const ImageU16& image, CensusWindow window, int missing_value) {
  check_integer_missing_value(missing_value, 65535);
  return census_of(image, window, equals_integer<uint16_t>(missing_value));
}

CensusImage census_transform(const ImageF32& image, CensusWindow window, float missing_value) {
  // A NaN missing_value equals nothing, so the == test alone leaves only the NaN pixels missing.
  return census_of(image, window, [missing_value](float value) {
    return std::isnan(value) || value == missing_value;
  });
}

}  // namespace sv
