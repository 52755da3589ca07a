#pragma once

// FrameRequest shorthands for the engine tests.
#include <memory>

#include "src/core/remap.h"
#include "src/core/stereo_engine.h"

namespace sv::test {

template <typename T>
FrameRequest request_of(const Image<T>& left, const Image<T>& right, const StereoParams& params,
                        std::shared_ptr<const RectificationMaps> maps = nullptr,
                        ResultParts want = ResultParts()) {
  FrameRequest request;
  request.pair = PairView::of(left, right);
  request.params = params;
  request.rectification = std::move(maps);
  request.want = want;
  return request;
}

}  // namespace sv::test
