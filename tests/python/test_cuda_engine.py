"""The CUDA engine through the module equals the CPU engine bit for bit (skipped, with the
reason, where the build has no CUDA engine or the machine no CUDA device)."""
import numpy as np
import pytest

from conftest import cuda_matcher, textured_pair

stereoview = pytest.importorskip("stereoview")


def smooth_pair(width, height, shift, seed):
    """A pair with smooth texture (a blurred random field), so SGM's smoothness matters."""
    rng = np.random.default_rng(seed)
    field = rng.random((height // 4 + 2, (width + shift) // 4 + 2))
    scene = np.kron(field, np.ones((4, 4)))[:height, :width + shift]
    scene = (scene * 255).astype(np.uint8)
    return np.ascontiguousarray(scene[:, :width]), np.ascontiguousarray(scene[:, shift:])


CASES = [
    ("census-sgm", {"disparities": 64}),
    ("census-sgm", {"disparities": 128, "paths": 4}),
    ("census-sgm", {"disparities": 64, "min_disparity": 4, "lr_check": False}),
    ("bm-sad", {"disparities": 64, "window": 9}),
]


@pytest.mark.parametrize("algorithm, params", CASES)
def test_cuda_equals_cpu_bit_for_bit(algorithm, params):
    gpu = cuda_matcher(algorithm=algorithm, **params)
    cpu = stereoview.Matcher(algorithm=algorithm, engine="cpu", **params)
    assert gpu.engine == "cuda"
    for left, right in (smooth_pair(320, 240, 9, seed=3), textured_pair(257, 131, 13, seed=5)):
        expected = cpu.compute_fixed(left, right)
        result = gpu.compute_fixed(left, right)
        assert result.dtype == np.int16 and result.shape == left.shape
        assert np.array_equal(result, expected)


def test_cuda_colour_and_16_bit_input_equal_cpu():
    gpu = cuda_matcher(disparities=64)
    cpu = stereoview.Matcher(engine="cpu", disparities=64)
    left, right = smooth_pair(320, 240, 7, seed=9)
    bgr = (np.dstack([left, left // 2, 255 - left]), np.dstack([right, right // 2, 255 - right]))
    assert np.array_equal(gpu.compute_fixed(*bgr), cpu.compute_fixed(*bgr))
    deep = (left.astype(np.uint16) * 257, right.astype(np.uint16) * 257)
    assert np.array_equal(gpu.compute_fixed(*deep), cpu.compute_fixed(*deep))


def test_cuda_float_result_and_pipelined_frames():
    gpu = cuda_matcher(disparities=64)
    cpu = stereoview.Matcher(engine="cpu", disparities=64)
    pairs = [smooth_pair(320, 240, shift, seed=shift) for shift in (3, 6, 9, 12, 15)]
    results = list(gpu.compute_many(pairs))
    assert len(results) == len(pairs)
    for (left, right), result in zip(pairs, results):
        np.testing.assert_array_equal(result, cpu.compute(left, right))
    assert "sgm" in " ".join(gpu.timings)
