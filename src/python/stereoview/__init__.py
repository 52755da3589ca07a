"""stereoview from Python: the stereo matching engines, frame sources, calibration and
evaluation of the stereoview program, on NumPy arrays.

    import stereoview
    m = stereoview.Matcher(algorithm="census-sgm", p2=90)
    disparity = m.compute(left, right)   # float32 px, NaN where invalid
"""
from stereoview._stereoview import (Calibration, Source, evaluate, open_source, parameter_keys,
                                    read_image, read_pfm, write_pfm)
from stereoview.matcher import Matcher

__all__ = ["Matcher", "Calibration", "Source", "evaluate", "open_source", "parameter_keys",
           "read_image", "read_pfm", "write_pfm"]
