#pragma once

#include <pybind11/numpy.h>

#include <string>

namespace sv::python {

// Arguments taken as plain Python objects and checked here, so that a wrong type (a list, None)
// is a TypeError naming what is expected, not pybind11's list of signatures with the module's
// internal class names. `what` names the argument in the message ("the left image").

// A NumPy array.
pybind11::array array_argument(const pybind11::handle& value, const std::string& what);
// A str or os.PathLike (pathlib.Path), as its text.
std::string path_argument(const pybind11::handle& value, const std::string& what);

}  // namespace sv::python
