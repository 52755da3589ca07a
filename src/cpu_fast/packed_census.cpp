// The census transform (census_transform.cpp's EXACT DEFINITION) with one SIMD lane per pixel.
//
// Every input type is first copied into a float plane padded by the window's radius on each
// side, with a parallel "present" plane (all ones, or 0 for missing and outside pixels). uint8
// and uint16 values are exact in float, so their float order is their integer order, and float
// input keeps its IEEE order; missing pixels hold 0, never NaN, and are masked out anyway. The
// padding turns "outside the image" into "missing", so the kernel has no bounds tests: each
// window position costs two loads, a compare and two masked ORs for a whole vector of pixels.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu_fast/packed_census.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"
#include "src/cpu_fast/packed_census.h"

#ifndef SV_PACKED_CENSUS_PLANE
#define SV_PACKED_CENSUS_PLANE
namespace sv {
namespace census_detail {

// Extra columns after each padded row, so a full vector may be read at the last pixel.
constexpr int kSlack = 64;

struct CensusPlane {
  int width = 0, height = 0, rx = 0, ry = 0, stride = 0;
  std::vector<float> values;
  std::vector<uint32_t> present;
  // Per padded row, the absent entries before each padded column (stride + 1 counts a row).
  std::vector<int> absent_before;
  const float* value_row(int y) const { return values.data() + static_cast<size_t>(y + ry) * stride + rx; }
  const uint32_t* present_row(int y) const {
    return present.data() + static_cast<size_t>(y + ry) * stride + rx;
  }
  // Absent entries of row y in columns [from, to) (image coordinates; the padding is absent).
  int absent(int y, int from, int to) const {
    const int* row = absent_before.data() + static_cast<size_t>(y + ry) * (stride + 1) + rx;
    return row[to] - row[from];
  }
};

}  // namespace census_detail
}  // namespace sv
#endif

HWY_BEFORE_NAMESPACE();
namespace sv {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The census of `plane`, written into `out`. Where a vector of pixels' windows are wholly present
// (no missing or outside pixel, which the plane's absent counts tell), every bit is valid and the
// bits are just the compares; elsewhere each bit is masked by both pixels' presence.
void CensusRows(const census_detail::CensusPlane& plane, int window_width, int window_height,
                PackedCensus& out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const int n = static_cast<int>(hn::Lanes(df));
  const int rx = window_width / 2, ry = window_height / 2;
  const int width = plane.width;
  // Bit i is the i-th window position in row-major order, skipping the centre: its neighbour
  // lies `offsets[i]` entries from the centre in the padded planes. A flat list keeps the
  // kernel's loop free of the window's bounds tests.
  std::vector<ptrdiff_t> offsets;
  for (int dy = -ry; dy <= ry; ++dy) {
    for (int dx = -rx; dx <= rx; ++dx) {
      if (dx != 0 || dy != 0) offsets.push_back(static_cast<ptrdiff_t>(dy) * plane.stride + dx);
    }
  }
  const int positions = static_cast<int>(offsets.size());
  parallel_for(0, plane.height, [&](int y) {
    std::vector<uint32_t> row_bits(static_cast<size_t>(width) + n), row_valid(row_bits.size());
    const float* centre_row = plane.value_row(y);
    const uint32_t* centre_present_row = plane.present_row(y);
    for (int word = 0; word < out.words; ++word) {
      const ptrdiff_t* word_offsets = offsets.data() + word * 32;
      const int word_bits = std::min(positions - word * 32, 32);
      const uint32_t word_mask = word_bits == 32 ? ~0u : (uint32_t{1} << word_bits) - 1u;
      for (int x = 0; x < width; x += n) {
        const float* centre_at = centre_row + x;
        const auto centre = hn::LoadU(df, centre_at);
        bool whole = true;
        for (int dy = -ry; dy <= ry && whole; ++dy) whole = plane.absent(y + dy, x - rx, x + n + rx) == 0;
        auto bits = hn::Zero(du);
        auto one = hn::Set(du, 1u);
        if (whole) {
          for (int b = 0; b < word_bits; ++b) {
            const auto less = hn::RebindMask(du, hn::Lt(hn::LoadU(df, centre_at + word_offsets[b]), centre));
            bits = hn::Or(bits, hn::IfThenElseZero(less, one));
            one = hn::Add(one, one);
          }
          hn::StoreU(bits, du, row_bits.data() + x);
          hn::StoreU(hn::Set(du, word_mask), du, row_valid.data() + x);
          continue;
        }
        const uint32_t* present_at = centre_present_row + x;
        const auto centre_present = hn::LoadU(du, present_at);
        auto valid = hn::Zero(du);
        for (int b = 0; b < word_bits; ++b) {
          const auto neighbour = hn::LoadU(df, centre_at + word_offsets[b]);
          const auto both_present = hn::And(centre_present, hn::LoadU(du, present_at + word_offsets[b]));
          const auto is_valid = hn::And(both_present, one);
          valid = hn::Or(valid, is_valid);
          const auto less = hn::VecFromMask(du, hn::RebindMask(du, hn::Lt(neighbour, centre)));
          bits = hn::Or(bits, hn::And(less, is_valid));
          one = hn::Add(one, one);
        }
        hn::StoreU(bits, du, row_bits.data() + x);
        hn::StoreU(valid, du, row_valid.data() + x);
      }
      std::memcpy(out.bits.data() + out.offset(word, y), row_bits.data(), sizeof(uint32_t) * width);
      std::memcpy(out.valid.data() + out.offset(word, y), row_valid.data(), sizeof(uint32_t) * width);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sv
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sv {
HWY_EXPORT(CensusRows);

int packed_census_words(CensusWindow window) {
  const int positions = census_window_width(window) * census_window_height(window) - 1;
  return (positions + 31) / 32;
}

namespace {

using census_detail::CensusPlane;

void check_integer_missing_value(int missing_value, int max_value) {
  if (missing_value < -1 || missing_value > max_value) {
    throw InputError("census missing value must be -1 (none) or 0.." + std::to_string(max_value) +
                     ", got " + std::to_string(missing_value));
  }
}

template <typename Pixel, typename IsMissing>
void census_of(const Image<Pixel>& image, CensusWindow window, IsMissing is_missing, PackedCensus& out) {
  const int window_width = census_window_width(window);
  const int window_height = census_window_height(window);
  // Kept per thread: a frame's census then allocates no fresh pages (which the kernel zeroes).
  static thread_local CensusPlane plane;
  plane.width = image.width();
  plane.height = image.height();
  plane.rx = window_width / 2;
  plane.ry = window_height / 2;
  plane.stride = plane.width + 2 * plane.rx + census_detail::kSlack;
  const size_t padded = static_cast<size_t>(plane.stride) * (plane.height + 2 * plane.ry);
  plane.values.assign(padded, 0.0f);
  plane.present.assign(padded, 0u);
  for (int y = 0; y < plane.height; ++y) {
    float* values = plane.values.data() + static_cast<size_t>(y + plane.ry) * plane.stride + plane.rx;
    uint32_t* present = plane.present.data() + static_cast<size_t>(y + plane.ry) * plane.stride + plane.rx;
    const Pixel* source = image.row(y);
    for (int x = 0; x < plane.width; ++x) {
      if (is_missing(source[x])) continue;
      values[x] = static_cast<float>(source[x]);
      present[x] = ~0u;
    }
  }
  plane.absent_before.resize(static_cast<size_t>(plane.stride + 1) * (plane.height + 2 * plane.ry));
  for (int row = 0; row < plane.height + 2 * plane.ry; ++row) {
    const uint32_t* present = plane.present.data() + static_cast<size_t>(row) * plane.stride;
    int* before = plane.absent_before.data() + static_cast<size_t>(row) * (plane.stride + 1);
    before[0] = 0;
    for (int i = 0; i < plane.stride; ++i) before[i + 1] = before[i] + (present[i] == 0 ? 1 : 0);
  }
  out.width = plane.width;
  out.height = plane.height;
  out.words = packed_census_words(window);
  out.code_bits = window_width * window_height - 1;
  const size_t plane_size = static_cast<size_t>(out.words) * out.width * out.height;
  out.bits.resize(plane_size);  // every entry is written below
  out.valid.resize(plane_size);
  if (out.width > 0 && out.height > 0) {
    HWY_DYNAMIC_DISPATCH(CensusRows)(plane, window_width, window_height, out);
  }
}

template <typename Pixel>
auto equals_integer(int missing_value) {
  return [missing_value](Pixel value) { return static_cast<int>(value) == missing_value; };
}

}  // namespace

void packed_census(const ImageU8& image, CensusWindow window, int missing_value, PackedCensus& out) {
  check_integer_missing_value(missing_value, 255);
  census_of(image, window, equals_integer<uint8_t>(missing_value), out);
}

void packed_census(const ImageU16& image, CensusWindow window, int missing_value, PackedCensus& out) {
  check_integer_missing_value(missing_value, 65535);
  census_of(image, window, equals_integer<uint16_t>(missing_value), out);
}

void packed_census(const ImageF32& image, CensusWindow window, float missing_value, PackedCensus& out) {
  census_of(image, window, [missing_value](float value) {
    return std::isnan(value) || value == missing_value;
  }, out);
}

PackedCensus packed_census(const ImageU8& image, CensusWindow window, int missing_value) {
  PackedCensus out;
  packed_census(image, window, missing_value, out);
  return out;
}

PackedCensus packed_census(const ImageU16& image, CensusWindow window, int missing_value) {
  PackedCensus out;
  packed_census(image, window, missing_value, out);
  return out;
}

PackedCensus packed_census(const ImageF32& image, CensusWindow window, float missing_value) {
  PackedCensus out;
  packed_census(image, window, missing_value, out);
  return out;
}

}  // namespace sv
#endif  // HWY_ONCE
