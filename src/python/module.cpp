// The compiled half of the `stereoview` Python package (stereoview/__init__.py re-exports it).
#include <pybind11/pybind11.h>

#include "src/python/calibration_binding.h"
#include "src/python/evaluation_binding.h"
#include "src/python/file_binding.h"
#include "src/python/matcher_binding.h"
#include "src/python/python_errors.h"
#include "src/python/source_binding.h"

PYBIND11_MODULE(_stereoview, module) {
  module.doc() = "stereoview's stereo matching engines, sources and evaluation";
  sv::python::register_error_translators();
  sv::python::bind_matcher(module);
  sv::python::bind_evaluation(module);
  sv::python::bind_calibration(module);
  sv::python::bind_source(module);
  sv::python::bind_files(module);
}
