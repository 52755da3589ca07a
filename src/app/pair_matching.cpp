#include "src/app/pair_matching.h"

#include "src/core/high_bit_depth.h"
#include "src/core/remap.h"
#include "src/core/remap_handoff.h"

namespace sv {
namespace {

// A raw pair's planes become the engine's rectified ones, or are rectified here.
template <typename T>
void take_or_rectify(const RectificationMaps& maps, Image<T>& left, Image<T>& right,
                     Image<T>& rectified_left, Image<T>& rectified_right) {
  if (rectified_left.empty()) {
    rectify_pair(maps, left, right);
    return;
  }
  left = std::move(rectified_left);
  right = std::move(rectified_right);
}

}  // namespace

FrameRequest request_for_pair(const StereoEngine& engine, StereoPair& pair,
                              const StereoParams& params, const ResultParts& want) {
  FrameRequest request;
  request.params = params;
  request.want = want;
  if (pair.remap) {
    const bool engine_can = engine.can_rectify();
    pair.remap->set_engine_remaps(engine_can);
    if (engine_can && pair.needs_remap) {
      request.pair = full_depth_view(engine, pair.left, pair.right, pair.leftf, pair.rightf,
                                     pair.left16, pair.right16, params);
      // A deep pair's colour views are rectified beside it: no remap is left to the host.
      const PixelFormat format = request.pair.format;
      if (format == PixelFormat::Gray16 || format == PixelFormat::GrayFloat) {
        request.views = PairView::of(pair.left, pair.right);
      }
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
  // What the engine did not return (an engine that kept its views, planes it did not match) is
  // rectified here.
  const RectificationMaps& maps = *pair.remap->maps();
  take_or_rectify(maps, pair.left, pair.right, result.rectified_left, result.rectified_right);
  if (!pair.left16.empty()) {
    take_or_rectify(maps, pair.left16, pair.right16, result.rectified_left16,
                    result.rectified_right16);
  }
  if (!pair.leftf.empty()) {
    take_or_rectify(maps, pair.leftf, pair.rightf, result.rectified_leftf, result.rectified_rightf);
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
