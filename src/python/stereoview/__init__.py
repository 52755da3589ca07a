"""stereoview from Python: the stereo matching engines, frame sources, calibration and
evaluation of the stereoview program, on NumPy arrays.

    import stereoview
    m = stereoview.Matcher(algorithm="census-sgm", p2=90)
    disparity = m.compute(left, right)   # float32 px, NaN where invalid
"""
from stereoview._stereoview import (cpu_threads, evaluate, has_io, parameter_keys, read_pfm,
                                    set_cpu_threads, write_pfm)
from stereoview.matcher import Matcher

if has_io:
    from stereoview._stereoview import (Calibration, Source, open_source, read_image,
                                        write_color_png)
else:
    # A build without OpenCV (the io layer): these names exist, and say why they cannot work.
    def _needs_io(name):
        def missing(*args, **kwargs):
            raise RuntimeError(f"stereoview.{name}: this build of stereoview has no io layer "
                               "(it was configured without OpenCV); the engines, evaluate() "
                               "and the PFM files work")
        missing.__name__ = name
        return missing

    open_source = _needs_io("open_source")
    write_color_png = _needs_io("write_color_png")
    read_image = _needs_io("read_image")

    class _NeedsIo:
        def __init__(self, name):
            self._name = name

        def __getattr__(self, attribute):
            return _needs_io(f"{self._name}.{attribute}")

        def __call__(self, *args, **kwargs):
            return _needs_io(self._name)()

    Calibration = _NeedsIo("Calibration")
    Source = _NeedsIo("Source")

# After the names it uses; it imports Dask only when it runs.
from stereoview.batch import batch  # noqa: E402

__all__ = ["Matcher", "Calibration", "Source", "batch", "cpu_threads", "evaluate", "has_io",
           "open_source", "parameter_keys", "read_image", "read_pfm", "set_cpu_threads",
           "write_color_png", "write_pfm"]
