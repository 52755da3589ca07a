#include "src/core/disparity_histogram.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "src/core/error.h"

namespace sv {

uint64_t Histogram::valid() const {
  uint64_t n = below + above;
  for (const uint64_t c : counts) n += c;
  return n;
}

float Histogram::percentile(double fraction) const {
  const uint64_t total = valid();
  if (total == 0 || counts.empty()) return range.lo;
  const double wanted = std::clamp(fraction, 0.0, 1.0) * static_cast<double>(total);
  double seen = static_cast<double>(below);
  if (wanted <= seen) return range.lo;
  const double width = bin_width();
  for (size_t i = 0; i < counts.size(); ++i) {
    const double c = static_cast<double>(counts[i]);
    if (c > 0.0 && wanted <= seen + c) {
      return static_cast<float>(range.lo + width * (static_cast<double>(i) + (wanted - seen) / c));
    }
    seen += c;
  }
  return range.hi;
}

Histogram make_histogram(const ImageF32& values, ValueRange range, int bins) {
  if (bins < 1) throw InputError("histogram: bins must be at least 1, got " + std::to_string(bins));
  if (!(range.hi > range.lo) || !std::isfinite(range.lo) || !std::isfinite(range.hi)) {
    throw InputError("histogram: the range must be finite with hi > lo, got [" +
                     std::to_string(range.lo) + ", " + std::to_string(range.hi) + "]");
  }
  Histogram h;
  h.range = range;
  h.counts.assign(static_cast<size_t>(bins), 0);
  const double scale = bins / (static_cast<double>(range.hi) - range.lo);
  for (const float v : values.pixels()) {
    if (!std::isfinite(v)) {
      ++h.invalid;
    } else if (v < range.lo) {
      ++h.below;
    } else if (v > range.hi) {
      ++h.above;
    } else {
      const int bin = static_cast<int>((static_cast<double>(v) - range.lo) * scale);
      ++h.counts[static_cast<size_t>(std::min(bin, bins - 1))];
    }
  }
  return h;
}

ValueRange valid_range(const ImageF32& values, ValueRange fallback) {
  bool any = false;
  ValueRange r;
  for (const float v : values.pixels()) {
    if (!std::isfinite(v)) continue;
    r.lo = any ? std::min(r.lo, v) : v;
    r.hi = any ? std::max(r.hi, v) : v;
    any = true;
  }
  return any ? r : fallback;
}

ValueRange RangeSmoother::update(ValueRange wanted, double elapsed_s) {
  if (!started_) {
    started_ = true;
    range_ = wanted;
    return range_;
  }
  if (elapsed_s <= 0.0) return range_;
  const double k = time_constant_s_ > 0.0 ? 1.0 - std::exp(-elapsed_s / time_constant_s_) : 1.0;
  range_.lo = static_cast<float>(range_.lo + k * (static_cast<double>(wanted.lo) - range_.lo));
  range_.hi = static_cast<float>(range_.hi + k * (static_cast<double>(wanted.hi) - range_.hi));
  return range_;
}

}  // namespace sv
