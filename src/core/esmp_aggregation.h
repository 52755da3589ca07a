#pragma once

#include "src/core/cost_volume.h"
#include "src/core/esaw_aggregation.h"
#include "src/core/esmp_messages.h"
#include "src/core/image.h"

namespace sv {

// Exponential step size message propagation (Yu et al. 2009, section III-B): ESAW whose passes
// aggregate messages (esmp_messages.h) instead of costs; the weights come from a gray or a
// colour guide (esaw_aggregation.h). Throws InputError for bad settings.
// EXACT DEFINITION in esmp_aggregation.cpp.
CostVolume<float> esmp_aggregate(CostVolume<float> costs, const ImageU8& guide,
                                 const EsawSettings& settings, const MessageSettings& messages);
CostVolume<float> esmp_aggregate(CostVolume<float> costs, const ImageRgb8& guide,
                                 const EsawSettings& settings, const MessageSettings& messages);

}  // namespace sv
