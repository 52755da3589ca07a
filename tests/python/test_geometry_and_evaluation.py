"""Calibration (Q, focal length, baseline, reprojection) and evaluate() on known values."""
import numpy as np
import pytest

from conftest import needs_io

stereoview = pytest.importorskip("stereoview")

# A rectified rig: f = 500 px, principal point (32, 20), baseline 0.1 (T x = -0.1).
CALIBRATION = """%YAML:1.0
---
image_width: 64
image_height: 40
R1: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 1., 0., 0., 0., 1., 0., 0., 0., 1. ]
R2: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 1., 0., 0., 0., 1., 0., 0., 0., 1. ]
P1: !!opencv-matrix
   rows: 3
   cols: 4
   dt: d
   data: [ 500., 0., 32., 0., 0., 500., 20., 0., 0., 0., 1., 0. ]
P2: !!opencv-matrix
   rows: 3
   cols: 4
   dt: d
   data: [ 500., 0., 32., -50., 0., 500., 20., 0., 0., 0., 1., 0. ]
Q: !!opencv-matrix
   rows: 4
   cols: 4
   dt: d
   data: [ 1., 0., 0., -32., 0., 1., 0., -20., 0., 0., 0., 500., 0., 0., 10., 0. ]
"""


@pytest.fixture
def calibration(tmp_path):
    path = tmp_path / "rig.yaml"
    path.write_text(CALIBRATION)
    return stereoview.Calibration.load(str(path))


@needs_io
@pytest.mark.parametrize("size, message", [
    ({"width": -5, "height": 10}, "width=-5: the images' width must be 1..32766 pixels"),
    ({"width": 64, "height": 0}, "height=0: the images' height must be 1..32766 pixels"),
    ({"width": 40000, "height": 40}, "width=40000"),
])
def test_a_bad_image_size_is_a_value_error_naming_it(tmp_path, size, message):
    path = tmp_path / "rig.yaml"
    path.write_text(CALIBRATION)
    with pytest.raises(ValueError, match=message):
        stereoview.Calibration.load(str(path), **size)


@needs_io
def test_calibration_geometry(calibration):
    assert calibration.focal_length == pytest.approx(500)
    assert calibration.baseline == pytest.approx(0.1)
    assert calibration.Q.shape == (4, 4)
    assert calibration.Q[2, 3] == pytest.approx(500)


@needs_io
def test_reproject_gives_depth_f_b_over_d(calibration):
    disparity = np.full((40, 64), 5.0, np.float32)
    disparity[0, :] = np.nan  # invalid pixels are left out
    points = calibration.reproject(disparity)
    assert points.shape == (39 * 64, 3)
    np.testing.assert_allclose(points[:, 2], 500 * 0.1 / 5, rtol=1e-6)
    # Pixel (x=42, y=1) is the first of row 1: X = (42 - 32) * Z / f.
    np.testing.assert_allclose(points[42], [10 * 10 / 500, -19 * 10 / 500, 10], rtol=1e-6)


def test_evaluate_known_figures():
    truth = np.full((10, 10), 5.0, np.float32)
    truth[0, 0] = np.inf  # unknown: not counted
    estimate = np.full((10, 10), 5.0, np.float32)
    estimate[1, :] = 6.5       # 10 pixels off by 1.5: bad-1, not bad-2
    estimate[2, :] = np.nan    # 10 invalid: bad at every threshold, out of the density
    figures = stereoview.evaluate(estimate, truth)
    assert figures["pixels"] == 99
    assert figures["bad_1"] == pytest.approx(100 * 20 / 99)
    assert figures["bad_2"] == pytest.approx(100 * 10 / 99)
    assert figures["density"] == pytest.approx(100 * 89 / 99)
    assert figures["avg_abs_error"] == pytest.approx(10 * 1.5 / 89)


def test_evaluate_inside_a_mask():
    truth = np.full((10, 10), 5.0, np.float32)
    estimate = truth.copy()
    estimate[:, 5:] = 9.0
    mask = np.zeros((10, 10), bool)
    mask[:, :5] = True
    assert stereoview.evaluate(estimate, truth, mask=mask)["bad_1"] == 0
    assert stereoview.evaluate(estimate, truth)["bad_1"] == pytest.approx(50)


def test_evaluate_refuses_other_sizes():
    with pytest.raises(ValueError):
        stereoview.evaluate(np.zeros((4, 4), np.float32), np.zeros((4, 5), np.float32))
