"""Depth in metres from the rectified views (issue 39): a textured plane at a known depth, seen by
a raw, toed-in rig whose calibration gives T in millimetres and a stale P1 P2 Q, is matched on
the pairs open_source rectifies and reprojected by Calibration: its depth is the plane's."""
import numpy as np
import pytest

from conftest import needs_io, write_pgm

stereoview = pytest.importorskip("stereoview")

WIDTH, HEIGHT = 320, 240
F, CX, CY = 400.0, 159.5, 119.5
BASELINE_MM = 60.0
PLANE_MM = 1000.0


def rotation():
    """A rig toed in by 2 degrees and tilted by 0.5: its rectified focal length is not K's."""
    a, b = np.radians(2.0), np.radians(0.5)
    ry = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    rx = np.array([[1, 0, 0], [0, np.cos(b), -np.sin(b)], [0, np.sin(b), np.cos(b)]])
    return ry @ rx


def matrix(name, rows, cols, values):
    data = ", ".join(repr(float(v)) for v in np.ravel(values))
    return (f"{name}: !!opencv-matrix\n   rows: {rows}\n   cols: {cols}\n   dt: d\n"
            f"   data: [ {data} ]\n")


def write_calibration(path, unit=None, size=True):
    K = [[F, 0, CX], [0, F, CY], [0, 0, 1]]
    stale_p1 = [[300, 0, CX, 0], [0, 300, CY, 0], [0, 0, 1, 0]]
    stale_p2 = [[300, 0, CX, -300 * BASELINE_MM], [0, 300, CY, 0], [0, 0, 1, 0]]
    stale_q = [[1, 0, 0, -CX], [0, 1, 0, -CY], [0, 0, 0, 300], [0, 0, 1 / BASELINE_MM, 0]]
    text = "%YAML:1.0\n---\n"
    if size:
        text += f"image_width: {WIDTH}\nimage_height: {HEIGHT}\n"
    text += (matrix("K1", 3, 3, K) + matrix("D1", 1, 5, [0] * 5) + matrix("K2", 3, 3, K) +
             matrix("D2", 1, 5, [0] * 5) + matrix("R", 3, 3, rotation()) +
             matrix("T", 3, 1, [-BASELINE_MM, 0, 0]) + matrix("R1", 3, 3, np.eye(3)) +
             matrix("R2", 3, 3, np.eye(3)) + matrix("P1", 3, 4, stale_p1) +
             matrix("P2", 3, 4, stale_p2) + matrix("Q", 4, 4, stale_q))
    if unit:
        text += f"translation_unit: {unit}\n"
    path.write_text(text)
    return str(path)


def texture(x_mm, y_mm):
    """A random texture on the plane, 4 mm cells, sampled bilinearly."""
    cells = np.random.default_rng(3).integers(0, 256, size=(400, 600)).astype(np.float64)
    gx = np.clip(x_mm / 4.0 + 300.0, 0, 598.999)
    gy = np.clip(y_mm / 4.0 + 200.0, 0, 398.999)
    x0, y0 = gx.astype(int), gy.astype(int)
    fx, fy = gx - x0, gy - y0
    top = cells[y0, x0] * (1 - fx) + cells[y0, x0 + 1] * fx
    bottom = cells[y0 + 1, x0] * (1 - fx) + cells[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def render_raw_views():
    """The plane Z = PLANE_MM of camera 1 in camera 1 and camera 2 (X2 = R X1 + T)."""
    u, v = np.meshgrid(np.arange(WIDTH, dtype=np.float64), np.arange(HEIGHT, dtype=np.float64))
    rays = np.stack([(u - CX) / F, (v - CY) / F, np.ones_like(u)], axis=-1)
    left = texture(rays[..., 0] * PLANE_MM, rays[..., 1] * PLANE_MM)
    R, T = rotation(), np.array([-BASELINE_MM, 0, 0])
    centre = -R.T @ T                      # camera 2's centre in camera 1's frame
    directions = rays @ R                  # R^T r for each ray
    t = (PLANE_MM - centre[2]) / directions[..., 2]
    points = centre + directions * t[..., None]
    right = texture(points[..., 0], points[..., 1])
    return left.round().astype(np.uint8), right.round().astype(np.uint8)


@pytest.fixture
def raw_pair(tmp_path):
    left, right = render_raw_views()
    write_pgm(tmp_path / "left.pgm", left)
    write_pgm(tmp_path / "right.pgm", right)
    return str(tmp_path / "left.pgm"), str(tmp_path / "right.pgm")


def plane_depth(calibration_path, left_path, right_path, **unit):
    source = stereoview.open_source(left=left_path, right=right_path, calib=calibration_path, **unit)
    left, right, _ = next(iter(source))
    disparity = stereoview.Matcher(algorithm="census-sgm", engine="cpu",
                                   disparities=64).compute(left, right)
    calibration = stereoview.Calibration.load(calibration_path, **unit)
    points = calibration.reproject(disparity)
    return float(np.median(points[:, 2])), calibration


@needs_io
def test_a_plane_is_at_its_depth_in_metres_through_the_rectified_views(tmp_path, raw_pair):
    path = write_calibration(tmp_path / "rig.yaml", unit="mm")
    depth, calibration = plane_depth(path, *raw_pair)
    # Toed in by 2 degrees, the rectified plane leans by 1: its median depth stays within 0.5 %.
    assert depth == pytest.approx(PLANE_MM / 1000.0, rel=0.01)
    assert calibration.baseline == pytest.approx(BASELINE_MM / 1000.0, rel=1e-9)
    assert calibration.focal_length != pytest.approx(300.0, rel=0.05)  # not the stale P's
    # The unit given as the CLI's flag instead of by the file: the same depth.
    stated = write_calibration(tmp_path / "stated.yaml")
    assert plane_depth(stated, *raw_pair, calib_unit="mm")[0] == pytest.approx(depth, rel=1e-6)


@needs_io
def test_a_calibration_that_must_be_rectified_needs_the_image_size(tmp_path):
    path = write_calibration(tmp_path / "no_size.yaml", unit="mm", size=False)
    with pytest.raises(ValueError, match="pass width= and height="):
        stereoview.Calibration.load(path)
    sized = stereoview.Calibration.load(path, width=WIDTH, height=HEIGHT)
    assert sized.baseline == pytest.approx(BASELINE_MM / 1000.0, rel=1e-9)


@needs_io
def test_millimetres_without_a_unit_are_refused_naming_the_units_that_fit(tmp_path):
    path = write_calibration(tmp_path / "no_unit.yaml")
    with pytest.raises(ValueError, match=r"is its T in millimetres \(0\.06 m\) or centimetres"):
        stereoview.Calibration.load(path)
    with pytest.warns(UserWarning, match="which no stereo rig has"):
        stereoview.Calibration.load(path, calib_unit="m")
    with pytest.raises(ValueError, match="calib_unit must be mm, cm or m"):
        stereoview.Calibration.load(path, calib_unit="inch")
