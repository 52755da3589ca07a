#pragma once

#include <cstdint>
#include <vector>

#include "src/core/image.h"

namespace sv {

struct ValueRange {
  float lo = 0.0f;
  float hi = 1.0f;
};

// Counts of the valid (finite) values of an image in `bins` equal bins over [range.lo,
// range.hi]: bin i holds lo + i w <= v < lo + (i + 1) w (w = (hi - lo) / bins), the last bin
// also v == hi. Values outside the range are counted in below / above, invalid ones in invalid.
struct Histogram {
  ValueRange range;
  std::vector<uint64_t> counts;
  uint64_t below = 0, above = 0, invalid = 0;

  uint64_t valid() const;  // every finite value: the bins, below and above
  float bin_width() const { return counts.empty() ? 0.0f : (range.hi - range.lo) / counts.size(); }
  // The value under which `fraction` (0..1) of the valid values lie, interpolated linearly
  // inside its bin (below counts at lo, above at hi); range.lo when nothing is valid.
  float percentile(double fraction) const;
};

// `bins` >= 1 and hi > lo, else an InputError.
Histogram make_histogram(const ImageF32& values, ValueRange range, int bins);

// The finite minimum and maximum of `values`; `fallback` when none is finite.
ValueRange valid_range(const ImageF32& values, ValueRange fallback);

// The automatic colour range with time smoothing: each frame's wanted range (its 1st to 99th
// percentile, say) is approached exponentially with time constant `time_constant_s`, so
// colours stop jumping with single outlier frames and still follow a scene that changes. The
// first range, or one after reset(), is taken as it is.
class RangeSmoother {
 public:
  explicit RangeSmoother(double time_constant_s = 0.5) : time_constant_s_(time_constant_s) {}
  // `elapsed_s`: seconds since the previous update (<= 0 keeps the range where it is).
  ValueRange update(ValueRange wanted, double elapsed_s);
  void reset() { started_ = false; }
  bool started() const { return started_; }
  ValueRange range() const { return range_; }

 private:
  double time_constant_s_;
  bool started_ = false;
  ValueRange range_;
};

}  // namespace sv
