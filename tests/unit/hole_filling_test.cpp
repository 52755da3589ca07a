#include <gtest/gtest.h>

#include "src/core/disparity.h"
#include "src/core/hole_filling.h"

namespace sv {
namespace {

constexpr int16_t X = kInvalidFixedDisparity;

ImageI16 row_image(std::initializer_list<int16_t> values) {
  ImageI16 image(static_cast<int>(values.size()), 1);
  std::copy(values.begin(), values.end(), image.data());
  return image;
}

TEST(HoleFilling, TakesTheFartherOfBothNeighbours) {
  ImageI16 d = row_image({X, 80, X, X, 32, X, 48, X});
  fill_holes(d);
  EXPECT_EQ(d, row_image({80, 80, 32, 32, 32, 32, 48, 48}));
}

TEST(HoleFilling, EmptyRowsStayInvalidAndRowsAreIndependent) {
  ImageI16 d(3, 2, X);
  d.at(1, 1) = 16;
  fill_holes(d);
  EXPECT_EQ(d.at(0, 0), X);
  EXPECT_EQ(d.at(2, 0), X);
  EXPECT_EQ(d.at(0, 1), 16);
  EXPECT_EQ(d.at(2, 1), 16);
}

TEST(HoleFilling, UsesTheInputNotAlreadyFilledValues) {
  // The middle holes look at 64 and 16, not at a value filled in just before them.
  ImageI16 d = row_image({64, X, X, 16});
  fill_holes(d);
  EXPECT_EQ(d, row_image({64, 16, 16, 16}));
}

}  // namespace
}  // namespace sv
