#pragma once

#include <pybind11/numpy.h>

#include "src/core/image.h"
#include "src/core/stereo_engine.h"

namespace sv::python {

// A pair copied out of two NumPy arrays into the engine's images, so the engine can run
// without the GIL while Python frees or changes the arrays. Accepted: uint8 (H, W) gray,
// uint8 (H, W, 3) BGR as OpenCV gives it (turned into RGB), uint16 (H, W), float32 (H, W);
// any strides. Anything else, or two different shapes or dtypes, is a ValueError.
class HostPairImages {
 public:
  HostPairImages(const pybind11::array& left, const pybind11::array& right);
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
