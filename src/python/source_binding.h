#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// stereoview.open_source: a frame source named by the CLI's source flags, iterated from Python.
void bind_source(pybind11::module_& module);

}  // namespace sv::python
