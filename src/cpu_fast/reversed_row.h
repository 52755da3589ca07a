#pragma once

#include <cstdint>
#include <vector>

namespace sv {

// Backward matching's work space for one row (row_selection-inl.h): per right pixel, the best
// offer so far and its disparity, in a reversed, padded row, once for each half of the left
// row. Kept between rows and frames so selecting a row allocates nothing.
struct ReversedRow {
  struct Offers {
    std::vector<int16_t> best_cost;
    std::vector<int16_t> best_d;
  };
  Offers halves[2];
};

}  // namespace sv
