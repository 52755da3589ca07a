// The free schedule's launch order (cuda/path_block_order.h) against the reference's paths,
// counted here by brute force: host code only, so it runs without a CUDA device too.
#include "cuda/path_block_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <utility>
#include <vector>

namespace sv {
namespace {

constexpr int kDx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
constexpr int kDy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

// The lengths of direction d's paths in the reference's order (sgm_aggregation.cpp): the pixels
// whose predecessor lies outside the image, those of the first row before those of the first
// column.
std::vector<int> path_lengths(int d, int width, int height) {
  auto inside = [&](int x, int y) { return x >= 0 && x < width && y >= 0 && y < height; };
  std::vector<std::pair<int, int>> row_starts, column_starts;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (inside(x - kDx[d], y - kDy[d])) continue;
      const bool first_row = kDy[d] != 0 && !inside(x, y - kDy[d]);
      (first_row ? row_starts : column_starts).emplace_back(first_row ? x : y, x + width * y);
    }
  }
  std::sort(row_starts.begin(), row_starts.end());
  std::sort(column_starts.begin(), column_starts.end());
  std::vector<int> lengths;
  for (const auto* starts : {&row_starts, &column_starts}) {
    for (const auto& [key, pixel] : *starts) {
      int x = pixel % width, y = pixel / width, n = 0;
      for (; inside(x, y); x += kDx[d], y += kDy[d]) ++n;
      lengths.push_back(n);
    }
  }
  return lengths;
}

struct Shape {
  int width, height;
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.width << "x" << s.height; }

class FreePathBlocks : public ::testing::TestWithParam<Shape> {};

TEST_P(FreePathBlocks, EveryBlockOnceLongestFirst) {
  const Shape s = GetParam();
  for (const int paths : {4, 8}) {
    const std::vector<cuda::FreePathBlock> order = cuda::free_path_blocks(s.width, s.height, paths);
    std::map<std::pair<int, int>, int> seen;
    for (const cuda::FreePathBlock& b : order) ++seen[{b.direction, b.block}];
    size_t expected_blocks = 0;
    std::vector<std::vector<int>> lengths_of(paths);
    for (int d = 0; d < paths; ++d) {
      lengths_of[d] = path_lengths(d, s.width, s.height);
      const std::vector<int>& lengths = lengths_of[d];
      const int blocks = (static_cast<int>(lengths.size()) + cuda::kFreePathsPerBlock - 1) /
                         cuda::kFreePathsPerBlock;
      expected_blocks += blocks;
      for (int b = 0; b < blocks; ++b) {
        ASSERT_EQ(seen[std::make_pair(d, b)], 1)
            << s.width << "x" << s.height << " direction " << d << " block " << b;
      }
    }
    ASSERT_EQ(order.size(), expected_blocks)
        << s.width << "x" << s.height << ", " << paths << " paths";
    for (size_t i = 0; i < order.size(); ++i) {
      const std::vector<int>& lengths = lengths_of[order[i].direction];
      const int first = order[i].block * cuda::kFreePathsPerBlock;
      const int last =
          std::min<int>(first + cuda::kFreePathsPerBlock, static_cast<int>(lengths.size()));
      EXPECT_EQ(order[i].longest,
                *std::max_element(lengths.begin() + first, lengths.begin() + last));
      if (i > 0) {
        EXPECT_GE(order[i - 1].longest, order[i].longest) << "entry " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, FreePathBlocks,
                         ::testing::Values(Shape{1, 1}, Shape{1, 7}, Shape{7, 1}, Shape{5, 3},
                                           Shape{6, 9}, Shape{33, 17}, Shape{641, 479},
                                           Shape{480, 640}, Shape{1920, 1080}));

// Among blocks of equal length the directions that read the same cost rows stay side by side:
// after both horizontal directions, the vertical and the down-right diagonal of the first columns
// alternate (the down-left diagonal's first blocks are short and come later).
TEST(FreePathBlocks, EqualLengthsKeepTheSharingOrder) {
  const std::vector<cuda::FreePathBlock> order = cuda::free_path_blocks(641, 479, 8);
  const int row_blocks = (479 + 3) / 4;
  ASSERT_GT(order.size(), static_cast<size_t>(2 * row_blocks + 4));
  for (int i = 0; i < 2 * row_blocks; ++i) EXPECT_EQ(order[i].direction, i < row_blocks ? 0 : 1);
  const cuda::FreePathBlock* next = &order[2 * row_blocks];
  EXPECT_EQ(std::make_pair(next[0].direction, next[0].block), std::make_pair(2, 0));
  EXPECT_EQ(std::make_pair(next[1].direction, next[1].block), std::make_pair(4, 0));
  EXPECT_EQ(std::make_pair(next[2].direction, next[2].block), std::make_pair(2, 1));
  EXPECT_EQ(std::make_pair(next[3].direction, next[3].block), std::make_pair(4, 1));
  EXPECT_LE(order.back().longest, cuda::kFreePathsPerBlock);  // a corner's diagonals
}

}  // namespace
}  // namespace sv
