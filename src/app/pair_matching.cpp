#include "src/app/pair_matching.h"

#include "src/core/high_bit_depth.h"
#include "src/core/remap.h"
#include "src/core/remap_handoff.h"

namespace sv {

FrameRequest request_for_pair(const StereoEngine& engine, StereoPair& pair,
                              const StereoParams& params, const ResultParts& want) {
  FrameRequest request;
  request.params = params;
  request.want = want;
  if (pair.remap) {
    // Only 8-bit pairs go to the engine raw: it returns the rectified colour views for them.
    const bool engine_can = pair.left16.empty() && pair.leftf.empty() && engine.can_rectify();
    pair.remap->set_engine_remaps(engine_can);
    if (engine_can && pair.needs_remap) {
      request.pair = PairView::of(pair.left, pair.right);
      request.rectification = pair.remap->maps();
      request.want.rectified_views = true;  // the display shows the views the result belongs to
      return request;
    }
    // A pair the source rectified already, or one the engine cannot take raw.
    if (pair.needs_remap) {
      const RectificationMaps& maps = *pair.remap->maps();
      rectify_pair(maps, pair.left, pair.right);
      if (!pair.left16.empty()) rectify_pair(maps, pair.left16, pair.right16);
      if (!pair.leftf.empty()) rectify_pair(maps, pair.leftf, pair.rightf);
      pair.needs_remap = false;
    }
  }
  request.pair = full_depth_view(engine, pair.left, pair.right, pair.leftf, pair.rightf,
                                 pair.left16, pair.right16, params);
  return request;
}

void take_rectified_views(StereoPair& pair, DisparityResult& result) {
  if (!pair.needs_remap) return;
  if (result.rectified_left.empty()) {
    rectify_pair(*pair.remap->maps(), pair.left, pair.right);  // an engine that kept its views
  } else {
    pair.left = std::move(result.rectified_left);
    pair.right = std::move(result.rectified_right);
  }
  pair.needs_remap = false;
}

DisparityResult match_rectifying_pair(StereoEngine& engine, StereoPair& pair,
                                      const StereoParams& params, const ResultParts& want) {
  const FrameRequest request = request_for_pair(engine, pair, params, want);
  DisparityResult result = engine.compute(request);
  take_rectified_views(pair, result);
  return result;
}

}  // namespace sv
