#include "src/python/array_conversion.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "src/core/error.h"

namespace py = pybind11;

namespace sv::python {
namespace {

std::string shape_text(const py::array& a) {
  std::string text = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) text += (i ? ", " : "") + std::to_string(a.shape(i));
  return text + (a.ndim() == 1 ? ",)" : ")");
}

std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

// A C-contiguous copy of a plane (a view when it already is one), as T.
template <typename T>
Image<T> plane_copy(const py::array& array) {
  auto dense = py::array_t<T, py::array::c_style>::ensure(array);
  Image<T> image(static_cast<int>(array.shape(1)), static_cast<int>(array.shape(0)));
  std::memcpy(image.data(), dense.data(), image.size() * sizeof(T));
  return image;
}

ImageRgb8 bgr_copy(const py::array& array) {
  auto dense = py::array_t<uint8_t, py::array::c_style>::ensure(array);
  ImageRgb8 image(static_cast<int>(array.shape(1)), static_cast<int>(array.shape(0)));
  const uint8_t* bgr = dense.data();
  for (size_t i = 0; i < image.size(); ++i)
    image.data()[i] = Rgb8{bgr[3 * i + 2], bgr[3 * i + 1], bgr[3 * i]};
  return image;
}

void check_image(const py::array& a, const char* side) {
  const bool gray = a.ndim() == 2;
  const bool colour = a.ndim() == 3 && a.shape(2) == 3 && a.dtype().is(py::dtype::of<uint8_t>());
  if (!gray && !colour)
    throw InputError(std::string("the ") + side + " image has shape " + shape_text(a) +
                     " and dtype " + dtype_text(a) +
                     "; expected (H, W) gray or (H, W, 3) uint8 BGR");
  if (a.shape(0) < 1 || a.shape(1) < 1)
    throw InputError(std::string("the ") + side + " image is empty " + shape_text(a));
  if (a.shape(0) > std::numeric_limits<int>::max() / 4 ||
      a.shape(1) > std::numeric_limits<int>::max() / 4)
    throw InputError(std::string("the ") + side + " image is too large " + shape_text(a));
}

}  // namespace

HostPairImages::HostPairImages(const py::array& left, const py::array& right) {
  check_image(left, "left");
  check_image(right, "right");
  if (!left.dtype().is(right.dtype()) || left.ndim() != right.ndim())
    throw InputError("the left and right images differ: " + shape_text(left) + " " +
                     dtype_text(left) + " and " + shape_text(right) + " " + dtype_text(right));
  // Different sizes of the same kind go through: the engine reports them in the CLI's words.
  if (left.ndim() == 3) {
    format_ = PixelFormat::Rgb8;
    rgb_left_ = bgr_copy(left);
    rgb_right_ = bgr_copy(right);
  } else if (left.dtype().is(py::dtype::of<uint8_t>())) {
    format_ = PixelFormat::Gray8;
    gray_left_ = plane_copy<uint8_t>(left);
    gray_right_ = plane_copy<uint8_t>(right);
  } else if (left.dtype().is(py::dtype::of<uint16_t>())) {
    format_ = PixelFormat::Gray16;
    u16_left_ = plane_copy<uint16_t>(left);
    u16_right_ = plane_copy<uint16_t>(right);
  } else if (left.dtype().is(py::dtype::of<float>())) {
    format_ = PixelFormat::GrayFloat;
    f32_left_ = plane_copy<float>(left);
    f32_right_ = plane_copy<float>(right);
  } else {
    throw InputError("images of dtype " + dtype_text(left) +
                     " are not supported; use uint8 (gray or BGR), uint16 or float32");
  }
}

PairView HostPairImages::view() const {
  switch (format_) {
    case PixelFormat::Rgb8: return PairView::of(rgb_left_, rgb_right_);
    case PixelFormat::Gray16: return PairView::of(u16_left_, u16_right_);
    case PixelFormat::GrayFloat: return PairView::of(f32_left_, f32_right_);
    case PixelFormat::Gray8: break;
  }
  return PairView::of(gray_left_, gray_right_);
}

py::array_t<float> float_image_to_array(const ImageF32& image) {
  py::array_t<float> array({image.height(), image.width()});
  std::memcpy(array.mutable_data(), image.data(), image.size() * sizeof(float));
  return array;
}

py::array_t<float> disparity_to_array(const ImageF32& disparity) {
  py::array_t<float> array = float_image_to_array(disparity);
  float* pixels = array.mutable_data();
  for (size_t i = 0; i < disparity.size(); ++i)
    if (!std::isfinite(pixels[i])) pixels[i] = std::numeric_limits<float>::quiet_NaN();
  return array;
}

py::array_t<int16_t> fixed_image_to_array(const ImageI16& image) {
  py::array_t<int16_t> array({image.height(), image.width()});
  std::memcpy(array.mutable_data(), image.data(), image.size() * sizeof(int16_t));
  return array;
}

ImageF32 array_to_float_image(const py::array& array, const char* what) {
  if (array.ndim() != 2)
    throw InputError(std::string("the ") + what + " has shape " + shape_text(array) +
                     "; expected (H, W)");
  return plane_copy<float>(py::array_t<float, py::array::forcecast>::ensure(array));
}

ImageU8 array_to_mask(const py::array& array) {
  if (array.ndim() != 2)
    throw InputError("the mask has shape " + shape_text(array) + "; expected (H, W)");
  auto as_bool = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(
      array.attr("astype")("bool"));
  ImageU8 mask(static_cast<int>(array.shape(1)), static_cast<int>(array.shape(0)));
  for (size_t i = 0; i < mask.size(); ++i) mask.data()[i] = as_bool.data()[i] ? 255 : 0;
  return mask;
}

}  // namespace sv::python
