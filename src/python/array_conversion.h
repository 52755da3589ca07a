#pragma once

#include <pybind11/numpy.h>

#include "src/core/image.h"
#include "src/core/stereo_engine.h"

namespace sv::python {

// What a pair of NumPy arrays holds, checked before anything is copied (so that a frame too
// large to fit is refused before its copy). Accepted: uint8 (H, W) gray, uint8 (H, W, 3) BGR as
// OpenCV gives it, uint16 (H, W), float32 (H, W), in either byte order and with any strides.
// Anything else, or two different shapes or dtypes, is a ValueError.
struct PairLayout {
  PixelFormat format = PixelFormat::Gray8;
  int width = 0, height = 0;  // the left image's
};
PairLayout checked_pair_layout(const pybind11::array& left, const pybind11::array& right);

// A pair copied out of two NumPy arrays into the engine's images (BGR turned into RGB, big-endian
// values into the machine's order), so the engine can run without the GIL while Python frees
// or changes the arrays.
class HostPairImages {
 public:
  HostPairImages(const pybind11::array& left, const pybind11::array& right,
                 const PairLayout& layout);
  // Borrows this object's pixels: keep it alive until the frame is submitted.
  PairView view() const;

 private:
  ImageU8 gray_left_, gray_right_;
  ImageRgb8 rgb_left_, rgb_right_;
  ImageU16 u16_left_, u16_right_;
  ImageF32 f32_left_, f32_right_;
  PixelFormat format_ = PixelFormat::Gray8;
};

// The float disparity as a float32 (H, W) array, NaN where the engine found no match (the
// engine's +inf), the convention NumPy code expects.
pybind11::array_t<float> disparity_to_array(const ImageF32& disparity);
pybind11::array_t<float> float_image_to_array(const ImageF32& image);
pybind11::array_t<int16_t> fixed_image_to_array(const ImageI16& image);

// A float32 (H, W) array (any float or integer dtype is converted) as an image; `what` names
// it in the error.
ImageF32 array_to_float_image(const pybind11::array& array, const char* what);
// A (H, W) mask: bool or integers, non-zero = evaluate; stored as 255 / 0.
ImageU8 array_to_mask(const pybind11::array& array);

}  // namespace sv::python
