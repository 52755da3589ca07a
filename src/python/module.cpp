// The compiled half of the `stereoview` Python package (stereoview/__init__.py re-exports it).
#include <pybind11/pybind11.h>

#include "src/python/evaluation_binding.h"
#include "src/python/file_binding.h"
#include "src/python/matcher_binding.h"
#include "src/python/python_errors.h"
#ifdef STEREOVIEW_HAS_OPENCV
#include "src/python/calibration_binding.h"
#include "src/python/source_binding.h"
#endif

PYBIND11_MODULE(_stereoview, module) {
  module.doc() = "stereoview's stereo matching engines, sources and evaluation";
  sv::python::register_error_translators();
  sv::python::bind_matcher(module);
  sv::python::bind_evaluation(module);
  sv::python::bind_files(module);
#ifdef STEREOVIEW_HAS_OPENCV
  sv::python::bind_calibration(module);
  sv::python::bind_source(module);
  module.attr("has_io") = true;
#else
  // A core-only build (no OpenCV): engines, evaluation and PFM files only; __init__.py makes the
  // io layer's names raise with this reason.
  module.attr("has_io") = false;
#endif
}
