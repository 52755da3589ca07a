#pragma once

#include "src/core/image.h"

namespace sv {

// Whether a pair's views come in the order the engines need: a point of the left view appears
// in the right view at the same x or to its left (disparities >= 0). Swapped views put it to
// the right, and every disparity the engines search for is wrong.
enum class ViewOrder { AsExpected, Swapped, Unclear };

struct ViewOrderCheck {
  ViewOrder order = ViewOrder::Unclear;
  int tested = 0;    // textured blocks compared
  int positive = 0;  // blocks matching clearly better at a positive disparity than any negative
  int negative = 0;  // the other way round
};

// A cheap look at one pair (about 20 ms at 640x480): both views are reduced (halved until at
// most 400 px wide) to gray; each 9x9 block of the left view with horizontal texture is compared
// with the right view at every shift in -search..search (full-size pixels, at most a third of
// the width), cost = sum of absolute differences after removing each block's mean (robust to a
// brightness difference between the cameras). A block votes for the sign of its best shift when
// that side's best cost is under 0.7 times the other side's; blocks on periodic texture (good
// matches on both sides) or far away (both sides alike) abstain. Swapped when at least 20 blocks
// voted and the negative votes outnumber the positive ones more than 3 to 1, AsExpected for the
// converse, Unclear otherwise (textureless, unrectified or mismatched views; another size).
ViewOrderCheck check_view_order(const ImageRgb8& left, const ImageRgb8& right, int search);

}  // namespace sv
