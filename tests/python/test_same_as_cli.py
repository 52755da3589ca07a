"""The module computes what the stereoview program computes: the same engine on the same pair
gives the same disparity file, through Matcher and through `python3 -m stereoview`."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import textured_pair, write_pgm

stereoview = pytest.importorskip("stereoview")
if not stereoview.has_io:
    pytest.skip("this build has no io layer (configured without OpenCV)", allow_module_level=True)


@pytest.fixture
def pair_files(tmp_path):
    left, right = textured_pair(width=72, height=48, shift=6, seed=11)
    write_pgm(tmp_path / "left.pgm", left)
    write_pgm(tmp_path / "right.pgm", right)
    return str(tmp_path / "left.pgm"), str(tmp_path / "right.pgm")


def cli_disparity(cli, left, right, out_dir, *flags):
    subprocess.run([cli, "--headless", "--engine", "cpu", "--left", left, "--right", right,
                    "--out", str(out_dir), *flags], check=True, capture_output=True, timeout=120)
    return os.path.join(out_dir, "disparity_000000.pfm")


@pytest.mark.parametrize("algorithm, flags, params", [
    ("census-sgm", ["--disparities", "16", "--lr-check", "on", "--median", "3"],
     {"disparities": 16, "lr_check": True, "median": 3}),
    ("bm-sad", ["--disparities", "16", "--window", "7"], {"disparities": 16, "window": 7}),
])
def test_matcher_equals_the_cli(tmp_path, cli, pair_files, algorithm, flags, params):
    expected = stereoview.read_pfm(
        cli_disparity(cli, *pair_files, tmp_path / "cli", "--algorithm", algorithm, *flags))
    m = stereoview.Matcher(algorithm=algorithm, engine="cpu", **params)
    left, right, info = next(iter(stereoview.open_source(left=pair_files[0], right=pair_files[1])))
    assert info["index"] == 0
    np.testing.assert_array_equal(m.compute(left, right), expected)
    assert np.isfinite(expected).sum() > expected.size // 2  # a real result, not all invalid


def test_bgr_arrays_match_as_the_cli_matches_the_colour_files(tmp_path, cli):
    # ESAW's colour weights see the colours, so B and R taken the wrong way round would differ.
    rng = np.random.default_rng(5)
    scene = rng.integers(0, 256, size=(32, 56, 3), dtype=np.uint8)
    scene[:, :, 0] //= 4  # channels of different ranges: a swap changes the weights
    left, right = scene[:, :48], scene[:, 4:52]
    for name, rgb in (("left", left), ("right", right)):
        with open(tmp_path / f"{name}.ppm", "wb") as f:
            f.write(b"P6\n48 32\n255\n" + np.ascontiguousarray(rgb).tobytes())
    expected = stereoview.read_pfm(cli_disparity(
        cli, str(tmp_path / "left.ppm"), str(tmp_path / "right.ppm"), tmp_path / "cli",
        "--algorithm", "esaw", "--disparities", "8", "--colour-weights", "on"))
    m = stereoview.Matcher(algorithm="esaw", engine="cpu", disparities=8, colour_weights=True)
    np.testing.assert_array_equal(m.compute(left[:, :, ::-1], right[:, :, ::-1]), expected)
    assert not np.array_equal(m.compute(left, right), expected, equal_nan=True)


def test_module_command_line_writes_the_cli_file(tmp_path, cli, pair_files):
    expected = cli_disparity(cli, *pair_files, tmp_path / "cli", "--disparities", "16")
    out = tmp_path / "new" / "out.pfm"  # its folder is made
    result = subprocess.run([sys.executable, "-m", "stereoview", *pair_files, "-o", str(out),
                             "--engine", "cpu", "--param", "disparities=16"],
                            check=True, capture_output=True, text=True, timeout=120)
    assert out.read_bytes() == open(expected, "rb").read()
    # One line says what was written.
    assert result.stdout == f"wrote {out}: 72x48 disparity (census-sgm, cpu engine)\n"


def test_module_command_line_reports_errors(tmp_path, pair_files):
    result = subprocess.run([sys.executable, "-m", "stereoview", *pair_files, "-o",
                             str(tmp_path / "o.pfm"), "--param", "p2=-5"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "P2 must be in 0..255" in result.stderr
    assert not (tmp_path / "o.pfm").exists()
