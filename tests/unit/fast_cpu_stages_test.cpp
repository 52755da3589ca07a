// The fast CPU engine's SIMD stages (src/cpu_fast) against their CPU references (src/core), bit
// for bit on whole outputs, on every Highway target this CPU runs (the baseline included): the
// census for every window and input depth with missing pixels, the costs for uniform and
// per-pixel ranges, the SGM for every disparity count, path count and P2 mode the GPU tests use,
// and the WTA / backward matching.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "src/core/block_matching.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/median_filter.h"
#include "src/core/parallel_for.h"
#include "src/core/sgm_aggregation.h"
#include "src/core/winner_takes_all.h"
#include "src/cpu_fast/fast_block_matching.h"
#include "src/cpu_fast/fast_census_cost.h"
#include "src/cpu_fast/fast_cpu_engine.h"
#include "src/cpu_fast/fast_median.h"
#include "src/cpu_fast/fast_sgm.h"
#include "src/cpu_fast/fast_wta.h"
#include "src/cpu_fast/packed_census.h"
#include "tests/support/test_images.h"
#include "tests/unit/simd_targets.h"

namespace sv {
namespace {

struct Size {
  int width;
  int height;
};

constexpr Size kSmall{33, 17};
constexpr Size kOdd{97, 31};

constexpr CensusWindow kWindows[] = {CensusWindow::W5x5, CensusWindow::W7x7, CensusWindow::W9x7,
                                     CensusWindow::W9x9, CensusWindow::W11x11};

std::string size_name(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// -1 when the packed codes equal the reference's, else the first differing pixel.
long census_mismatch(const PackedCensus& fast, const CensusImage& reference) {
  if (fast.width != reference.width() || fast.height != reference.height()) return 0;
  for (int y = 0; y < fast.height; ++y) {
    for (int x = 0; x < fast.width; ++x) {
      const CensusCode& code = reference.at(x, y);
      for (int w = 0; w < 4; ++w) {
        const int shift = 32 * (w % 2);
        const uint32_t bits = static_cast<uint32_t>(code.bits[w / 2] >> shift);
        const uint32_t valid = static_cast<uint32_t>(code.valid[w / 2] >> shift);
        const bool stored = w < fast.words;
        if ((stored ? fast.bits_row(w, y)[x] : 0u) != bits ||
            (stored ? fast.valid_row(w, y)[x] : 0u) != valid) {
          return static_cast<long>(y) * fast.width + x;
        }
      }
    }
  }
  return -1;
}

// -1 when every pixel's first count() entries equal the reference volume's, else the first
// differing entry.
template <typename Fast, typename Reference>
long volume_mismatch(const PaddedVolume<Fast>& fast, const CostVolume<Reference>& reference) {
  if (fast.width() != reference.width() || fast.height() != reference.height() ||
      fast.count() != reference.count()) {
    return 0;
  }
  for (int y = 0; y < fast.height(); ++y) {
    for (int x = 0; x < fast.width(); ++x) {
      for (int k = 0; k < fast.count(); ++k) {
        if (static_cast<int>(fast.pixel(x, y)[k]) != static_cast<int>(reference.at(x, y, k))) {
          return (static_cast<long>(y) * fast.width() + x) * fast.count() + k;
        }
      }
    }
  }
  return -1;
}

ImageU8 texture_with_missing(Size size, uint32_t seed, uint8_t missing) {
  ImageU8 image = test::random_texture(size.width, size.height, seed);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      if (test::hash_value(x, y, seed + 99) < 20) image.at(x, y) = missing;
      if (x >= 3 && x < 9 && y >= 2 && y < 6) image.at(x, y) = missing;
    }
  }
  return image;
}

// 16-bit values that differ only in the low byte, runs of equal values, the missing value.
ImageU16 texture16(Size size, uint32_t seed, int missing) {
  ImageU16 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const int a = test::hash_value(x, y, seed + 1);
      const int b = test::hash_value(x, y, seed + 2);
      int v = (a << 8) | b;
      if (test::hash_value(x, y, seed) % 3 == 1) v = 768 + b % 4;
      if (missing >= 0 && test::hash_value(x, y, seed + 3) < 20) v = missing;
      image.at(x, y) = static_cast<uint16_t>(v);
    }
  }
  return image;
}

// Floats with both zeros, subnormals, infinities, NaNs, values a few ulps apart and `designated`.
ImageF32 texture_float(Size size, uint32_t seed, float designated) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float special[] = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -1e-40f,
                           kInf, -kInf, std::numeric_limits<float>::quiet_NaN(), 1.0f,
                           std::nextafter(1.0f, 2.0f), std::nextafter(1.0f, 0.0f)};
  ImageF32 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const int kind = test::hash_value(x, y, seed);
      const int a = test::hash_value(x, y, seed + 1);
      const int b = test::hash_value(x, y, seed + 2);
      float v = (((a << 8) | b) - 32768) / 64.0f;
      if (kind < 40) v = special[a % 10];
      if (kind >= 200) v = 1.0f + (a % 5 - 2) * 1e-7f;
      if (test::hash_value(x, y, seed + 3) < 20) v = designated;
      image.at(x, y) = v;
    }
  }
  return image;
}

// Per-pixel bases with small shifts of both signs and rare large jumps (as tests/gpu).
ImageI16 varied_bases(Size size, uint32_t seed) {
  ImageI16 base(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      int b = (x / 7 + y / 5) % 9 - 4;
      const uint8_t h = test::hash_value(x, y, seed);
      if (h < 6) b += 90;
      if (h >= 250) b -= 60;
      base.at(x, y) = static_cast<int16_t>(b);
    }
  }
  return base;
}

TEST(FastCensus, EqualsTheReferenceForEveryWindowDepthAndTarget) {
  const auto targets = test::for_each_simd_target([](const std::string& target) {
    for (const Size size : {kSmall, kOdd}) {
      for (const CensusWindow window : kWindows) {
        const std::string what = target + " " + size_name(size) + " " + census_window_name(window);
        const ImageU8 plain = test::random_texture(size.width, size.height, 7);
        EXPECT_EQ(census_mismatch(packed_census(plain, window), census_transform(plain, window)), -1)
            << what << " 8-bit";
        const ImageU8 holed = texture_with_missing(size, 11, 0);
        EXPECT_EQ(census_mismatch(packed_census(holed, window, 0), census_transform(holed, window, 0)), -1)
            << what << " 8-bit missing 0";
        for (const int missing : {-1, 0, 1000, 65535}) {
          const ImageU16 image = texture16(size, 13, missing);
          EXPECT_EQ(census_mismatch(packed_census(image, window, missing),
                                    census_transform(image, window, missing)), -1)
              << what << " 16-bit missing " << missing;
        }
        for (const float designated : {std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f}) {
          const ImageF32 image = texture_float(size, 19, designated);
          EXPECT_EQ(census_mismatch(packed_census(image, window, designated),
                                    census_transform(image, window, designated)), -1)
              << what << " float missing " << designated;
        }
      }
    }
  });
  EXPECT_GE(targets.size(), 1u);
}

TEST(FastCensus, RejectsAnInvalidMissingValue) {
  const ImageU8 image(8, 8, 1);
  EXPECT_THROW(packed_census(image, CensusWindow::W5x5, 256), InputError);
  EXPECT_THROW(packed_census(ImageU16(8, 8, 1), CensusWindow::W5x5, 65536), InputError);
}

void check_costs(Size size, const SearchRange& range, CensusWindow window, const std::string& what) {
  const test::ShiftedPair pair = test::shifted_pair(size.width, size.height, 5, 3, 1);
  const PaddedVolume<uint8_t> fast = fast_census_cost_volume(
      packed_census(pair.left, window), packed_census(pair.right, window), range);
  const CostVolume<uint8_t> reference = census_cost_volume(
      census_transform(pair.left, window), census_transform(pair.right, window), range);
  EXPECT_EQ(volume_mismatch(fast, reference), -1) << what;
}

TEST(FastCensusCost, EqualsTheReferenceForUniformAndPerPixelRanges) {
  test::for_each_simd_target([](const std::string& target) {
    for (const Size size : {kSmall, kOdd}) {
      const std::string at = " " + target + " " + size_name(size);
      for (const CensusWindow window : kWindows) {
        check_costs(size, SearchRange(-5, 37), window, std::string("min -5 count 37 ") +
                                                          census_window_name(window) + at);
      }
      check_costs(size, SearchRange(0, 64), CensusWindow::W9x7, "min 0 count 64" + at);
      check_costs(size, SearchRange(3, 1), CensusWindow::W9x7, "min 3 count 1" + at);
      check_costs(size, SearchRange(-40, 128), CensusWindow::W9x7, "min -40 count 128" + at);
      check_costs(size, SearchRange(varied_bases(size, 3), 37), CensusWindow::W11x11, "per-pixel 37" + at);
      check_costs(size, SearchRange(varied_bases(size, 4), 5), CensusWindow::W9x7, "per-pixel 5" + at);
    }
  });
}

// A few missing pixels in both views: wholly valid codes (the kernel's shortcut without
// the division) next to partly valid ones in the same vector of candidates, every window.
TEST(FastCensusCost, EqualsTheReferenceWhereSomeCodesArePartlyValid) {
  test::for_each_simd_target([](const std::string& target) {
    const Size size{150, 23};
    ImageU8 left = test::random_texture(size.width, size.height, 41);
    ImageU8 right = test::random_texture(size.width, size.height, 43);
    for (int y = 0; y < size.height; ++y) {
      for (int x = 0; x < size.width; ++x) {
        left.at(x, y) = std::max<uint8_t>(left.at(x, y), 1);
        right.at(x, y) = std::max<uint8_t>(right.at(x, y), 1);
      }
    }
    left.at(40, 10) = 0;
    left.at(120, 3) = 0;
    right.at(70, 12) = 0;
    right.at(20, 20) = 0;
    for (const CensusWindow window : kWindows) {
      for (const SearchRange& range : {SearchRange(0, 64), SearchRange(-7, 100)}) {
        const PaddedVolume<uint8_t> fast = fast_census_cost_volume(
            packed_census(left, window, 0), packed_census(right, window, 0), range);
        const CostVolume<uint8_t> reference = census_cost_volume(
            census_transform(left, window, 0), census_transform(right, window, 0), range);
        EXPECT_EQ(volume_mismatch(fast, reference), -1)
            << target << " " << census_window_name(window) << " count " << range.count();
      }
    }
  });
}

TEST(FastCensusCost, RejectsCodesOfDifferentSizes) {
  const PackedCensus a = packed_census(ImageU8(8, 8, 1), CensusWindow::W5x5);
  const PackedCensus b = packed_census(ImageU8(9, 8, 1), CensusWindow::W5x5);
  EXPECT_THROW(fast_census_cost_volume(a, b, SearchRange(0, 4)), InputError);
}

struct SgmCase {
  Size size;
  int count;
  int paths;
  bool adaptive;
  bool per_pixel;
  bool census_costs;  // realistic census costs (0..64); otherwise random in 0..random_max
  int p2 = 0;          // 0: 60 for census costs, 200 for random ones
  int random_max = 255;

  int penalty2() const { return p2 != 0 ? p2 : census_costs ? 60 : 200; }
  int max_cost() const { return census_costs ? kMaxMatchCost : random_max; }
};

std::string describe(const SgmCase& c) {
  return size_name(c.size) + " D" + std::to_string(c.count) + " paths " + std::to_string(c.paths) +
         (c.adaptive ? " adaptive" : " constant") + (c.per_pixel ? " per-pixel" : " uniform") +
         (c.census_costs ? " census" : " random 0.." + std::to_string(c.random_max)) + " P2 " +
         std::to_string(c.penalty2());
}

// The same costs in both layouts: the reference volume and the padded one.
struct Costs {
  CostVolume<uint8_t> reference;
  PaddedVolume<uint8_t> fast;
};

Costs input_costs(const SgmCase& c, const ImageU8& left, const ImageU8& right, const SearchRange& range) {
  CostVolume<uint8_t> reference(c.size.width, c.size.height, range);
  if (c.census_costs) {
    reference = census_cost_volume(census_transform(left, CensusWindow::W7x7),
                                   census_transform(right, CensusWindow::W7x7), range);
  } else {
    std::vector<uint8_t>& v = reference.costs();
    for (size_t i = 0; i < v.size(); ++i) {
      const int h = test::hash_value(static_cast<uint32_t>(i % 65521), static_cast<uint32_t>(i / 65521), 5);
      v[i] = static_cast<uint8_t>(h % (c.random_max + 1));
    }
  }
  PaddedVolume<uint8_t> fast(c.size.width, c.size.height, range);
  for (int y = 0; y < c.size.height; ++y) {
    for (int x = 0; x < c.size.width; ++x) {
      // Junk in the padding lanes, which must not leak into any result.
      for (int k = 0; k < fast.stride(); ++k) {
        fast.pixel(x, y)[k] = k < c.count ? reference.at(x, y, k) : static_cast<uint8_t>(k * 37);
      }
    }
  }
  return {std::move(reference), std::move(fast)};
}

void check_sgm(const SgmCase& c) {
  const std::string what = describe(c);
  const test::ShiftedPair pair = test::shifted_pair(c.size.width, c.size.height, 6, 31, 1);
  const SearchRange range = c.per_pixel ? SearchRange(varied_bases(c.size, 8), c.count)
                                        : SearchRange(-3, c.count);
  const Costs costs = input_costs(c, pair.left, pair.right, range);
  SgmSettings settings;
  settings.paths = c.paths;
  settings.p1 = 10;
  settings.p2 = c.penalty2();
  settings.adaptive_p2 = c.adaptive;
  settings.p2_edge_scale = 12;
  const CostVolume<uint16_t> reference = sgm_aggregate(costs.reference, pair.left, settings);
  const PaddedVolume<int16_t> fast =
      fast_sgm_aggregate(costs.fast, range, pair.left, settings, c.max_cost());
  ASSERT_EQ(volume_mismatch(fast, reference), -1) << what;
  // Without the bound, 16-bit path costs: the same sums.
  if (sgm_byte_path_costs(range, settings, c.max_cost())) {
    ASSERT_EQ(volume_mismatch(fast_sgm_aggregate(costs.fast, range, pair.left, settings), reference), -1)
        << what << " (16-bit path costs)";
  }

  for (const int uniqueness : {0, 10, 60}) {
    WtaSettings wta;
    wta.uniqueness = uniqueness;
    wta.subpixel = uniqueness != 60;
    ImageI16 right_view;
    const ImageI16 disparity = fast_winner_takes_all(fast, range, wta, &right_view);
    const ImageI16 expected = winner_takes_all(reference, wta);
    const ImageI16 expected_right = right_view_disparity(reference);
    EXPECT_TRUE(disparity == expected) << what << " WTA u " << uniqueness;
    EXPECT_TRUE(right_view == expected_right) << what << " right view";
    // Aggregation and selection fused, on one thread (the backward sweep selects every row) and
    // on two (the sweeps meet, each selects the rows it reaches second); one workspace reused.
    SgmWorkspace work;
    for (const int threads : {1, 2}) {
      set_worker_count(threads);
      ImageI16 fused_right;
      const ImageI16 fused = fast_sgm_select(costs.fast, range, pair.left, settings, wta,
                                             &fused_right, work, c.max_cost());
      EXPECT_TRUE(fused == expected) << what << " fused, u " << uniqueness << ", threads " << threads;
      EXPECT_TRUE(fused_right == expected_right) << what << " fused right view, threads " << threads;
    }
    set_worker_count(0);
    EXPECT_TRUE(fast_sgm_select(costs.fast, range, pair.left, settings, wta, nullptr, work,
                                c.max_cost()) == expected)
        << what << " fused without the right view";
  }
}

TEST(FastSgm, EqualsTheReferenceOnSmallImagesForEveryVariantAndTarget) {
  test::for_each_simd_target([](const std::string& target) {
    SCOPED_TRACE(target);
    for (const int count : {1, 5, 32, 37, 64, 100, 128, 200, 256}) {
      for (const int paths : {4, 8}) {
        for (const bool adaptive : {false, true}) {
          for (const bool per_pixel : {false, true}) {
            check_sgm({kSmall, count, paths, adaptive, per_pixel, false});
            check_sgm({kSmall, count, paths, adaptive, per_pixel, true});
          }
        }
      }
    }
  });
}

// One row, one column, one pixel: every path starts and ends at once; the fused selection's
// sweeps meet in the only row or never share one.
TEST(FastSgm, EqualsTheReferenceOnOneRowOrColumn) {
  for (const Size size : {Size{1, 17}, Size{23, 1}, Size{1, 1}}) {
    for (const int paths : {4, 8}) {
      check_sgm({size, 37, paths, false, false, true});
      check_sgm({size, 64, paths, true, true, false});
    }
  }
}

// Wide enough that two threads split the rows of the vertical sweeps.
TEST(FastSgm, EqualsTheReferenceOnMediumImages) {
  check_sgm({Size{641, 79}, 128, 8, true, true, true});
  check_sgm({Size{641, 79}, 64, 4, false, false, false});
  check_sgm({Size{333, 61}, 37, 8, true, false, true});
  check_sgm({Size{641, 79}, 128, 8, false, false, true});
  check_sgm({Size{641, 79}, 128, 4, true, false, true});
}

TEST(FastSgm, PathCostsFitBytesOnlyWhereEveryLFits) {
  SgmSettings settings;
  settings.p2 = 255 - kMaxMatchCost;
  EXPECT_TRUE(sgm_byte_path_costs(SearchRange(-3, 128), settings, kMaxMatchCost));
  EXPECT_FALSE(sgm_byte_path_costs(SearchRange(ImageI16(4, 4), 128), settings, kMaxMatchCost));
  settings.p2 += 1;
  EXPECT_FALSE(sgm_byte_path_costs(SearchRange(-3, 128), settings, kMaxMatchCost));
  settings.p2 = 0;
  EXPECT_TRUE(sgm_byte_path_costs(SearchRange(0, 8), settings, 255));
}

// Byte path costs at their limit, max_cost + P2 = 255 (saturating P1 steps, minLq + P2 = 255),
// and just past it (16-bit), with random costs that reach the bound, on every target.
TEST(FastSgm, EqualsTheReferenceAtTheBytePathCostLimit) {
  test::for_each_simd_target([](const std::string& target) {
    SCOPED_TRACE(target);
    for (const int count : {1, 32, 64, 100, 128}) {
      for (const int paths : {4, 8}) {
        for (const bool adaptive : {false, true}) {
          SgmCase limit{kSmall, count, paths, adaptive, false, false, 200, 55};
          check_sgm(limit);
          limit.random_max = 56;
          check_sgm(limit);
          limit.census_costs = true;
          limit.p2 = 255 - kMaxMatchCost;
          check_sgm(limit);
          limit.p2 += 1;
          check_sgm(limit);
        }
      }
    }
  });
}

TEST(FastSgm, RejectsWhatTheReferenceRejects) {
  const SearchRange range(0, 8);
  const PaddedVolume<uint8_t> costs(4, 4, range);
  SgmSettings settings;
  settings.paths = 6;
  EXPECT_THROW(fast_sgm_aggregate(costs, range, ImageU8(4, 4), settings), InputError);
  settings.paths = 8;
  settings.p2 = 256;
  EXPECT_THROW(fast_sgm_aggregate(costs, range, ImageU8(4, 4), settings), InputError);
  settings.p2 = 40;
  settings.adaptive_p2 = true;
  EXPECT_THROW(fast_sgm_aggregate(costs, range, ImageU8(3, 4), settings), InputError);
  const PaddedVolume<int16_t> sums(4, 4, range);
  WtaSettings wta;
  wta.uniqueness = 100;
  EXPECT_THROW(fast_winner_takes_all(sums, range, wta, nullptr), InputError);
  SgmWorkspace work;
  EXPECT_THROW(fast_sgm_select(costs, range, ImageU8(4, 4), settings, wta, nullptr, work), InputError);
  wta.uniqueness = 10;
  settings.paths = 5;
  EXPECT_THROW(fast_sgm_select(costs, range, ImageU8(4, 4), settings, wta, nullptr, work), InputError);
}

// -1 when the two volumes hold the same candidates, else the first differing entry (0 for a
// different shape).
long sad_mismatch(const CostVolume<uint32_t>& fast, const CostVolume<uint32_t>& reference) {
  if (fast.width() != reference.width() || fast.height() != reference.height() ||
      fast.count() != reference.count() || fast.costs().size() != reference.costs().size()) {
    return 0;
  }
  const auto [a, b] = std::mismatch(fast.costs().begin(), fast.costs().end(), reference.costs().begin());
  return a == fast.costs().end() ? -1 : static_cast<long>(a - fast.costs().begin());
}

void check_sad(Size size, int window, const SearchRange& range, const std::string& what) {
  const test::ShiftedPair pair = test::shifted_pair(size.width, size.height, 5, 17, 1);
  const CostVolume<uint32_t> reference = sad_cost_volume(pair.left, pair.right, window, range);
  EXPECT_EQ(sad_mismatch(fast_sad_cost_volume(pair.left, pair.right, window, range), reference), -1)
      << size_name(size) << " window " << window << " " << what;
}

// Every window, ranges that start left of 0, at 0 and beyond the image, counts that fill no,
// one or several vectors, images narrower and lower than the window, on every target.
TEST(FastSad, EqualsTheReferenceForEveryWindowRangeAndTarget) {
  test::for_each_simd_target([](const std::string& target) {
    SCOPED_TRACE(target);
    for (int window = 3; window <= 21; window += 2) {
      for (const Size size : {kSmall, kOdd, Size{5, 3}}) {
        for (const int count : {1, 7, 16, 33, 64, 100}) {
          for (const int base : {-5, 0, 3, size.width + 2}) {
            check_sad(size, window, SearchRange(base, count),
                      "base " + std::to_string(base) + " count " + std::to_string(count));
          }
        }
      }
    }
  });
}

TEST(FastSad, EqualsTheReferenceOnLargerImagesAndPerPixelRanges) {
  check_sad(Size{641, 79}, 9, SearchRange(0, 128), "D128");
  check_sad(Size{333, 61}, 5, SearchRange(-3, 256), "D256");
  check_sad(Size{1920, 33}, 21, SearchRange(0, 64), "full HD row");
  check_sad(kOdd, 7, SearchRange(varied_bases(kOdd, 4), 9), "per-pixel range");
  check_sad(kSmall, 3, SearchRange(0, 0), "no candidates");
}

TEST(FastSad, RejectsWhatTheReferenceRejects) {
  const ImageU8 image(8, 8, 1);
  EXPECT_THROW(fast_sad_cost_volume(image, image, 4, SearchRange(0, 4)), InputError);
  EXPECT_THROW(fast_sad_cost_volume(image, image, 23, SearchRange(0, 4)), InputError);
  EXPECT_THROW(fast_sad_cost_volume(image, ImageU8(9, 8), 5, SearchRange(0, 4)), InputError);
  EXPECT_THROW(fast_sad_cost_volume(image, image, 5, SearchRange(0, -1)), InputError);
}

// Disparities with ties, negative values, isolated valid pixels and invalid runs.
ImageI16 disparities_with_holes(Size size, uint32_t seed) {
  ImageI16 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const int h = test::hash_value(x, y, seed);
      int16_t v = static_cast<int16_t>((test::hash_value(x, y, seed + 1) % 24 - 4) * 8);
      if (h < 70 || (x > 10 && x < 14)) v = kInvalidFixedDisparity;
      image.at(x, y) = v;
    }
  }
  return image;
}

TEST(FastMedian, EqualsTheReferenceForEverySizeAndTarget) {
  test::for_each_simd_target([](const std::string& target) {
    for (const Size size : {kSmall, kOdd, Size{1, 1}, Size{2, 7}, Size{70, 3}}) {
      const ImageI16 image = disparities_with_holes(size, 41);
      for (const int window : {0, 1, 3, 5}) {
        EXPECT_TRUE(fast_median_filter(image, window) == median_filter(image, window))
            << target << " " << size_name(size) << " size " << window;
      }
    }
  });
  EXPECT_THROW(fast_median_filter(ImageI16(4, 4), 4), InputError);
}

TEST(FastCpuTarget, NamesTheDispatchedTarget) {
  const auto targets = test::for_each_simd_target([](const std::string& target) {
    EXPECT_EQ(fast_cpu_target_name(), target);
  });
  ASSERT_FALSE(targets.empty());
  std::cout << "SIMD targets checked: ";
  for (const auto& name : targets) std::cout << name << " ";
  std::cout << "(best: " << fast_cpu_target_name() << ")\n";
}

}  // namespace
}  // namespace sv
