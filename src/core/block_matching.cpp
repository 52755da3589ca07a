// Block-matching costs: SAD, SSD and ZNCC over an odd square window.
//
// EXACT DEFINITIONS (the CUDA engine reproduces SAD / SSD bit for bit, ZNCC as stated below)
//   Window w odd in 3..21, r = w / 2, n = w * w. For left pixel (x, y) and k in [0, count):
//     d = range.base(x, y) + k, xr = x - d, and for window offsets (i, j) in [-r, r]^2:
//     a(i, j) = L.clamped(x + i, y + j), b(i, j) = R.clamped(x + i - d, y + j)
//     (border replication; the left and right coordinates are clamped separately).
//   Candidates with xr outside [0, width) cost kBlockMatchingOutsideCost (UINT32_MAX) for
//   SAD / SSD and kZnccOutsideCost (3.0f) for ZNCC, whatever the window holds.
//   SAD = sum |a - b|, SSD = sum (a - b)^2, both exact in uint32 (at most 441 * 255^2).
//   ZNCC: the integer sums Sa, Sb, Saa, Sbb, Sab over the window give, exactly in int64,
//     num = n*Sab - Sa*Sb, va = n*Saa - Sa*Sa, vb = n*Sbb - Sb*Sb (all below 2^53);
//     ncc = 0 when va == 0 or vb == 0 (a flat window correlates with nothing), otherwise
//     ncc = double(num) / sqrt(double(va) * double(vb)) in IEEE double, clamped to [-1, 1];
//     cost = float(1.0 - ncc). Every window sum is an integer, so only that last formula rounds.
//
// Evaluation: with a uniform range the window sums of one disparity are built from column sums
// rolled down the rows and a running sum along the row (the NVIDIA stereo sample's scheme), so
// each candidate costs O(1) per pixel. A per-pixel range has a different d at every pixel, so
// there each window is summed directly. Integer sums make both paths give identical results.
#include "src/core/block_matching.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {
namespace {

// Rows per independently rolled band: small enough for both cores to share the work, large
// enough that restarting the column sums at each band start is cheap.
constexpr int kBandRows = 16;

void check_inputs(const ImageU8& left, const ImageU8& right, int window, const SearchRange& range,
                  const char* what) {
  const std::string name(what);
  if (window < 3 || window > 21 || window % 2 == 0) {
    throw InputError(name + ": window must be odd and in 3..21, got " + std::to_string(window));
  }
  if (!left.same_size(right)) {
    throw InputError(name + ": left and right images differ in size");
  }
  if (!range.is_uniform() && !range.per_pixel_base().same_size(left)) {
    throw InputError(name + ": the per-pixel search range differs in size from the images");
  }
  if (range.count() < 0) {
    throw InputError(name + ": negative disparity count " + std::to_string(range.count()));
  }
}

// Window sums of term(a, b) for every candidate, by direct summation (any range).
template <typename Term>
CostVolume<uint32_t> window_sums_direct(const ImageU8& left, const ImageU8& right, int radius,
                                        const SearchRange& range, Term term) {
  const int width = left.width();
  CostVolume<uint32_t> sums(width, left.height(), range);
  parallel_for(0, left.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      uint32_t* out = sums.pixel(x, y);
      const int base = range.base(x, y);
      for (int k = 0; k < range.count(); ++k) {
        const int d = base + k;
        uint32_t sum = 0;
        for (int j = -radius; j <= radius; ++j) {
          for (int i = -radius; i <= radius; ++i) {
            sum += term(left.clamped(x + i, y + j), right.clamped(x + i - d, y + j));
          }
        }
        out[k] = sum;
      }
    }
  });
  return sums;
}

// Same sums for a uniform range: per disparity, column sums over virtual columns
// c in [-r, width + r) are rolled down the rows of a band, then slid along each row.
// Rows are the outer loop so one output row (every candidate) stays in cache.
template <typename Term>
CostVolume<uint32_t> window_sums_rolling(const ImageU8& left, const ImageU8& right, int radius,
                                         const SearchRange& range, Term term) {
  const int width = left.width();
  const int height = left.height();
  const int count = range.count();
  CostVolume<uint32_t> sums(width, height, range);
  if (width == 0 || height == 0 || count == 0) return sums;
  const int columns = width + 2 * radius;  // virtual column c is stored at c + radius
  auto clamp_x = [width](int x) { return x < 0 ? 0 : (x >= width ? width - 1 : x); };
  auto clamp_y = [height](int y) { return y < 0 ? 0 : (y >= height ? height - 1 : y); };
  // Window term of virtual column c and image row y for disparity d, borders replicated.
  auto sample = [&](int c, int y, int d) {
    const int row = clamp_y(y);
    return static_cast<uint32_t>(term(left.row(row)[clamp_x(c)], right.row(row)[clamp_x(c - d)]));
  };
  const int bands = (height + kBandRows - 1) / kBandRows;
  parallel_for(0, bands, [&](int band) {
    const int y_begin = band * kBandRows;
    const int y_end = std::min(height, y_begin + kBandRows);
    std::vector<uint32_t> column_sums(static_cast<size_t>(count) * columns);
    for (int y = y_begin; y < y_end; ++y) {
      for (int k = 0; k < count; ++k) {
        const int d = range.uniform_base() + k;
        uint32_t* column_sum = column_sums.data() + static_cast<size_t>(k) * columns;
        for (int c = -radius; c < width + radius; ++c) {
          uint32_t& s = column_sum[c + radius];
          if (y == y_begin) {
            s = 0;
            for (int j = -radius; j <= radius; ++j) s += sample(c, y + j, d);
          } else {
            // Unsigned wrap-around is harmless: the true sum is never negative.
            s += sample(c, y + radius, d);
            s -= sample(c, y - radius - 1, d);
          }
        }
        uint32_t s = 0;
        for (int c = 0; c <= 2 * radius; ++c) s += column_sum[c];
        sums.at(0, y, k) = s;
        for (int x = 1; x < width; ++x) {
          s += column_sum[x + 2 * radius];
          s -= column_sum[x - 1];
          sums.at(x, y, k) = s;
        }
      }
    }
  });
  return sums;
}

template <typename Term>
CostVolume<uint32_t> window_sums(const ImageU8& left, const ImageU8& right, int radius,
                                 const SearchRange& range, Term term) {
  return range.is_uniform() ? window_sums_rolling(left, right, radius, range, term)
                            : window_sums_direct(left, right, radius, range, term);
}

template <typename T>
void mark_outside_candidates(CostVolume<T>& costs, T outside_cost) {
  const int width = costs.width();
  const SearchRange& range = costs.range();
  parallel_for(0, costs.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      const int base = range.base(x, y);
      for (int k = 0; k < range.count(); ++k) {
        const int xr = x - (base + k);
        if (xr < 0 || xr >= width) costs.at(x, y, k) = outside_cost;
      }
    }
  });
}

}  // namespace

CostVolume<uint32_t> sad_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                     const SearchRange& range) {
  check_inputs(left, right, window, range, "SAD cost");
  auto costs = window_sums(left, right, window / 2, range,
                           [](int a, int b) { return static_cast<uint32_t>(std::abs(a - b)); });
  mark_outside_candidates(costs, kBlockMatchingOutsideCost);
  return costs;
}

CostVolume<uint32_t> ssd_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                     const SearchRange& range) {
  check_inputs(left, right, window, range, "SSD cost");
  auto costs = window_sums(left, right, window / 2, range,
                           [](int a, int b) { return static_cast<uint32_t>((a - b) * (a - b)); });
  mark_outside_candidates(costs, kBlockMatchingOutsideCost);
  return costs;
}

CostVolume<float> zncc_cost_volume(const ImageU8& left, const ImageU8& right, int window,
                                   const SearchRange& range) {
  check_inputs(left, right, window, range, "ZNCC cost");
  const int radius = window / 2;
  const int width = left.width();
  const int64_t n = static_cast<int64_t>(window) * window;

  // Per-image window statistics: pairing an image with itself at d = 0 sums over its own
  // clamped window, which for the right image at xr is exactly the candidate's b window.
  const SearchRange same_pixel(0, 1);
  auto first = [](int a, int) { return static_cast<uint32_t>(a); };
  auto square = [](int a, int) { return static_cast<uint32_t>(a * a); };
  const auto left_sum = window_sums(left, left, radius, same_pixel, first);
  const auto left_sq = window_sums(left, left, radius, same_pixel, square);
  const auto right_sum = window_sums(right, right, radius, same_pixel, first);
  const auto right_sq = window_sums(right, right, radius, same_pixel, square);
  const auto cross = window_sums(left, right, radius, range,
                                 [](int a, int b) { return static_cast<uint32_t>(a * b); });

  CostVolume<float> costs(width, left.height(), range);
  parallel_for(0, left.height(), [&](int y) {
    for (int x = 0; x < width; ++x) {
      const int base = range.base(x, y);
      const int64_t sa = left_sum.at(x, y, 0);
      const int64_t va = n * left_sq.at(x, y, 0) - sa * sa;
      for (int k = 0; k < range.count(); ++k) {
        const int xr = x - (base + k);
        if (xr < 0 || xr >= width) {
          costs.at(x, y, k) = kZnccOutsideCost;
          continue;
        }
        const int64_t sb = right_sum.at(xr, y, 0);
        const int64_t vb = n * right_sq.at(xr, y, 0) - sb * sb;
        double ncc = 0.0;
        if (va != 0 && vb != 0) {
          const int64_t num = n * cross.at(x, y, k) - sa * sb;
          ncc = static_cast<double>(num) /
                std::sqrt(static_cast<double>(va) * static_cast<double>(vb));
          ncc = std::min(1.0, std::max(-1.0, ncc));
        }
        costs.at(x, y, k) = static_cast<float>(1.0 - ncc);
      }
    }
  });
  return costs;
}

}  // namespace sv
