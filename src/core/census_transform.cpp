// Census transform with validity masks (Fuerntratt poster: "valid bitstrings").
//
// EXACT DEFINITION (the CUDA engine reproduces this bit for bit)
//   Window W x H from CensusWindow (5x5, 7x7, 9x7, 9x9); rx = W / 2, ry = H / 2.
//   Bit order: the window positions (dx, dy) are walked row-major, dy = -ry..ry outer,
//     dx = -rx..rx inner, skipping the centre (0, 0); the i-th visited position is bit i,
//     stored in word i / 64 at bit i % 64 (bits[0] holds bits 0..63, bits[1] bits 64..).
//     So a W x H window uses bits 0 .. W*H-2; every higher bit is 0 in both words.
//   Validity: valid bit i = 1 exactly when the neighbour (x+dx, y+dy) lies inside the image,
//     the neighbour is not missing and the centre is not missing. A missing centre therefore
//     has an all-zero code: it shares no valid bit with anything and never matches.
//   Comparison: bit i = 1 exactly when valid bit i = 1 and I(neighbour) < I(centre) (strict).
//     Invalid positions carry comparison bit 0, so equal inputs give equal (canonical) codes.
//   Missing: a pixel is missing when missing_value >= 0 and its value equals missing_value.
#include "src/core/census_transform.h"

#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

CensusImage census_transform(const ImageU8& image, CensusWindow window, int missing_value) {
  if (missing_value < -1 || missing_value > 255) {
    throw InputError("census missing value must be -1 (none) or 0..255, got " +
                     std::to_string(missing_value));
  }
  const int rx = census_window_width(window) / 2;
  const int ry = census_window_height(window) / 2;
  const int width = image.width();
  const int height = image.height();
  auto is_missing = [missing_value](int value) { return missing_value >= 0 && value == missing_value; };

  CensusImage codes(width, height);
  parallel_for(0, height, [&](int y) {
    for (int x = 0; x < width; ++x) {
      const int centre = image.at(x, y);
      CensusCode code;
      if (!is_missing(centre)) {
        int bit = 0;
        for (int dy = -ry; dy <= ry; ++dy) {
          for (int dx = -rx; dx <= rx; ++dx) {
            if (dx == 0 && dy == 0) continue;
            const int nx = x + dx;
            const int ny = y + dy;
            if (nx >= 0 && nx < width && ny >= 0 && ny < height) {
              const int neighbour = image.at(nx, ny);
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

}  // namespace sv
