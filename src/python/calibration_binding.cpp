#include "src/python/calibration_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "src/core/length_unit.h"
#include "src/io/depth_geometry.h"
#include "src/io/stereo_calibration.h"
#include "src/python/argument_checks.h"
#include "src/python/array_conversion.h"
#include "src/python/python_errors.h"

namespace py = pybind11;

namespace sv::python {
namespace {

// The largest side OpenCV's remap takes (it asserts each side < SHRT_MAX).
constexpr int kMaxImageSide = 32766;

// An image size given by the caller, checked before the rectification maps are made of it.
void require_image_size(const char* name, std::optional<int> value) {
  if (value && (*value < 1 || *value > kMaxImageSide))
    throw InputError(std::string(name) + "=" + std::to_string(*value) + ": the images' " + name +
                     " must be 1.." + std::to_string(kMaxImageSide) + " pixels");
}

class Calibration {
 public:
  // The geometry of the views open_source yields with the same calibration: rectified at
  // `width` x `height` (the file's own size when not given) with `rectify_alpha` and
  // `swap_views`, in metres (`calib_unit`: the unit of the file's T, as --calib-unit).
  // A file with only R1 R2 P1 P2 Q describes its rectified views without a size.
  static Calibration load(const py::object& path_object, std::optional<int> width,
                          std::optional<int> height, std::optional<std::string> calib_unit,
                          double rectify_alpha, bool swap_views) {
    const std::string path = path_argument(path_object, "the calibration path");
    require_image_size("width", width);
    require_image_size("height", height);
    std::optional<LengthUnit> unit;
    if (calib_unit) {
      unit = parse_length_unit(*calib_unit);
      if (!unit) throw InputError("calib_unit must be mm, cm or m, got '" + *calib_unit + "'");
    }
    const StereoCalibration calibration =
        with_file_errors(path, [&] { return load_stereo_calibration(path); });
    const int w = width.value_or(calibration.width);
    const int h = height.value_or(calibration.height);
    Calibration loaded;
    loaded.path_ = path;
    DepthGeometry depth;
    if (w > 0 && h > 0) {
      depth = rectified_depth_geometry(calibration, unit, w, h, rectify_alpha, swap_views);
      loaded.width_ = w;
      loaded.height_ = h;
    } else if (calibration.has_rectification &&
               !(calibration.has_intrinsics && calibration.has_extrinsics)) {
      depth = metric_depth_geometry(calibration.Q, calibration, unit);
    } else {
      throw InputError("calibration \"" + path +
                       "\" states no image size, and its rectified views (their focal length "
                       "and Q) depend on it: pass width= and height=");
    }
    if (!depth.geometry) throw InputError(depth.warning);
    if (!depth.warning.empty() && PyErr_WarnEx(PyExc_UserWarning, depth.warning.c_str(), 1) != 0) {
      throw py::error_already_set();
    }
    loaded.Q_ = depth.Q;
    loaded.geometry_ = *depth.geometry;
    return loaded;
  }

  py::array_t<double> q() const {
    py::array_t<double> matrix({4, 4});
    std::copy(Q_.begin(), Q_.end(), matrix.mutable_data());
    return matrix;
  }

  // Every pixel with a finite disparity through Q: (x, y, d, 1) -> (X, Y, Z) / W, in metres;
  // pixels whose W is 0 (disparity at the offset) are left out.
  py::array_t<float> reproject(const py::object& disparity_object) const {
    const ImageF32 disparity =
        array_to_float_image(array_argument(disparity_object, "the disparity"), "disparity");
    std::vector<float> points;
    for (int y = 0; y < disparity.height(); ++y)
      for (int x = 0; x < disparity.width(); ++x) {
        const double d = disparity.at(x, y);
        if (!std::isfinite(d)) continue;
        double out[4];
        for (int r = 0; r < 4; ++r)
          out[r] = Q_[4 * r] * x + Q_[4 * r + 1] * y + Q_[4 * r + 2] * d + Q_[4 * r + 3];
        if (out[3] == 0.0) continue;
        for (int c = 0; c < 3; ++c) points.push_back(static_cast<float>(out[c] / out[3]));
      }
    py::array_t<float> result({static_cast<py::ssize_t>(points.size() / 3), py::ssize_t{3}});
    std::copy(points.begin(), points.end(), result.mutable_data());
    return result;
  }

  const std::string& path() const { return path_; }
  double focal_length() const { return geometry_.focal_length_px; }
  double baseline() const { return geometry_.baseline; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  std::string path_;
  Matrix4 Q_{};
  StereoGeometry geometry_;
  int width_ = 0, height_ = 0;
};

}  // namespace

void bind_calibration(py::module_& module) {
  py::class_<Calibration>(module, "Calibration")
      .def_static("load", &Calibration::load, py::arg("path"), py::arg("width") = py::none(),
                  py::arg("height") = py::none(), py::arg("calib_unit") = py::none(),
                  py::arg("rectify_alpha") = 0.0, py::arg("swap_views") = false)
      .def_property_readonly("Q", &Calibration::q)
      .def_property_readonly("focal_length", &Calibration::focal_length)
      .def_property_readonly("baseline", &Calibration::baseline)
      .def_property_readonly("path", &Calibration::path)
      .def_property_readonly("width", &Calibration::width)
      .def_property_readonly("height", &Calibration::height)
      .def("reproject", &Calibration::reproject, py::arg("disparity"));
}

}  // namespace sv::python
