"""Shared fixtures: a small textured pair with a known shift, made here (no data files)."""
import os

import numpy as np
import pytest

stereoview = pytest.importorskip(
    "stereoview", reason="the stereoview module is not on PYTHONPATH (not built?)")

# Tests of the io layer (sources, calibration, image files): a build without OpenCV has none.
needs_io = pytest.mark.skipif(not stereoview.has_io,
                              reason="this build has no io layer (configured without OpenCV)")

# The true disparity of the synthetic pair: left pixel x shows what right pixel x - SHIFT shows.
SHIFT = 5
WIDTH, HEIGHT = 64, 40


def textured_pair(width=WIDTH, height=HEIGHT, shift=SHIFT, seed=7):
    """8-bit gray left and right views of a random texture, the right shifted by `shift`."""
    rng = np.random.default_rng(seed)
    scene = rng.integers(0, 256, size=(height, width + shift), dtype=np.uint8)
    left = np.ascontiguousarray(scene[:, :width])
    right = np.ascontiguousarray(scene[:, shift:])
    return left, right


def write_pgm(path, image):
    """An 8-bit gray image as a binary PGM, which every build reads."""
    height, width = image.shape
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (width, height) + image.astype(np.uint8).tobytes())


def cuda_matcher(**params):
    """A Matcher on the CUDA engine, or the test skips with the reason there is none."""
    try:
        return stereoview.Matcher(engine="cuda", **params)
    except (RuntimeError, ValueError) as error:
        pytest.skip(f"no CUDA engine here: {error}")


@pytest.fixture
def pair():
    return textured_pair()


@pytest.fixture
def matcher():
    return stereoview.Matcher(algorithm="census-sgm", engine="cpu", disparities=16)


@pytest.fixture
def cli():
    """The stereoview program beside the module in the build tree (STEREOVIEW_CLI)."""
    path = os.environ.get("STEREOVIEW_CLI", "")
    if not os.path.exists(path):
        pytest.skip("STEREOVIEW_CLI does not name the built stereoview program")
    return path
