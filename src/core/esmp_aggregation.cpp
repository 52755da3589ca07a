// Exponential step size message propagation (ESMP), Yu et al. 2009, section III-B.
//
// EXACT DEFINITION
//   The ESMP pipeline (cpu_engine.cpp) is the ESAW pipeline (esaw_aggregation.cpp) with this
//   aggregation in place of esaw_aggregate. For t = 1..T, with s = esaw_step(t, b):
//     (13) M   = cost_to_message(C^(t-1))        every pixel, esmp_messages.cpp
//     (14) C^h = esaw_pass(M, horizontal, s)     taps, weights (gray or colour guide), borders
//                                                as in esaw_aggregation.cpp
//     (15) M   = cost_to_message(C^h)
//     (16) C^t = esaw_pass(M, vertical, s)
//   C^0 is the truncated AD cost; the result is C^T (with T = 0 the costs are returned as they
//   are, without a message step). The smoothness is V(x) = min(c |x|, eta) in cost units; the
//   engine sets eta = (smooth-eta) * (number of disparities), the paper's eta = 0.0375 d_m.
//   With settings.half_storage each of the four results above is rounded to half as it is
//   stored (esaw_aggregation.cpp, "Half storage").
//   Float tolerance for a device version: as ESAW's (relative 1e-4 on the final costs).

#include "src/core/esmp_aggregation.h"

#include <utility>

#include "src/core/half_float.h"

namespace sv {
namespace {

// esmp_aggregate for either guide image (esaw_pass has both).
template <typename Guide>
CostVolume<float> aggregate(CostVolume<float> costs, const Guide& guide,
                            const EsawSettings& settings, const MessageSettings& messages) {
  require_valid_esaw_settings(settings);
  CostVolume<float> horizontal;
  for (int t = 1; t <= settings.iterations; ++t) {
    const int step = esaw_step(t, settings.step_base);
    // Each stored volume rounded to half with half storage, as the device stores __half.
    auto store = [&](CostVolume<float>& volume) {
      if (settings.half_storage) round_to_half(volume);
    };
    cost_to_message(costs, messages);
    store(costs);
    esaw_pass(costs, horizontal, guide, step, PassDirection::Horizontal, settings.gamma_c, settings.gamma_p);
    store(horizontal);
    cost_to_message(horizontal, messages);
    store(horizontal);
    esaw_pass(horizontal, costs, guide, step, PassDirection::Vertical, settings.gamma_c, settings.gamma_p);
    store(costs);
  }
  return costs;
}

}  // namespace

CostVolume<float> esmp_aggregate(CostVolume<float> costs, const ImageU8& guide,
                                 const EsawSettings& settings, const MessageSettings& messages) {
  return aggregate(std::move(costs), guide, settings, messages);
}

CostVolume<float> esmp_aggregate(CostVolume<float> costs, const ImageRgb8& guide,
                                 const EsawSettings& settings, const MessageSettings& messages) {
  return aggregate(std::move(costs), guide, settings, messages);
}

}  // namespace sv
