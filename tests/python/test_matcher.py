"""Matcher on NumPy arrays: every input dtype, the result's conventions, parameters, presets,
pipelined batches and timings."""
import numpy as np
import pytest

from conftest import SHIFT, textured_pair

stereoview = pytest.importorskip("stereoview")


def interior(disparity):
    """Pixels away from the borders, where the synthetic pair matches everywhere."""
    return disparity[8:-8, 20:-8]


def test_gray_uint8_gives_the_known_shift(matcher, pair):
    disparity = matcher.compute(*pair)
    assert disparity.dtype == np.float32
    assert disparity.shape == pair[0].shape
    assert np.all(np.abs(interior(disparity) - SHIFT) < 0.5)


@pytest.mark.parametrize("convert", [
    pytest.param(lambda g: np.dstack([g, g, g]), id="uint8-bgr"),
    pytest.param(lambda g: g.astype(np.uint16) * 257, id="uint16"),
    pytest.param(lambda g: g.astype(np.float32) / 255, id="float32"),
    pytest.param(lambda g: (g.astype(np.uint16) * 257).astype(">u2"), id="uint16-big-endian"),
    pytest.param(lambda g: (g.astype(np.float32) / 255).astype(">f4"), id="float32-big-endian"),
    pytest.param(lambda g: np.asfortranarray(g), id="uint8-fortran-order"),
    pytest.param(lambda g: np.repeat(g, 2, axis=1)[:, ::2], id="uint8-strided-view"),
    pytest.param(lambda g: np.dstack([g, g, g])[:, :, ::-1], id="uint8-rgb-reversed-view"),
])
def test_every_input_kind_gives_the_gray_result(matcher, pair, convert):
    # Census compares values by order, so the same scene in any depth or layout matches alike.
    expected = matcher.compute(*pair)
    converted = matcher.compute(convert(pair[0]), convert(pair[1]))
    np.testing.assert_array_equal(converted, expected)


def test_invalid_pixels_are_nan_never_inf(pair):
    # Unrelated views: most matches fail the LR check, which the engine marks +inf (no filling).
    left, _ = pair
    right = np.random.default_rng(99).integers(0, 256, size=left.shape, dtype=np.uint8)
    m = stereoview.Matcher(engine="cpu", disparities=16, lr_check=True, fill_holes=False)
    disparity = m.compute(left, right)
    assert not np.isinf(disparity).any()
    assert np.isnan(disparity).mean() > 0.3


def test_fixed_point_is_the_float_result_times_16(matcher, pair):
    fixed = matcher.compute_fixed(*pair)
    disparity = matcher.compute(*pair)
    assert fixed.dtype == np.int16
    valid = ~np.isnan(disparity)
    np.testing.assert_array_equal(fixed[valid], np.round(disparity[valid] * 16).astype(np.int16))


def test_confidence_when_asked(matcher, pair):
    disparity, confidence = matcher.compute(*pair, confidence=True)
    assert confidence.shape == disparity.shape and confidence.dtype == np.float32
    assert confidence.min() >= 0 and confidence.max() <= 1
    assert interior(confidence).mean() > 0.5


def test_compute_many_yields_each_pair_in_order(matcher):
    pairs = [textured_pair(shift=s, seed=s) for s in (2, 3, 4, 5, 6)]
    results = list(matcher.compute_many(iter(pairs)))
    assert len(results) == len(pairs)
    for (left, right), result in zip(pairs, results):
        np.testing.assert_array_equal(result, matcher.compute(left, right))
    assert [int(np.median(interior(r))) for r in results] == [2, 3, 4, 5, 6]


def test_compute_many_left_early_leaves_nothing_behind(matcher, pair):
    pairs = [textured_pair(shift=2, seed=1)] * 4
    for _ in matcher.compute_many(pairs):
        break
    np.testing.assert_array_equal(matcher.compute(*pair), stereoview.Matcher(
        engine="cpu", disparities=16).compute(*pair))


def test_timings_of_the_last_frame(matcher, pair):
    matcher.compute(*pair)
    timings = matcher.timings
    assert isinstance(timings, dict) and timings
    assert all(isinstance(k, str) and v >= 0 for k, v in timings.items())


def test_every_parameter_reads_and_writes_by_name(matcher):
    params = matcher.params
    assert set(params) == set(stereoview.parameter_keys())
    for key, value in params.items():
        attribute = key.replace("-", "_") + ("_" if key == "lambda" else "")
        assert getattr(matcher, attribute) == value
        setattr(matcher, attribute, value)
    assert matcher.params == params


def test_setting_a_parameter_changes_the_result(matcher, pair):
    matcher.p2 = 90
    assert matcher.p2 == 90 and matcher.params["p2"] == 90
    matcher.adaptive_p2 = True
    assert matcher.params["adaptive-p2"] is True
    matcher.disparities = 4  # below the true shift: the interior can no longer find it
    assert not np.all(np.abs(interior(matcher.compute(*pair)) - SHIFT) < 0.5)


def test_presets_round_trip_in_the_cli_format(tmp_path, matcher):
    matcher.p2 = 77
    matcher.median = 5
    path = tmp_path / "my.preset"
    matcher.save_preset(path)
    text = path.read_text()
    assert "p2 = 77" in text and "median = 5" in text
    other = stereoview.Matcher(engine="cpu", preset=path)
    assert other.params == matcher.params


def test_cpu_threads_are_set_per_process_and_restored_by_zero():
    default = stereoview.cpu_threads()
    try:
        stereoview.set_cpu_threads(1)
        assert stereoview.cpu_threads() == 1
    finally:
        stereoview.set_cpu_threads(0)
    assert stereoview.cpu_threads() == default >= 1
    with pytest.raises(ValueError, match="a count >= 0"):
        stereoview.set_cpu_threads(-2)
