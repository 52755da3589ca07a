#include "src/python/file_binding.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <string>

#include "src/core/colorize.h"
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

// A disparity array as the engines give it to the CLI's writers: NaN (the module's invalid)
// back to kInvalidDisparity.
ImageF32 engine_disparity(const py::object& disparity) {
  ImageF32 image = array_to_float_image(array_argument(disparity, "the disparity"), "disparity");
  for (float& value : image.pixels())
    if (std::isnan(value)) value = kInvalidDisparity;
  return image;
}

// A file that cannot be written is an OSError, as Python's own writers raise.
template <typename Write>
void with_write_errors(Write&& write) {
  try {
    write();
  } catch (const RuntimeError& error) {
    PyErr_SetString(PyExc_OSError, error.what());
    throw py::error_already_set();
  }
}

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

// The colour image `stereoview --headless --out` writes beside each PFM: the disparity
// colorized over [min_value, max_value] (invalid black), as a PNG.
void write_color_png(const py::object& path_object, const py::object& disparity, float min_value,
                     float max_value, const std::string& colormap) {
  const std::string path = path_argument(path_object, "the PNG path");
  const Colormap map = parse_colormap(colormap);
  const ImageF32 image = engine_disparity(disparity);
  with_write_errors([&] { write_png(path, colorize_disparity(image, min_value, max_value, map)); });
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
  const ImageF32 image = engine_disparity(disparity);
  with_write_errors([&] { write_pfm(path, image); });
}

}  // namespace

void bind_files(py::module_& module) {
#ifdef STEREOVIEW_HAS_OPENCV
  module.def("read_image", &read_image, py::arg("path"));
  module.def("write_color_png", &write_color_png, py::arg("path"), py::arg("disparity"),
             py::arg("min_value"), py::arg("max_value"), py::arg("colormap") = "turbo");
#endif
  module.def("read_pfm", &read_disparity_pfm, py::arg("path"));
  module.def("write_pfm", &write_disparity_pfm, py::arg("path"), py::arg("disparity"));
}

}  // namespace sv::python
