#include "src/core/disparity_difference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "src/core/disparity.h"
#include "src/core/error.h"

namespace sv {

DisparityDifference disparity_difference(const ImageF32& a, const ImageF32& b, float tolerance) {
  if (!a.same_size(b)) {
    throw InputError("the two disparities differ in size: " + std::to_string(a.width()) + "x" +
                     std::to_string(a.height()) + " and " + std::to_string(b.width()) + "x" +
                     std::to_string(b.height()));
  }
  if (!(tolerance >= 0.0f) || !std::isfinite(tolerance)) {
    throw InputError("the difference tolerance must be a finite number >= 0 px");
  }
  DisparityDifference out;
  out.magnitude = ImageF32(a.width(), a.height(), 0.0f);
  out.kind = ImageU8(a.width(), a.height(), static_cast<uint8_t>(DifferenceKind::BothInvalid));
  DifferenceCounts& c = out.counts;
  c.pixels = static_cast<int64_t>(a.size());
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float da = a.data()[i], db = b.data()[i];
    const bool va = is_valid_disparity(da), vb = is_valid_disparity(db);
    DifferenceKind kind = DifferenceKind::BothInvalid;
    if (va && vb) {
      const float magnitude = std::fabs(da - db);
      out.magnitude.data()[i] = magnitude;
      sum += magnitude;
      c.max_abs = std::max(c.max_abs, static_cast<double>(magnitude));
      kind = magnitude > tolerance ? DifferenceKind::Differ : DifferenceKind::Equal;
    } else if (va) {
      kind = DifferenceKind::OnlyA;
    } else if (vb) {
      kind = DifferenceKind::OnlyB;
    }
    out.kind.data()[i] = static_cast<uint8_t>(kind);
    switch (kind) {
      case DifferenceKind::BothInvalid: ++c.both_invalid; break;
      case DifferenceKind::Equal: ++c.equal; break;
      case DifferenceKind::Differ: ++c.differ; break;
      case DifferenceKind::OnlyA: ++c.only_a; break;
      case DifferenceKind::OnlyB: ++c.only_b; break;
    }
  }
  const int64_t both_valid = c.equal + c.differ;
  c.mean_abs = both_valid > 0 ? sum / static_cast<double>(both_valid) : 0.0;
  return out;
}

ImageRgb8 colorize_difference(const DisparityDifference& difference, float full_scale) {
  const float scale = full_scale > 0.0f && std::isfinite(full_scale) ? full_scale : 1.0f;
  const ImageU8& kind = difference.kind;
  ImageRgb8 out(kind.width(), kind.height());
  auto mix = [](uint8_t from, uint8_t to, float t) {
    return static_cast<uint8_t>(std::lround(from + (to - from) * t));
  };
  for (size_t i = 0; i < kind.size(); ++i) {
    Rgb8 colour = kDifferenceBothInvalidColor;
    switch (static_cast<DifferenceKind>(kind.data()[i])) {
      case DifferenceKind::BothInvalid: break;
      case DifferenceKind::Equal: colour = kDifferenceEqualColor; break;
      case DifferenceKind::Differ: {
        const float t = std::min(1.0f, difference.magnitude.data()[i] / scale);
        colour = {mix(kDifferenceSmallColor.r, kDifferenceLargeColor.r, t),
                  mix(kDifferenceSmallColor.g, kDifferenceLargeColor.g, t),
                  mix(kDifferenceSmallColor.b, kDifferenceLargeColor.b, t)};
        break;
      }
      case DifferenceKind::OnlyA: colour = kDifferenceOnlyAColor; break;
      case DifferenceKind::OnlyB: colour = kDifferenceOnlyBColor; break;
    }
    out.data()[i] = colour;
  }
  return out;
}

ImageI16 difference_fixed(const DisparityDifference& difference) {
  const ImageU8& kind = difference.kind;
  ImageI16 out(kind.width(), kind.height());
  for (size_t i = 0; i < kind.size(); ++i) {
    const auto k = static_cast<DifferenceKind>(kind.data()[i]);
    if (k != DifferenceKind::Equal && k != DifferenceKind::Differ) {
      out.data()[i] = kInvalidFixedDisparity;
      continue;
    }
    const long fixed = std::lround(difference.magnitude.data()[i] * kDisparityScale);
    out.data()[i] = static_cast<int16_t>(std::min<long>(fixed, std::numeric_limits<int16_t>::max()));
  }
  return out;
}

}  // namespace sv
