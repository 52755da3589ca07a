#pragma once

#include "src/core/image.h"

namespace sv {

// Per-view remap tables: the rectified pixel (x, y) takes the raw image's value at
// (x_map(x, y), y_map(x, y)). Float pixel coordinates, OpenCV's CV_32FC1 map convention (what
// initUndistortRectifyMap writes), so the CPU reference and the GPU remap read them as they are.
struct RectificationMaps {
  ImageF32 left_x, left_y;
  ImageF32 right_x, right_y;

  int width() const { return left_x.width(); }
  int height() const { return left_x.height(); }
};

// Bilinear remap of a raw image through float maps, exactly as defined at the top of remap.cpp
// (OpenCV's INTER_LINEAR remap with BORDER_CONSTANT, bit for bit). The result has the maps'
// size; the raw image may have any size up to 32767 x 32767. Outside the raw image: 0 for the
// integer images, NaN for float. InputError when the maps differ in size or are empty, or the
// raw image is too large.
ImageU8 remap_bilinear(const ImageU8& raw, const ImageF32& map_x, const ImageF32& map_y);
ImageRgb8 remap_bilinear(const ImageRgb8& raw, const ImageF32& map_x, const ImageF32& map_y);
ImageU16 remap_bilinear(const ImageU16& raw, const ImageF32& map_x, const ImageF32& map_y);
ImageF32 remap_bilinear(const ImageF32& raw, const ImageF32& map_x, const ImageF32& map_y);

// Both views of a pair through their maps (left_x/left_y, right_x/right_y), in place.
template <typename T>
void rectify_pair(const RectificationMaps& maps, Image<T>& left, Image<T>& right) {
  left = remap_bilinear(left, maps.left_x, maps.left_y);
  right = remap_bilinear(right, maps.right_x, maps.right_y);
}

}  // namespace sv
