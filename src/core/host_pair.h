#pragma once

#include "src/core/image.h"
#include "src/core/stereo_engine.h"

namespace sv {

// A request's pair copied into images the engine owns (the CPU engines compute later, on their
// worker, after the caller's planes may have changed). Exactly one of the four pairs is filled,
// by the request's format, and the views of a 16-bit or float pair when the request gives them.
struct HostPair {
  PixelFormat format = PixelFormat::Gray8;
  ImageU8 left8, right8;
  ImageRgb8 left_rgb, right_rgb;
  ImageU16 left16, right16;
  ImageF32 leftf, rightf;
  ImageRgb8 view_left, view_right;  // FrameRequest::views

  // Copies a request's host planes; throws InputError for device planes, missing planes, or
  // views that are not the colour views of a 16-bit or float pair to rectify, of its size.
  static HostPair copy_of(const FrameRequest& request, const std::string& engine_name);
};

// A request's rectification done on the host (remap.h), bit for bit as the CUDA engine's GPU
// remap; colour pairs are rectified in colour, and a deep pair's views beside it. No-op without
// maps.
void rectify_on_host(const FrameRequest& request, HostPair& pair);

// Moves a rectified pair's views and planes into the result (want.rectified_views), as the CUDA
// engine returns them: a colour pair's planes are its views.
void return_rectified_views(const FrameRequest& request, HostPair& pair, DisparityResult& result);

}  // namespace sv
