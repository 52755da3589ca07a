#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "src/core/block_matching.h"
#include "src/core/cost_volume.h"
#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

ImageU8 random_image(int width, int height, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 255);
  ImageU8 image(width, height);
  for (auto& p : image.pixels()) p = static_cast<uint8_t>(value(rng));
  return image;
}

// left(x, y) = right(x - shift, y) wherever x - shift is inside; random elsewhere.
ImageU8 shifted_copy(const ImageU8& right, int shift, unsigned seed) {
  ImageU8 left = random_image(right.width(), right.height(), seed);
  for (int y = 0; y < right.height(); ++y)
    for (int x = shift; x < right.width(); ++x) left.at(x, y) = right.at(x - shift, y);
  return left;
}

// A per-pixel range that selects the same candidates as SearchRange(base, count), forcing the
// direct-summation path.
SearchRange as_per_pixel(int width, int height, int base, int count) {
  return SearchRange(ImageI16(width, height, static_cast<int16_t>(base)), count);
}

// L(x, y) = 5y + x + 1 (1..25), R(x, y) = 10x.
struct HandPair {
  ImageU8 left{5, 5};
  ImageU8 right{5, 5};
  HandPair() {
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 5; ++x) {
        left.at(x, y) = static_cast<uint8_t>(5 * y + x + 1);
        right.at(x, y) = static_cast<uint8_t>(10 * x);
      }
  }
};

TEST(BlockMatching, SadHandCaseWithClamping) {
  const HandPair p;
  for (const SearchRange& range : {SearchRange(0, 3), as_per_pixel(5, 5, 0, 3)}) {
    const auto sad = sad_cost_volume(p.left, p.right, 3, range);
    // (0,0), d=0: L rows {1,1,2},{1,1,2},{6,6,7} vs R cols {0,0,10}: 10 + 10 + 15.
    EXPECT_EQ(sad.at(0, 0, 0), 35u);
    // (1,1), d=1: L {1,2,3},{6,7,8},{11,12,13} vs R cols clamp(-1..1) = {0,0,10}: 10+15+26.
    EXPECT_EQ(sad.at(1, 1, 1), 51u);
    // (4,4), d=2: L {19,20,20},{24,25,25},{24,25,25} vs R cols {10,20,30}: 19+24+24.
    EXPECT_EQ(sad.at(4, 4, 2), 67u);
    // (1,0), d=2: right centre x = -1 is outside.
    EXPECT_EQ(sad.at(1, 0, 2), kBlockMatchingOutsideCost);
  }
}

TEST(BlockMatching, SsdHandCaseWithClamping) {
  const HandPair p;
  const auto ssd = ssd_cost_volume(p.left, p.right, 3, SearchRange(0, 3));
  // (0,0), d=0: squares {1,1,64} twice and {36,36,9}: 66 + 66 + 81.
  EXPECT_EQ(ssd.at(0, 0, 0), 213u);
  // (4,4), d=2: {81,0,100}, {196,25,25} twice: 181 + 246 + 246.
  EXPECT_EQ(ssd.at(4, 4, 2), 673u);
}

TEST(BlockMatching, ZnccHandCases) {
  ImageU8 left(3, 3), right(3, 3);
  const int b[9] = {1, 2, 3, 4, 5, 6, 7, 9, 8};
  for (int i = 0; i < 9; ++i) {
    left.data()[i] = static_cast<uint8_t>(i + 1);
    right.data()[i] = static_cast<uint8_t>(b[i]);
  }
  // Centre (1,1), d=0: n=9, Sa=Sb=45, Saa=Sbb=285, Sab=284:
  // num = 2556 - 2025 = 531, va = vb = 540, cost = 1 - 531/540 = 1/60.
  const auto costs = zncc_cost_volume(left, right, 3, SearchRange(0, 1));
  EXPECT_NEAR(costs.at(1, 1, 0), 1.0 / 60.0, 1e-7);

  ImageU8 affine(3, 3), inverted(3, 3);
  for (int i = 0; i < 9; ++i) {
    affine.data()[i] = static_cast<uint8_t>(2 * left.data()[i] + 10);
    inverted.data()[i] = static_cast<uint8_t>(255 - left.data()[i]);
  }
  EXPECT_FLOAT_EQ(zncc_cost_volume(left, affine, 3, SearchRange(0, 1)).at(1, 1, 0), 0.0f);
  EXPECT_FLOAT_EQ(zncc_cost_volume(left, inverted, 3, SearchRange(0, 1)).at(1, 1, 0), 2.0f);
  // A flat window on either side correlates with nothing: cost exactly 1.
  EXPECT_EQ(zncc_cost_volume(left, ImageU8(3, 3, 40), 3, SearchRange(0, 1)).at(1, 1, 0), 1.0f);
  EXPECT_EQ(zncc_cost_volume(ImageU8(3, 3, 40), left, 3, SearchRange(0, 1)).at(1, 1, 0), 1.0f);
}

TEST(BlockMatching, ShiftedTextureHasItsMinimumAtTheShift) {
  const int shift = 4, window = 5, r = window / 2;
  const ImageU8 right = random_image(40, 17, 11);
  const ImageU8 left = shifted_copy(right, shift, 12);
  const SearchRange range(-1, 12);
  const int k_true = shift - range.uniform_base();
  const auto sad = sad_cost_volume(left, right, window, range);
  const auto ssd = ssd_cost_volume(left, right, window, range);
  const auto zncc = zncc_cost_volume(left, right, window, range);
  for (int y = 0; y < left.height(); ++y) {
    for (int x = shift + r; x + r < left.width(); ++x) {
      ASSERT_EQ(sad.at(x, y, k_true), 0u);
      ASSERT_EQ(ssd.at(x, y, k_true), 0u);
      ASSERT_NEAR(zncc.at(x, y, k_true), 0.0f, 1e-6f);
      for (int k = 0; k < range.count(); ++k) {
        if (k == k_true) continue;
        ASSERT_GT(sad.at(x, y, k), 0u);
        ASSERT_GT(ssd.at(x, y, k), 0u);
        ASSERT_GT(zncc.at(x, y, k), 0.05f);
      }
    }
  }
}

TEST(BlockMatching, RollingAndDirectSumsAreIdentical) {
  const ImageU8 left = random_image(37, 23, 21);
  const ImageU8 right = random_image(37, 23, 22);
  for (int window : {3, 5, 9, 21}) {
    for (int base : {-3, 0, 30}) {
      const SearchRange uniform(base, 10);
      const SearchRange direct = as_per_pixel(37, 23, base, 10);
      EXPECT_EQ(sad_cost_volume(left, right, window, uniform).costs(),
                sad_cost_volume(left, right, window, direct).costs())
          << "window " << window << " base " << base;
      EXPECT_EQ(ssd_cost_volume(left, right, window, uniform).costs(),
                ssd_cost_volume(left, right, window, direct).costs());
      EXPECT_EQ(zncc_cost_volume(left, right, window, uniform).costs(),
                zncc_cost_volume(left, right, window, direct).costs());
    }
  }
}

TEST(BlockMatching, OutOfImageCandidatesTakeTheMaximum) {
  const ImageU8 image = random_image(9, 4, 31);
  const SearchRange range(-3, 8);  // d = -3..4
  const auto sad = sad_cost_volume(image, image, 3, range);
  const auto ssd = ssd_cost_volume(image, image, 3, range);
  const auto zncc = zncc_cost_volume(image, image, 3, range);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 9; ++x) {
      for (int k = 0; k < 8; ++k) {
        const int xr = x - (k - 3);
        const bool outside = xr < 0 || xr >= 9;
        EXPECT_EQ(sad.at(x, y, k) == kBlockMatchingOutsideCost, outside);
        EXPECT_EQ(ssd.at(x, y, k) == kBlockMatchingOutsideCost, outside);
        EXPECT_EQ(zncc.at(x, y, k) == kZnccOutsideCost, outside);
        if (!outside) {
          EXPECT_LE(zncc.at(x, y, k), 2.0f);
        }
      }
    }
  }
}

TEST(BlockMatching, PerPixelRangeMatchesUniformRange) {
  const ImageU8 right = random_image(37, 23, 41);
  const ImageU8 left = shifted_copy(right, 3, 42);
  const int low = -4, high = 6, count = 5;
  ImageI16 base(37, 23);
  std::mt19937 rng(43);
  std::uniform_int_distribution<int> pick(low, high);
  for (auto& b : base.pixels()) b = static_cast<int16_t>(pick(rng));
  const SearchRange per_pixel(base, count);
  const SearchRange uniform(low, high - low + count);
  const auto sad_p = sad_cost_volume(left, right, 7, per_pixel);
  const auto sad_u = sad_cost_volume(left, right, 7, uniform);
  const auto ssd_p = ssd_cost_volume(left, right, 7, per_pixel);
  const auto ssd_u = ssd_cost_volume(left, right, 7, uniform);
  const auto zncc_p = zncc_cost_volume(left, right, 7, per_pixel);
  const auto zncc_u = zncc_cost_volume(left, right, 7, uniform);
  for (int y = 0; y < 23; ++y) {
    for (int x = 0; x < 37; ++x) {
      for (int k = 0; k < count; ++k) {
        const int ku = base.at(x, y) - low + k;
        ASSERT_EQ(sad_p.at(x, y, k), sad_u.at(x, y, ku));
        ASSERT_EQ(ssd_p.at(x, y, k), ssd_u.at(x, y, ku));
        ASSERT_EQ(zncc_p.at(x, y, k), zncc_u.at(x, y, ku));
      }
    }
  }
}

TEST(BlockMatching, ResultsDoNotDependOnThreadCount) {
  const ImageU8 left = random_image(29, 51, 51);
  const ImageU8 right = random_image(29, 51, 52);
  set_worker_count(1);
  const auto sad_1 = sad_cost_volume(left, right, 5, SearchRange(0, 8));
  const auto zncc_1 = zncc_cost_volume(left, right, 5, SearchRange(0, 8));
  set_worker_count(3);
  const auto sad_3 = sad_cost_volume(left, right, 5, SearchRange(0, 8));
  const auto zncc_3 = zncc_cost_volume(left, right, 5, SearchRange(0, 8));
  set_worker_count(0);
  EXPECT_EQ(sad_1.costs(), sad_3.costs());
  EXPECT_EQ(zncc_1.costs(), zncc_3.costs());
}

TEST(BlockMatching, RejectsBadInputs) {
  const ImageU8 a(8, 6), b(8, 7);
  EXPECT_THROW(sad_cost_volume(a, b, 3, SearchRange(0, 4)), InputError);
  EXPECT_THROW(ssd_cost_volume(a, b, 3, SearchRange(0, 4)), InputError);
  EXPECT_THROW(zncc_cost_volume(a, b, 3, SearchRange(0, 4)), InputError);
  for (int window : {1, 4, 23}) EXPECT_THROW(sad_cost_volume(a, a, window, SearchRange(0, 4)), InputError);
  EXPECT_THROW(sad_cost_volume(a, a, 3, SearchRange(ImageI16(3, 3), 4)), InputError);
}

}  // namespace
}  // namespace sv
