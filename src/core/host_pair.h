#pragma once

#include "src/core/image.h"
#include "src/core/stereo_engine.h"

namespace sv {

// A request's pair copied into images the engine owns (the CPU engines compute later, on their
// worker, after the caller's planes may have changed). Exactly one of the four pairs is filled,
// by the request's format.
struct HostPair {
  PixelFormat format = PixelFormat::Gray8;
  ImageU8 left8, right8;
  ImageRgb8 left_rgb, right_rgb;
  ImageU16 left16, right16;
  ImageF32 leftf, rightf;

  // Copies a host PairView; throws InputError for device planes or missing planes.
  static HostPair copy_of(const PairView& pair, const std::string& engine_name);
};

// A request's rectification done on the host (remap.h), bit for bit as the CUDA engine's GPU
// remap; colour pairs are rectified in colour. No-op without maps.
void rectify_on_host(const FrameRequest& request, HostPair& pair);

}  // namespace sv
