#include "src/core/stereo_engine.h"

#include "src/core/error.h"

namespace sv {
namespace {

template <typename T>
PairView host_view(PixelFormat format, const Image<T>& left, const Image<T>& right) {
  PairView view;
  view.format = format;
  view.memory = MemorySpace::Host;
  view.left = left.data();
  view.right = right.data();
  view.width = left.width();
  view.height = left.height();
  view.right_width = right.width();
  view.right_height = right.height();
  view.left_block = left.block();
  view.right_block = right.block();
  return view;
}

}  // namespace

const char* pixel_format_name(PixelFormat format) {
  switch (format) {
    case PixelFormat::Gray8: return "8-bit gray";
    case PixelFormat::Rgb8: return "8-bit colour";
    case PixelFormat::Gray16: return "16-bit gray";
    case PixelFormat::GrayFloat: return "float gray";
  }
  return "?";
}

PairView PairView::of(const ImageU8& left, const ImageU8& right) {
  return host_view(PixelFormat::Gray8, left, right);
}
PairView PairView::of(const ImageRgb8& left, const ImageRgb8& right) {
  return host_view(PixelFormat::Rgb8, left, right);
}
PairView PairView::of(const ImageU16& left, const ImageU16& right) {
  return host_view(PixelFormat::Gray16, left, right);
}
PairView PairView::of(const ImageF32& left, const ImageF32& right) {
  return host_view(PixelFormat::GrayFloat, left, right);
}

size_t PairView::bytes_per_pixel() const {
  switch (format) {
    case PixelFormat::Gray8: return 1;
    case PixelFormat::Rgb8: return 3;
    case PixelFormat::Gray16: return 2;
    case PixelFormat::GrayFloat: return 4;
  }
  return 1;
}

DisparityResult StereoEngine::collect() {
  DisparityResult result;
  collect(result);
  return result;
}

DisparityResult StereoEngine::compute(const FrameRequest& request) {
  if (frames_in_flight() > 0) {
    throw RuntimeError("the " + name() + " engine: compute() while frames are in flight; "
                       "collect() them first");
  }
  submit(request);
  return collect();
}

namespace {

template <typename T>
DisparityResult compute_images(StereoEngine& engine, const Image<T>& left, const Image<T>& right,
                               const StereoParams& params) {
  FrameRequest request;
  request.pair = PairView::of(left, right);
  request.params = params;
  return engine.compute(request);
}

}  // namespace

DisparityResult StereoEngine::compute(const ImageU8& left, const ImageU8& right,
                                      const StereoParams& params) {
  return compute_images(*this, left, right, params);
}
DisparityResult StereoEngine::compute(const ImageRgb8& left, const ImageRgb8& right,
                                      const StereoParams& params) {
  return compute_images(*this, left, right, params);
}
DisparityResult StereoEngine::compute(const ImageU16& left, const ImageU16& right,
                                      const StereoParams& params) {
  return compute_images(*this, left, right, params);
}
DisparityResult StereoEngine::compute(const ImageF32& left, const ImageF32& right,
                                      const StereoParams& params) {
  return compute_images(*this, left, right, params);
}

void require_views_fit(const FrameRequest& request) {
  const PairView& views = request.views;
  const PairView& pair = request.pair;
  if (views.left == nullptr && views.right == nullptr) return;
  if (views.left == nullptr || views.right == nullptr) throw InputError("views without both images");
  if (views.format != PixelFormat::Rgb8) throw InputError("a pair's views must be colour images");
  if (!request.rectification) {
    throw InputError("views come with a pair to rectify only (a rectified pair's views are its own)");
  }
  if (pair.format != PixelFormat::Gray16 && pair.format != PixelFormat::GrayFloat) {
    throw InputError("views come with 16-bit or float pairs only (a colour pair is its views)");
  }
  if (views.memory != pair.memory) throw InputError("a pair's views must be in the pair's memory");
  const bool fits = views.width == pair.width && views.height == pair.height &&
                    (views.memory == MemorySpace::Device ||
                     (views.right_width == pair.width && views.right_height == pair.height));
  if (!fits) {
    throw InputError("the views are " + std::to_string(views.width) + "x" +
                     std::to_string(views.height) + " and " + std::to_string(views.right_width) +
                     "x" + std::to_string(views.right_height) + " but the pair is " +
                     std::to_string(pair.width) + "x" + std::to_string(pair.height));
  }
}

}  // namespace sv
