"""open_source over the kinds of sources the CLI reads: a stereo video (side by side), an image
sequence, a Middlebury dataset folder; what it yields equals what was written, and a Matcher over
it equals the CLI's run on the same source."""
import os
import subprocess

import numpy as np
import pytest

from conftest import textured_pair, write_pgm

stereoview = pytest.importorskip("stereoview")
if not stereoview.has_io:
    pytest.skip("this build has no io layer (configured without OpenCV)", allow_module_level=True)

DATA = os.environ.get("STEREO_DATA_DIR",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))


def run_cli(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True, timeout=120)


def test_a_side_by_side_video_yields_every_frame_and_matches_like_the_cli(tmp_path, cli):
    video = str(tmp_path / "pair.mp4")
    run_cli(cli, "--headless", "--engine", "cpu", "--size", "64x48", "--disparities", "16",
            "--frames", "5", "--record", video, "--record-format", "raw")
    source = stereoview.open_source(sbs=video)
    frames = list(source)
    assert len(frames) == 5
    assert [info["index"] for _, _, info in frames] == [0, 1, 2, 3, 4]
    times = [info["timestamp_s"] for _, _, info in frames]
    assert times == sorted(times) and times[0] < times[-1]
    for left, right, _ in frames:
        assert left.shape == (48, 64, 3) and right.shape == (48, 64, 3)
        assert left.dtype == np.uint8 and not np.array_equal(left, right)

    out = tmp_path / "cli"
    run_cli(cli, "--headless", "--engine", "cpu", "--sbs", video, "--disparities", "16",
            "--out", str(out))
    matcher = stereoview.Matcher(engine="cpu", disparities=16)
    for n, result in enumerate(matcher.compute_many((l, r) for l, r, _ in frames)):
        expected = stereoview.read_pfm(str(out / f"disparity_{n:06d}.pfm"))
        np.testing.assert_array_equal(result, expected)


def test_an_image_sequence_yields_the_written_images_in_order(tmp_path):
    written = []
    for n in range(3):
        left, right = textured_pair(width=40, height=24, shift=3, seed=20 + n)
        write_pgm(tmp_path / f"left_{n}.pgm", left)
        write_pgm(tmp_path / f"right_{n}.pgm", right)
        written.append((left, right))
    source = stereoview.open_source(left=str(tmp_path / "left_%d.pgm"),
                                    right=str(tmp_path / "right_%d.pgm"))
    frames = list(source)
    assert len(frames) == 3
    for (left, right), (got_left, got_right, info) in zip(written, frames):
        # Gray files come back as BGR with three equal channels.
        for plane in range(3):
            np.testing.assert_array_equal(got_left[:, :, plane], left)
            np.testing.assert_array_equal(got_right[:, :, plane], right)


def test_a_middlebury_dataset_folder(tmp_path):
    teddy = os.path.join(DATA, "middlebury2003", "teddy")
    if not os.path.isdir(teddy):
        pytest.skip(f"no Middlebury 2003 teddy in {teddy} (set STEREO_DATA_DIR)")
    left, right, info = next(iter(stereoview.open_source(dataset=teddy)))
    expected_left = stereoview.read_image(os.path.join(teddy, "im2.png"))
    np.testing.assert_array_equal(left, expected_left)
    assert right.shape == left.shape and info["index"] == 0
