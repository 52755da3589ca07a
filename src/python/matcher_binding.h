#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// _stereoview._Matcher: one engine and its parameters; the Python Matcher (stereoview/
// matcher.py) adds the keyword and attribute access and compute_many on top.
void bind_matcher(pybind11::module_& module);

}  // namespace sv::python
