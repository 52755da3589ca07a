// The padded census cost volume of the fast SGM (census_cost_volume_strided) against the CPU
// reference census_cost_volume, bit for bit, with kMaxMatchCost in every padding cell: every
// census window, awkward sizes, counts that are and are not multiples of 4 and 32, strides with
// 1..8 chunks of 32, negative and positive minimum disparities (left and right image borders),
// ranges whose tiles lie wholly outside the right image, missing pixels (incomplete codes in the
// middle of tiles), and hand-made codes that reach every Hamming distance 0..window bits of
// every window through the complete-code fast path. Every device buffer is guarded.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda/stages.h"
#include "src/core/census_cost.h"
#include "src/core/census_transform.h"
#include "src/core/cost_volume.h"
#include "src/core/error.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/test_images.h"

namespace sv {
namespace {

using test::GuardedDeviceArray;

int window_bits(CensusWindow window) {
  return census_window_width(window) * census_window_height(window) - 1;
}

// Runs the strided kernel on `left` / `right` codes and compares every cell with the reference
// volume; returns the number of differing cells (and reports the first one).
int strided_mismatches(const CensusImage& left, const CensusImage& right, CensusWindow window,
                       int base, int count, int stride, const std::string& what) {
  const int w = left.width(), h = left.height();
  const size_t pixels = static_cast<size_t>(w) * h;
  GuardedDeviceArray<CensusCode> d_left(pixels, left.data()), d_right(pixels, right.data());
  GuardedDeviceArray<uint8_t> volume(pixels * stride);
  cuda::census_cost_volume_strided(d_left.data(), d_right.data(), w, h, base, count, stride,
                                   window_bits(window), volume.data(), nullptr);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(volume.guards_intact() && d_left.guards_intact() && d_right.guards_intact()) << what;

  const CostVolume<uint8_t> reference = census_cost_volume(left, right, SearchRange(base, count));
  const std::vector<uint8_t> actual = volume.download();
  int mismatches = 0;
  for (size_t p = 0; p < pixels; ++p) {
    for (int k = 0; k < stride; ++k) {
      const int want = k < count ? reference.costs()[p * count + k] : kMaxMatchCost;
      const int got = actual[p * stride + k];
      if (got != want && mismatches++ == 0) {
        ADD_FAILURE() << what << ": first difference at x " << p % w << " y " << p / w
                      << " candidate " << k << ": " << got << " instead of " << want;
      }
    }
  }
  return mismatches;
}

struct StridedCase {
  int width, height;
  int base, count;
  int stride;  // a multiple of 32 >= count
  CensusWindow window;
  bool missing;  // some pixels 0 with missing value 0: incomplete codes inside the image
};

std::ostream& operator<<(std::ostream& os, const StridedCase& c) {
  return os << c.width << "x" << c.height << " d[" << c.base << ", +" << c.count << ") stride "
            << c.stride << " window " << census_window_name(c.window)
            << (c.missing ? " missing pixels" : "");
}

// A textured pair whose true disparity (7) lies in most ranges, so small Hamming distances occur
// beside random ones; with `missing`, about 1 pixel in 128 of each view is 0 (no data) and every
// other pixel is at least 1.
void make_pair(const StridedCase& c, ImageU8& left, ImageU8& right) {
  const test::ShiftedPair pair = test::shifted_pair(c.width, c.height, 7, 11);
  left = pair.left;
  right = pair.right;
  if (!c.missing) return;
  for (int y = 0; y < c.height; ++y) {
    for (int x = 0; x < c.width; ++x) {
      left.at(x, y) = test::hash_value(x, y, 3) < 2 ? 0 : std::max<uint8_t>(left.at(x, y), 1);
      right.at(x, y) = test::hash_value(x, y, 4) < 2 ? 0 : std::max<uint8_t>(right.at(x, y), 1);
    }
  }
}

class CensusCostStrided : public ::testing::TestWithParam<StridedCase> {};

TEST_P(CensusCostStrided, EqualsTheReferenceVolume) {
  SV_REQUIRE_CUDA_DEVICE();
  const StridedCase c = GetParam();
  ImageU8 left, right;
  make_pair(c, left, right);
  const int missing = c.missing ? 0 : -1;
  const size_t pixels = static_cast<size_t>(c.width) * c.height;

  // The codes come from the GPU census transform (the pipeline's path), checked against the CPU's.
  const CensusImage census_l = census_transform(left, c.window, missing);
  const CensusImage census_r = census_transform(right, c.window, missing);
  GuardedDeviceArray<uint8_t> d_left(pixels, left.data()), d_right(pixels, right.data());
  GuardedDeviceArray<CensusCode> codes_l(pixels), codes_r(pixels);
  cuda::census_transform(d_left.data(), c.width, c.height, c.window, missing, codes_l.data(), nullptr);
  cuda::census_transform(d_right.data(), c.width, c.height, c.window, missing, codes_r.data(), nullptr);
  SV_CUDA_CHECK(cudaDeviceSynchronize());
  ASSERT_TRUE(codes_l.download() == census_l.pixels() && codes_r.download() == census_r.pixels()) << c;
  if (c.missing) {
    const int bits = window_bits(c.window);
    const uint64_t complete = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const long incomplete = std::count_if(census_r.pixels().begin(), census_r.pixels().end(),
                                          [&](const CensusCode& code) { return code.valid[0] != complete; });
    ASSERT_GT(incomplete, static_cast<long>(pixels / 10)) << c << ": the missing pixels should break many codes";
  }

  std::ostringstream what;
  what << c;
  EXPECT_EQ(strided_mismatches(census_l, census_r, c.window, c.base, c.count, c.stride, what.str()), 0) << c;
}

constexpr CensusWindow k55 = CensusWindow::W5x5;
constexpr CensusWindow k77 = CensusWindow::W7x7;
constexpr CensusWindow k97 = CensusWindow::W9x7;
constexpr CensusWindow k99 = CensusWindow::W9x9;
constexpr CensusWindow k1111 = CensusWindow::W11x11;

INSTANTIATE_TEST_SUITE_P(
    Cases, CensusCostStrided,
    ::testing::Values(
        // Tiny: every tile touches a border; counts below, at and above 32.
        StridedCase{33, 17, 0, 16, 32, k55, false}, StridedCase{33, 17, -5, 37, 64, k77, false},
        StridedCase{33, 17, 2, 16, 32, k99, false}, StridedCase{33, 17, -3, 21, 32, k1111, false},
        StridedCase{33, 17, 0, 37, 96, k97, false},  // 3 chunks, the last two padding only
        StridedCase{33, 17, 1, 1, 32, k97, false},   // one candidate
        StridedCase{67, 35, -20, 64, 64, k97, false},  // negative base: the right border
        StridedCase{67, 35, 3, 100, 128, k1111, false}, StridedCase{67, 35, 0, 128, 160, k55, false},
        StridedCase{67, 35, 0, 200, 256, k99, true},
        // Mid-size: interior tiles take the fast path.
        StridedCase{641, 479, 0, 64, 64, k97, false}, StridedCase{641, 479, 0, 128, 128, k97, false},
        StridedCase{641, 479, -7, 128, 128, k99, false}, StridedCase{641, 479, 1, 200, 256, k77, false},
        StridedCase{641, 479, 0, 256, 256, k97, false}, StridedCase{641, 479, -40, 256, 256, k1111, false},
        StridedCase{641, 479, 5, 100, 128, k55, false}, StridedCase{641, 479, 3, 37, 224, k97, false},
        StridedCase{641, 479, -16, 16, 32, k77, false},
        StridedCase{641, 479, 13, 99, 128, k97, false},  // the last real word holds 3 candidates
        StridedCase{67, 35, 0, 255, 256, k97, false},
        // Missing pixels: incomplete codes in the middle of tiles.
        StridedCase{641, 479, 0, 128, 128, k97, true}, StridedCase{641, 479, -3, 64, 64, k99, true},
        StridedCase{641, 479, 2, 37, 64, k55, true},
        // Whole tiles with no right pixel inside the image (and, at -700, no tile with one).
        StridedCase{641, 479, 600, 64, 64, k97, false}, StridedCase{641, 479, -700, 64, 64, k97, false},
        StridedCase{641, 479, 480, 256, 256, k1111, false},
        // Wide frames (128-pixel tiles from 1024 columns, 256 from 2048): a last tile of 7 or 5
        // pixels, every window, both borders, missing pixels, counts that do not fill a chunk, no
        // right pixel inside.
        StridedCase{1031, 41, 0, 128, 128, k97, false}, StridedCase{1031, 41, -9, 256, 256, k1111, false},
        StridedCase{1031, 41, 5, 37, 64, k55, false}, StridedCase{1031, 41, 130, 99, 128, k77, false},
        StridedCase{1031, 41, -3, 200, 256, k99, true}, StridedCase{1031, 41, 0, 128, 128, k97, true},
        StridedCase{1031, 41, 1000, 64, 64, k97, false},
        StridedCase{2053, 23, 0, 128, 128, k97, false}, StridedCase{2053, 23, -2, 256, 256, k99, true},
        StridedCase{2053, 23, 3, 64, 64, k55, false},
        // The full-HD case of the fast SGM.
        StridedCase{1920, 1080, 0, 128, 128, k97, false}));

// Complete codes made by hand. ramp: pixel (x, y) has the first (x + y) % (bits + 1) window bits
// set; otherwise all bits or none, at random.
CensusImage complete_codes(int width, int height, int bits, bool ramp, uint32_t seed) {
  CensusImage codes(width, height);
  const auto mask = [](int n) {
    CensusCode c;
    for (int i = 0; i < n; ++i) c.bits[i / 64] |= 1ull << (i % 64);
    return c;
  };
  const CensusCode full = mask(bits);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      CensusCode c;
      if (ramp) {
        c.bits[0] = mask((x + y) % (bits + 1)).bits[0];
        c.bits[1] = mask((x + y) % (bits + 1)).bits[1];
      } else if (test::hash_value(x, y, seed) < 128) {
        c.bits[0] = full.bits[0];
        c.bits[1] = full.bits[1];
      }
      c.valid[0] = full.bits[0];
      c.valid[1] = full.bits[1];
      codes.at(x, y) = c;
    }
  }
  return codes;
}

// Gives about `in_256` codes in 256 a random valid mask (bits only where valid).
void scatter_incomplete(CensusImage& codes, uint32_t seed, int in_256) {
  for (int y = 0; y < codes.height(); ++y) {
    for (int x = 0; x < codes.width(); ++x) {
      if (test::hash_value(x, y, seed) >= in_256) continue;
      CensusCode& c = codes.at(x, y);
      for (int w = 0; w < 2; ++w) {
        uint64_t random_mask = 0;
        for (int b = 0; b < 8; ++b) random_mask = random_mask << 8 | test::hash_value(x * 8 + b, y + 97 * w, seed + 1);
        c.valid[w] &= random_mask;
        c.bits[w] &= c.valid[w];
      }
    }
  }
}

// Every code complete, so (away from the window's border columns) every tile is interior: with
// left codes of all bits or none and right codes on a ramp, the candidates reach every Hamming
// distance 0..bits through the complete-code fast path (the multiply-high for 5x5, the rounding
// FFMA for the others). 2100 columns take the widest tiles, computed on the tensor cores where the
// GPU has them, in chunks of 32, 64 and 128 candidates (strides 32 and 96, 64, 128); 1100 columns
// 128-pixel tiles, on the tensor cores with 64 candidates (stride 64), in chunks of 64.
TEST(CensusCostStridedCodes, EveryHammingDistanceOfEveryWindow) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const CensusWindow window : {k55, k77, k97, k99, k1111}) {
    const int bits = window_bits(window);
    // Wide enough for several interior tiles at the largest range.
    for (const int width : {2 * (bits + 1) + 200, 1100, 2100}) {
      const CensusImage right = complete_codes(width, 3, bits, true, 0);
      for (const uint32_t seed : {5u, 6u}) {
        const CensusImage left = complete_codes(right.width(), right.height(), bits, false, seed);
        for (const int count : {bits + 1, 64, 128}) {
          const int stride = (count + 31) / 32 * 32;
          const std::string what = std::string(census_window_name(window)) + " width " +
                                   std::to_string(width) + " count " + std::to_string(count);
          EXPECT_EQ(strided_mismatches(left, right, window, 0, count, stride, what), 0) << what;
        }
      }
    }
  }
}

// Incomplete codes scattered through the rows: many left pixels (a warp mixes the fast and the
// general formula; a tensor-core chunk with one falls back) and a few right pixels (some tiles are
// wholly complete, others not), in scalar tiles (300 columns) and tensor-core ones (1100 columns
// with stride 64, 2100 with every stride).
TEST(CensusCostStridedCodes, MixedCompleteAndIncompleteCodes) {
  SV_REQUIRE_CUDA_DEVICE();
  for (const CensusWindow window : {k55, k97, k99, k1111}) {
    const int bits = window_bits(window);
    for (const int width : {300, 1100, 2100}) {
      CensusImage left = complete_codes(width, 4, bits, false, 21);
      CensusImage right = complete_codes(width, 4, bits, false, 22);
      scatter_incomplete(left, 23, 20);
      scatter_incomplete(right, 24, 1);
      for (const int base : {-9, 0, 13}) {
        for (const int stride : {64, 96, 128}) {
          const int count = stride == 64 ? 50 : 70;
          const std::string what = std::string(census_window_name(window)) + " width " + std::to_string(width) +
                                   " base " + std::to_string(base) + " stride " + std::to_string(stride);
          EXPECT_EQ(strided_mismatches(left, right, window, base, count, stride, what), 0) << what;
        }
      }
    }
  }
}

// Checked before anything touches the device, so it runs everywhere.
TEST(CensusCostStridedCodes, RejectsAStrideOrWindowItCannotHold) {
  EXPECT_THROW(cuda::census_cost_volume_strided(nullptr, nullptr, 8, 8, 0, 16, 48, 62, nullptr, nullptr),
               InputError);  // not a multiple of 32
  EXPECT_THROW(cuda::census_cost_volume_strided(nullptr, nullptr, 8, 8, 0, 40, 32, 62, nullptr, nullptr),
               InputError);  // too small for the candidates
  EXPECT_THROW(cuda::census_cost_volume_strided(nullptr, nullptr, 8, 8, 0, 16, 32, 0, nullptr, nullptr),
               InputError);
  EXPECT_THROW(cuda::census_cost_volume_strided(nullptr, nullptr, 8, 8, 0, 16, 32, 129, nullptr, nullptr),
               InputError);
}

}  // namespace
}  // namespace sv
