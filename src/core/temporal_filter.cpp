#include "src/core/temporal_filter.h"

#include <cmath>

#include "src/core/disparity.h"

namespace sv {

static_assert(kTemporalInvalid == kInvalidFixedDisparity,
              "the temporal filter must mark invalid as the pipeline does");

TemporalFilterSettings temporal_filter_settings(const StereoParams& params) {
  TemporalFilterSettings s;
  s.alpha_q8 = static_cast<int>(std::lround(params.temporal_alpha * 256.0));
  s.delta_fixed = static_cast<int>(std::lround(params.temporal_delta * kDisparityScale));
  s.persistence = params.temporal_persistence;
  return s;
}

bool same_matching(const StereoParams& before, const StereoParams& now) {
  StereoParams a = before;
  a.temporal_filter = now.temporal_filter;
  a.temporal_alpha = now.temporal_alpha;
  a.temporal_delta = now.temporal_delta;
  a.temporal_persistence = now.temporal_persistence;
  return a == now;
}

void TemporalFilter::apply(ImageI16& disparity, const TemporalFilterSettings& settings) {
  if (!previous_.same_size(disparity)) {
    previous_ = ImageI16(disparity.width(), disparity.height(), kTemporalInvalid);
    age_ = ImageU8(disparity.width(), disparity.height(), 0);
  }
  int16_t* previous = previous_.data();
  uint8_t* age = age_.data();
  int16_t* d = disparity.data();
  for (size_t i = 0; i < disparity.size(); ++i) {
    d[i] = temporal_filter_pixel(d[i], previous[i], age[i], settings);
  }
}

void TemporalFilter::reset() {
  previous_ = ImageI16();
  age_ = ImageU8();
}

}  // namespace sv
