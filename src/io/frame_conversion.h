#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/image.h"

namespace sv {

class BlockPool;  // block_pool.h

// How one camera frame or video frame carries both views.
enum class PackedLayout {
  Auto,        // decided from the frame size by detect_packed_layout()
  SideBySide,  // left view in the left half, right view in the right half
  TopBottom,   // left view in the top half, right view in the bottom half
};

// "auto", "side-by-side" or "top-bottom".
std::string packed_layout_name(PackedLayout layout);

// The layout of a packed frame of width x height: side-by-side when width >= 2 * height (halves
// of aspect 1:1 or wider, as stereo webcams deliver: 2560x720, 1280x480), top-bottom when
// height >= width (halves of aspect 2:1 or narrower: 1280x1440). Anything between is an ordinary
// single view: InputError asking for --sbs or --tb.
PackedLayout detect_packed_layout(int width, int height);

struct SplitViews {
  ImageRgb8 left;
  ImageRgb8 right;
};

// Cuts a packed frame into its two views (Auto is resolved first), written into blocks of `pool`
// while it has free ones (block_pool.h). InputError when the frame cannot be halved along the
// split (odd width for side-by-side, odd height for top-bottom).
SplitViews split_packed_frame(const ImageRgb8& frame, PackedLayout layout,
                              BlockPool* pool = nullptr);

// YUYV 4:2:2 (bytes Y0 U Y1 V per pixel pair, what V4L2 and UVC cameras call YUYV / YUY2) to RGB,
// BT.601 studio range, in integers so the result is exact and the same everywhere:
//   C = Y - 16, D = U - 128, E = V - 128
//   R = clamp((298 C + 409 E + 128) >> 8), G = clamp((298 C - 100 D - 208 E + 128) >> 8),
//   B = clamp((298 C + 516 D + 128) >> 8), clamped to 0..255.
// `stride` is the number of bytes per row (0: 2 * width). InputError for an odd width or a
// buffer shorter than the frame.
ImageRgb8 yuyv_to_rgb(const uint8_t* data, size_t bytes, int width, int height, size_t stride = 0);

// One MJPEG frame (a complete JPEG image) decoded through OpenCV. InputError when the bytes are
// not a decodable JPEG (a frame torn by a USB hiccup, for instance).
ImageRgb8 decode_mjpeg(const uint8_t* data, size_t bytes);

}  // namespace sv
