"""On a real Middlebury pair (../shared/data or STEREO_DATA_DIR; skipped without it): the
module's disparity and evaluate() give exactly the figures of `stereoview eval`, and the example
script prints that bad-1."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

stereoview = pytest.importorskip("stereoview")
if not stereoview.has_io:
    pytest.skip("this build has no io layer (configured without OpenCV)", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("STEREO_DATA_DIR", os.path.join(SOURCE_ROOT, "..", "shared", "data"))
TEDDY = os.path.join(DATA, "middlebury2003", "teddy")


@pytest.fixture
def teddy():
    if not os.path.isdir(TEDDY):
        pytest.skip(f"no Middlebury 2003 teddy in {TEDDY} (set STEREO_DATA_DIR)")
    return TEDDY


@pytest.fixture
def eval_figures(tmp_path, cli, teddy):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    os.symlink(teddy, dataset / "teddy")
    out = subprocess.run([cli, "eval", "--dataset", str(dataset), "--engine", "cpu", "--json"],
                         check=True, capture_output=True, text=True, timeout=300).stdout
    (pair,) = json.loads(out)["pairs"]
    return pair


def mask(name):
    return stereoview.read_image(os.path.join(TEDDY, name))[:, :, 0] == 255


def test_evaluate_gives_the_figures_of_stereoview_eval(eval_figures):
    left = stereoview.read_image(os.path.join(TEDDY, "im2.png"))
    right = stereoview.read_image(os.path.join(TEDDY, "im6.png"))
    truth = stereoview.read_image(os.path.join(TEDDY, "disp2.png"))[:, :, 0] / np.float32(4)
    truth[truth == 0] = np.nan
    disparity = stereoview.Matcher(engine="cpu", disparities=64).compute(left, right)
    figures = stereoview.evaluate(disparity, truth, mask=mask("all.png"),
                                  nonocc=mask("nonocc.png"), disc=mask("disc.png"))
    assert figures["density"] == pytest.approx(eval_figures["density"], abs=1e-6)
    for region, expected in eval_figures["regions"].items():
        for key, value in expected.items():
            assert figures["regions"][region][key] == pytest.approx(value, abs=1e-6), (region, key)


def test_example_prints_the_eval_bad_1(tmp_path, eval_figures):
    script = os.path.join(SOURCE_ROOT, "src", "python", "examples", "match_middlebury.py")
    env = dict(os.environ, STEREO_DATA_DIR=DATA, MPLBACKEND="Agg", DISPLAY="")
    figure = tmp_path / "figure.png"
    out = subprocess.run([sys.executable, script, "teddy", "--engine", "cpu", "-o", str(figure)],
                         check=True, capture_output=True, text=True, timeout=300, env=env).stdout
    expected = eval_figures["regions"]["nonocc"]["bad_1"]
    assert f"bad-1 (nonocc): {expected:.2f} %" in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
