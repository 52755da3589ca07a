#include "src/python/evaluation_binding.h"

#include <pybind11/numpy.h>

#include "src/core/evaluation.h"
#include "src/python/argument_checks.h"
#include "src/python/array_conversion.h"

namespace py = pybind11;

namespace sv::python {
namespace {

py::dict region_figures(const RegionErrors& region) {
  py::dict figures;
  figures["pixels"] = region.pixels;
  figures["bad_0_5"] = region.bad_0_5;
  figures["bad_1"] = region.bad_1;
  figures["bad_2"] = region.bad_2;
  figures["bad_4"] = region.bad_4;
  figures["avg_abs_error"] = region.avg_abs_error;
  figures["bad_1_kept"] = region.bad_1_kept;
  return figures;
}

ImageU8 optional_mask(const py::object& mask, const char* name) {
  return mask.is_none() ? ImageU8{} : array_to_mask(array_argument(mask, name));
}

// The figures of the region `mask` selects ("all"), with nonocc / disc where given, each a dict
// of percentages as `stereoview eval --json` names them, plus the density; the region "all"'s
// figures are also at the top level. Non-finite estimates are invalid (NaN or inf), non-finite
// ground truth unknown.
py::dict evaluate(const py::object& disparity, const py::object& ground_truth,
                  const py::object& mask, const py::object& nonocc, const py::object& disc) {
  const ImageF32 estimate =
      array_to_float_image(array_argument(disparity, "the disparity"), "disparity");
  const ImageF32 truth =
      array_to_float_image(array_argument(ground_truth, "the ground truth"), "ground truth");
  EvaluationMasks masks;
  masks.all = optional_mask(mask, "mask");
  masks.nonocc = optional_mask(nonocc, "nonocc");
  masks.disc = optional_mask(disc, "disc");
  DisparityEvaluation evaluation;
  {
    py::gil_scoped_release release;
    evaluation = evaluate_disparity(estimate, truth, masks);
  }
  py::dict result;
  py::dict regions;
  for (const RegionErrors& region : evaluation.regions)
    regions[py::str(region.region)] = region_figures(region);
  if (const RegionErrors* all = evaluation.find("all"))
    for (const auto& item : region_figures(*all)) result[item.first] = item.second;
  result["density"] = evaluation.density;
  result["regions"] = regions;
  return result;
}

}  // namespace

void bind_evaluation(py::module_& module) {
  module.def("evaluate", &evaluate, py::arg("disparity"), py::arg("ground_truth"),
             py::arg("mask") = py::none(), py::arg("nonocc") = py::none(),
             py::arg("disc") = py::none());
}

}  // namespace sv::python
