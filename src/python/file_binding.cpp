#include "src/python/file_binding.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <string>

#include "src/core/disparity.h"
#include "src/core/image_formats.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/io/png_io.h"
#endif
#include "src/python/argument_checks.h"
#include "src/python/array_conversion.h"
#include "src/python/python_errors.h"

namespace py = pybind11;

namespace sv::python {
namespace {

#ifdef STEREOVIEW_HAS_OPENCV
py::array_t<uint8_t> read_image(const py::object& path_object) {
  const std::string path = path_argument(path_object, "the image path");
  const ImageRgb8 image = with_file_errors(path, [&] { return read_image_rgb(path); });
  py::array_t<uint8_t> array({image.height(), image.width(), 3});
  uint8_t* bgr = array.mutable_data();
  for (size_t i = 0; i < image.size(); ++i) {
    bgr[3 * i] = image.data()[i].b;
    bgr[3 * i + 1] = image.data()[i].g;
    bgr[3 * i + 2] = image.data()[i].r;
  }
  return array;
}
#endif

// Non-finite values (Middlebury's inf for unknown) come back as NaN, like Matcher.compute's.
py::array_t<float> read_disparity_pfm(const py::object& path_object) {
  const std::string path = path_argument(path_object, "the PFM path");
  return disparity_to_array(with_file_errors(path, [&] { return read_pfm(path); }));
}

// NaN is written as inf, Middlebury's invalid disparity, as the CLI writes it.
void write_disparity_pfm(const py::object& path_object, const py::object& disparity) {
  const std::string path = path_argument(path_object, "the PFM path");
  ImageF32 image = array_to_float_image(array_argument(disparity, "the disparity"), "disparity");
  for (float& value : image.pixels())
    if (std::isnan(value)) value = kInvalidDisparity;
  try {
    write_pfm(path, image);
  } catch (const RuntimeError& error) {
    PyErr_SetString(PyExc_OSError, error.what());
    throw py::error_already_set();
  }
}

}  // namespace

void bind_files(py::module_& module) {
#ifdef STEREOVIEW_HAS_OPENCV
  module.def("read_image", &read_image, py::arg("path"));
#endif
  module.def("read_pfm", &read_disparity_pfm, py::arg("path"));
  module.def("write_pfm", &write_disparity_pfm, py::arg("path"), py::arg("disparity"));
}

}  // namespace sv::python
