#include "src/app/pair_matching.h"

#include "src/core/high_bit_depth.h"
#include "src/core/remap.h"
#include "src/core/remap_handoff.h"

namespace sv {
namespace {

DisparityResult match(StereoEngine& engine, const StereoPair& pair, const StereoParams& params) {
  return match_at_full_depth(engine, pair.left, pair.right, pair.leftf, pair.rightf, pair.left16,
                             pair.right16, params);
}

}  // namespace

DisparityResult match_rectifying_pair(StereoEngine& engine, StereoPair& pair,
                                      const StereoParams& params) {
  if (!pair.remap) return match(engine, pair, params);
  const RectificationMaps& maps = *pair.remap->maps();
  // Only 8-bit pairs go to the engine raw: it returns the rectified colour views for them.
  const bool engine_can = pair.left16.empty() && pair.leftf.empty() &&
                          engine.set_rectification(pair.remap->maps());
  pair.remap->set_engine_remaps(engine_can);
  if (engine_can && pair.needs_remap) {
    DisparityResult result = match(engine, pair, params);
    if (result.rectified_left.empty()) {
      rectify_pair(maps, pair.left, pair.right);  // an engine that kept its views to itself
    } else {
      pair.left = std::move(result.rectified_left);
      pair.right = std::move(result.rectified_right);
    }
    pair.needs_remap = false;
    return result;
  }
  // A pair the source rectified already, or one the engine cannot take raw.
  if (engine_can) engine.set_rectification(nullptr);
  if (pair.needs_remap) {
    rectify_pair(maps, pair.left, pair.right);
    if (!pair.left16.empty()) rectify_pair(maps, pair.left16, pair.right16);
    if (!pair.leftf.empty()) rectify_pair(maps, pair.leftf, pair.rightf);
    pair.needs_remap = false;
  }
  return match(engine, pair, params);
}

}  // namespace sv
