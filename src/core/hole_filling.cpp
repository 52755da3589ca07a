#include "src/core/hole_filling.h"

#include <algorithm>
#include <vector>

#include "src/core/disparity.h"
#include "src/core/parallel_for.h"

namespace sv {

// EXACT DEFINITION. For each row independently: for an invalid pixel x let L be the valid
// disparity at the largest x' < x and R the one at the smallest x' > x (on the input row, before
// any filling). The output is min(L, R) when both exist, the one that exists otherwise, and stays
// invalid when the row has no valid pixel. Valid pixels are unchanged.
void fill_holes(ImageI16& disparity_fixed) {
  const int width = disparity_fixed.width();
  parallel_for(0, disparity_fixed.height(), [&](int y) {
    int16_t* row = disparity_fixed.row(y);
    std::vector<int16_t> left_valid(width, kInvalidFixedDisparity);
    int16_t last = kInvalidFixedDisparity;
    for (int x = 0; x < width; ++x) {
      left_valid[x] = last;
      if (is_valid_fixed_disparity(row[x])) last = row[x];
    }
    int16_t next = kInvalidFixedDisparity;
    for (int x = width - 1; x >= 0; --x) {
      const int16_t original = row[x];
      if (!is_valid_fixed_disparity(original)) {
        const int16_t l = left_valid[x];
        if (is_valid_fixed_disparity(l) && is_valid_fixed_disparity(next)) {
          row[x] = std::min(l, next);
        } else if (is_valid_fixed_disparity(l)) {
          row[x] = l;
        } else {
          row[x] = next;
        }
      } else {
        next = original;
      }
    }
  });
}

}  // namespace sv
