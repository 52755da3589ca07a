// Cost-to-message transform of ESMP, Yu et al. 2009 section III-B (eqs. 13, 17-21), after the
// min-sum message computation of Felzenszwalb and Huttenlocher.
//
// EXACT DEFINITION (one pixel, values M[0..L-1], L = count, c = slope, eta = cap; float)
//   (17) M = C
//   (18) h = (min over d of M[d]) + eta
//   (19) for d = 1 .. L-1:      M[d] = min(M[d-1] + c, M[d])
//   (20) M[L-1] = min(M[L-1], h)
//   (21) for d = L-2 .. 0:      M[d] = min(M[d+1] + c, M[d], h)
//   Each "+" is one float addition, rounded; min is exact, so its order does not matter.
//   Mathematically M[d] = min over d' of (C[d'] + min(c |d - d'|, eta)): the lower envelope of
//   cones of slope c rooted at every C[d'], capped at min C + eta. Indices are disparity steps
//   of 1 px, so with a per-pixel search range the transform runs over each pixel's own
//   candidates. L = 0 is a no-op; L = 1 leaves the value unchanged.
//   A device version doing the same additions in the same order matches bit for bit (no FMA
//   is involved).

#include "src/core/esmp_messages.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "src/core/error.h"
#include "src/core/parallel_for.h"

namespace sv {

void cost_to_message(float* m, int count, const MessageSettings& settings) {
  if (count <= 0) return;
  const float c = settings.slope;
  float lowest = m[0];
  for (int d = 1; d < count; ++d) lowest = std::min(lowest, m[d]);
  const float h = lowest + settings.cap;
  for (int d = 1; d < count; ++d) m[d] = std::min(m[d - 1] + c, m[d]);
  m[count - 1] = std::min(m[count - 1], h);
  for (int d = count - 2; d >= 0; --d) m[d] = std::min(std::min(m[d + 1] + c, m[d]), h);
}

void require_valid_message_settings(const MessageSettings& settings) {
  if (!(settings.slope >= 0.0f) || !std::isfinite(settings.slope)) {
    throw InputError("ESMP: the smoothness slope c must be finite and >= 0, got " + std::to_string(settings.slope));
  }
  if (!(settings.cap >= 0.0f) || !std::isfinite(settings.cap)) {
    throw InputError("ESMP: the smoothness cap eta must be finite and >= 0, got " + std::to_string(settings.cap));
  }
}

void cost_to_message(CostVolume<float>& volume, const MessageSettings& settings) {
  require_valid_message_settings(settings);
  const int count = volume.count();
  parallel_for(0, volume.height(), [&](int y) {
    for (int x = 0; x < volume.width(); ++x) cost_to_message(volume.pixel(x, y), count, settings);
  });
}

}  // namespace sv
