#include "src/io/frame_conversion.h"

#include <algorithm>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "src/core/error.h"
#include "src/io/mat_image.h"

namespace sv {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

uint8_t clamp_shift(int value) {
  if (value < 0) return 0;
  return static_cast<uint8_t>(std::min(value >> 8, 255));
}

Rgb8 yuv_to_rgb(int y, int u, int v) {
  const int c = 298 * (y - 16);
  const int d = u - 128;
  const int e = v - 128;
  return Rgb8{clamp_shift(c + 409 * e + 128), clamp_shift(c - 100 * d - 208 * e + 128),
              clamp_shift(c + 516 * d + 128)};
}

ImageRgb8 crop(const ImageRgb8& frame, int x0, int y0, int width, int height, BlockPool* pool) {
  ImageRgb8 part = pooled_image<ImageRgb8>(pool, width, height);  // every pixel written
  for (int y = 0; y < height; ++y) {
    const Rgb8* src = frame.row(y0 + y) + x0;
    std::copy(src, src + width, part.row(y));
  }
  return part;
}

}  // namespace

std::string packed_layout_name(PackedLayout layout) {
  switch (layout) {
    case PackedLayout::Auto: return "auto";
    case PackedLayout::SideBySide: return "side-by-side";
    case PackedLayout::TopBottom: return "top-bottom";
  }
  return "unknown";
}

PackedLayout detect_packed_layout(int width, int height) {
  if (width >= 2 * height) return PackedLayout::SideBySide;
  if (height >= width) return PackedLayout::TopBottom;
  throw InputError("cannot tell how a " + size_text(width, height) +
                   " frame holds two views (side-by-side frames are at least twice as wide as "
                   "high, top-bottom frames at least as high as wide): say which with --sbs or --tb");
}

SplitViews split_packed_frame(const ImageRgb8& frame, PackedLayout layout, BlockPool* pool) {
  if (frame.empty()) throw InputError("cannot split an empty frame into two views");
  if (layout == PackedLayout::Auto) layout = detect_packed_layout(frame.width(), frame.height());
  const int w = frame.width();
  const int h = frame.height();
  SplitViews views;
  if (layout == PackedLayout::SideBySide) {
    if (w % 2 != 0) {
      throw InputError("a side-by-side frame needs an even width, got " + size_text(w, h));
    }
    views.left = crop(frame, 0, 0, w / 2, h, pool);
    views.right = crop(frame, w / 2, 0, w / 2, h, pool);
  } else {
    if (h % 2 != 0) {
      throw InputError("a top-bottom frame needs an even height, got " + size_text(w, h));
    }
    views.left = crop(frame, 0, 0, w, h / 2, pool);
    views.right = crop(frame, 0, h / 2, w, h / 2, pool);
  }
  return views;
}

ImageRgb8 yuyv_to_rgb(const uint8_t* data, size_t bytes, int width, int height, size_t stride) {
  if (width <= 0 || height <= 0 || width % 2 != 0) {
    throw InputError("a YUYV frame needs a positive even width, got " + size_text(width, height));
  }
  if (stride == 0) stride = static_cast<size_t>(width) * 2;
  if (stride < static_cast<size_t>(width) * 2) {
    throw InputError("YUYV row stride " + std::to_string(stride) + " is shorter than a " +
                     std::to_string(width) + "-pixel row");
  }
  const size_t needed = stride * (height - 1) + static_cast<size_t>(width) * 2;
  if (data == nullptr || bytes < needed) {
    throw InputError("YUYV frame " + size_text(width, height) + " needs " +
                     std::to_string(needed) + " bytes, got " + std::to_string(bytes) +
                     " (torn or truncated frame)");
  }
  ImageRgb8 rgb(width, height);
  for (int y = 0; y < height; ++y) {
    const uint8_t* src = data + stride * y;
    Rgb8* dst = rgb.row(y);
    for (int x = 0; x < width; x += 2, src += 4) {
      dst[x] = yuv_to_rgb(src[0], src[1], src[3]);
      dst[x + 1] = yuv_to_rgb(src[2], src[1], src[3]);
    }
  }
  return rgb;
}

ImageRgb8 decode_mjpeg(const uint8_t* data, size_t bytes) {
  if (data == nullptr || bytes < 4 || data[0] != 0xFF || data[1] != 0xD8) {
    throw InputError("MJPEG frame of " + std::to_string(bytes) +
                     " bytes does not start with a JPEG header (torn frame?)");
  }
  // imdecode only reads the buffer; the Mat header wraps it without a copy.
  const cv::Mat encoded(1, static_cast<int>(bytes), CV_8UC1, const_cast<uint8_t*>(data));
  cv::Mat decoded;
  try {
    decoded = cv::imdecode(encoded, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    throw InputError(std::string("MJPEG frame could not be decoded: ") + e.what());
  }
  if (decoded.empty()) {
    throw InputError("MJPEG frame of " + std::to_string(bytes) +
                     " bytes could not be decoded (damaged or incomplete JPEG)");
  }
  return rgb_image_from_mat(decoded);
}

}  // namespace sv
