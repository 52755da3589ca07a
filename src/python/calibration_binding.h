#pragma once

#include <pybind11/pybind11.h>

namespace sv::python {

// stereoview.Calibration: a calibration file's rectified geometry (Q, focal length, baseline)
// and the reprojection of a disparity map to 3-D points.
void bind_calibration(pybind11::module_& module);

}  // namespace sv::python
