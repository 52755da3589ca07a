#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// stereoview.read_image / read_pfm / write_pfm: the CLI's image and disparity file formats.
void bind_files(pybind11::module_& module);

}  // namespace sv::python
