#include "src/python/array_conversion.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
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

// A dense array of T in the machine's byte order: the array itself when it already is one.
template <typename T>
py::array_t<T, py::array::c_style> dense_array(const py::array& array) {
  auto dense = py::array_t<T, py::array::c_style>::ensure(array);
  if (!dense) throw py::error_already_set();
  return dense;
}

// A C-contiguous copy of a plane, as T.
template <typename T>
Image<T> plane_copy(const py::array& array) {
  const auto dense = dense_array<T>(array);
  Image<T> image(static_cast<int>(array.shape(1)), static_cast<int>(array.shape(0)));
  std::memcpy(image.data(), dense.data(), image.size() * sizeof(T));
  return image;
}

ImageRgb8 bgr_copy(const py::array& array) {
  const auto dense = dense_array<uint8_t>(array);
  ImageRgb8 image(static_cast<int>(array.shape(1)), static_cast<int>(array.shape(0)));
  const uint8_t* bgr = dense.data();
  for (size_t i = 0; i < image.size(); ++i)
    image.data()[i] = Rgb8{bgr[3 * i + 2], bgr[3 * i + 1], bgr[3 * i]};
  return image;
}

void check_image(const py::array& a, const char* side) {
  const bool gray = a.ndim() == 2;
  const bool colour = a.ndim() == 3 && a.shape(2) == 3 && a.dtype().kind() == 'u' &&
                      a.dtype().itemsize() == 1;
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

// By kind and size, whatever the byte order: '>u2' is uint16 too (plane_copy converts it).
std::optional<PixelFormat> format_of(const py::array& a) {
  const char kind = a.dtype().kind();
  const py::ssize_t size = a.dtype().itemsize();
  if (kind == 'u' && size == 1) return a.ndim() == 3 ? PixelFormat::Rgb8 : PixelFormat::Gray8;
  if (kind == 'u' && size == 2) return PixelFormat::Gray16;
  if (kind == 'f' && size == 4) return PixelFormat::GrayFloat;
  return std::nullopt;
}

}  // namespace

PairLayout checked_pair_layout(const py::array& left, const py::array& right) {
  check_image(left, "left");
  check_image(right, "right");
  const std::optional<PixelFormat> format = format_of(left);
  if (!format)
    throw InputError("images of dtype " + dtype_text(left) +
                     " are not supported; use uint8 (gray or BGR), uint16 or float32");
  if (format_of(right) != format || left.ndim() != right.ndim())
    throw InputError("the left and right images differ: " + shape_text(left) + " " +
                     dtype_text(left) + " and " + shape_text(right) + " " + dtype_text(right));
  // Different sizes of the same kind go through: the engine reports them in the CLI's words.
  return {*format, static_cast<int>(left.shape(1)), static_cast<int>(left.shape(0))};
}

HostPairImages::HostPairImages(const py::array& left, const py::array& right,
                               const PairLayout& layout)
    : format_(layout.format) {
  switch (format_) {
    case PixelFormat::Rgb8:
      rgb_left_ = bgr_copy(left);
      rgb_right_ = bgr_copy(right);
      break;
    case PixelFormat::Gray8:
      gray_left_ = plane_copy<uint8_t>(left);
      gray_right_ = plane_copy<uint8_t>(right);
      break;
    case PixelFormat::Gray16:
      u16_left_ = plane_copy<uint16_t>(left);
      u16_right_ = plane_copy<uint16_t>(right);
      break;
    case PixelFormat::GrayFloat:
      f32_left_ = plane_copy<float>(left);
      f32_right_ = plane_copy<float>(right);
      break;
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
  if (std::string("biuf").find(array.dtype().kind()) == std::string::npos)
    throw InputError(std::string("the ") + what + " has dtype " + dtype_text(array) +
                     "; expected numbers (float32 or any integer or float dtype)");
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
