#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// stereoview.evaluate: the figures of `stereoview eval` (evaluation.h) for one disparity map.
void bind_evaluation(pybind11::module_& module);

}  // namespace sv::python
