#include "src/core/host_pair.h"

#include <cstring>
#include <string>

#include "src/core/error.h"
#include "src/core/remap.h"

namespace sv {
namespace {

template <typename T>
Image<T> plane_copy(const void* data, int width, int height) {
  Image<T> image(width, height);
  std::memcpy(image.data(), data, image.size() * sizeof(T));
  return image;
}

template <typename T>
void copy_planes(const PairView& pair, Image<T>& left, Image<T>& right) {
  left = plane_copy<T>(pair.left, pair.width, pair.height);
  right = plane_copy<T>(pair.right, pair.right_width, pair.right_height);
}

}  // namespace

HostPair HostPair::copy_of(const FrameRequest& request, const std::string& engine_name) {
  const PairView& pair = request.pair;
  if (pair.memory != MemorySpace::Host) {
    throw InputError("the " + engine_name + " engine takes pairs in host memory only");
  }
  if (pair.left == nullptr || pair.right == nullptr) throw InputError("a request without images");
  HostPair host;
  host.format = pair.format;
  switch (pair.format) {
    case PixelFormat::Gray8: copy_planes(pair, host.left8, host.right8); break;
    case PixelFormat::Rgb8: copy_planes(pair, host.left_rgb, host.right_rgb); break;
    case PixelFormat::Gray16: copy_planes(pair, host.left16, host.right16); break;
    case PixelFormat::GrayFloat: copy_planes(pair, host.leftf, host.rightf); break;
  }
  require_views_fit(request);
  if (request.views.left != nullptr) copy_planes(request.views, host.view_left, host.view_right);
  return host;
}

void rectify_on_host(const FrameRequest& request, HostPair& pair) {
  if (!request.rectification) return;
  const RectificationMaps& maps = *request.rectification;
  switch (pair.format) {
    case PixelFormat::Gray8: rectify_pair(maps, pair.left8, pair.right8); break;
    case PixelFormat::Rgb8: rectify_pair(maps, pair.left_rgb, pair.right_rgb); break;
    case PixelFormat::Gray16: rectify_pair(maps, pair.left16, pair.right16); break;
    case PixelFormat::GrayFloat: rectify_pair(maps, pair.leftf, pair.rightf); break;
  }
  if (!pair.view_left.empty()) rectify_pair(maps, pair.view_left, pair.view_right);
}

void return_rectified_views(const FrameRequest& request, HostPair& pair, DisparityResult& result) {
  if (!request.rectification || !request.want.rectified_views) return;
  switch (pair.format) {
    case PixelFormat::Gray8: return;
    case PixelFormat::Rgb8:
      result.rectified_left = std::move(pair.left_rgb);
      result.rectified_right = std::move(pair.right_rgb);
      return;
    case PixelFormat::Gray16:
      result.rectified_left16 = std::move(pair.left16);
      result.rectified_right16 = std::move(pair.right16);
      break;
    case PixelFormat::GrayFloat:
      result.rectified_leftf = std::move(pair.leftf);
      result.rectified_rightf = std::move(pair.rightf);
      break;
  }
  result.rectified_left = std::move(pair.view_left);
  result.rectified_right = std::move(pair.view_right);
}

}  // namespace sv
