"""Errors as Python exceptions with the CLI's messages: ValueError for parameters and shapes,
OSError for files, RuntimeError for the engine."""
import numpy as np
import pytest

from conftest import needs_io

stereoview = pytest.importorskip("stereoview")


def test_out_of_range_parameter_is_a_value_error_and_changes_nothing(matcher):
    with pytest.raises(ValueError, match="P2 must be in 0..255, got -1"):
        matcher.p2 = -1
    assert matcher.p2 == stereoview.Matcher(engine="cpu").p2


def test_unparsable_parameter_value(matcher):
    with pytest.raises(ValueError, match='--paths: "many" is not'):
        matcher.paths = "many"


def test_unknown_parameter_and_algorithm():
    with pytest.raises(ValueError, match='unknown parameter "p3"'):
        stereoview.Matcher(engine="cpu", p3=1)
    with pytest.raises(ValueError, match='unknown algorithm "nope"'):
        stereoview.Matcher(algorithm="nope", engine="cpu")


def test_unknown_engine():
    with pytest.raises(ValueError, match='--engine must be cpu, reference, cuda or auto, got "bogus"'):
        stereoview.Matcher(engine="bogus")


@pytest.mark.parametrize("left, right, message", [
    (np.zeros((8, 8), np.int32), np.zeros((8, 8), np.int32), "dtype int32"),
    (np.zeros((8, 8, 4), np.uint8), np.zeros((8, 8, 4), np.uint8), r"\(8, 8, 4\)"),
    (np.zeros((8, 8), np.uint8), np.zeros((8, 8), np.uint16), "differ"),
    (np.zeros(8, np.uint8), np.zeros(8, np.uint8), r"shape \(8,\)"),
    (np.zeros((0, 8), np.uint8), np.zeros((0, 8), np.uint8), "empty"),
])
def test_bad_arrays_are_value_errors(matcher, left, right, message):
    with pytest.raises(ValueError, match=message):
        matcher.compute(left, right)


@pytest.mark.parametrize("value, type_name", [([[0, 1], [2, 3]], "list"), (None, "NoneType")])
def test_a_list_or_none_for_an_array_is_a_type_error_saying_what_is_expected(
        tmp_path, matcher, pair, value, type_name):
    calls = [
        (lambda: matcher.compute(value, pair[1]), "the left image"),
        (lambda: matcher.compute_fixed(pair[0], value), "the right image"),
        (lambda: list(matcher.compute_many([(pair[0], value)])), "the right image"),
        (lambda: stereoview.evaluate(value, pair[0]), "the disparity"),
        (lambda: stereoview.write_pfm(str(tmp_path / "d.pfm"), value), "the disparity"),
    ]
    if value is not None:  # no mask
        calls.append((lambda: stereoview.evaluate(pair[0], pair[0], mask=value), "mask"))
    for call, what in calls:
        with pytest.raises(TypeError) as error:
            call()
        assert str(error.value) == f"{what} must be a NumPy array, not {type_name}"


@pytest.mark.parametrize("value, type_name", [(["rig.yaml"], "list"), (None, "NoneType")])
def test_a_list_or_none_for_a_path_is_a_type_error_saying_what_is_expected(
        matcher, value, type_name):
    calls = [(lambda: stereoview.read_pfm(value), "the PFM path"),
             (lambda: matcher.load_preset(value), "the preset path"),
             (lambda: matcher.save_preset(value), "the preset path")]
    if stereoview.has_io:
        calls += [(lambda: stereoview.Calibration.load(value), "the calibration path"),
                  (lambda: stereoview.read_image(value), "the image path"),
                  (lambda: stereoview.open_source(left=value, right="r.png"),
                   "the value of left=")]
    for call, what in calls:
        with pytest.raises(TypeError) as error:
            call()
        assert str(error.value) == f"{what} must be a str or os.PathLike path, not {type_name}"


def test_paths_may_be_pathlib_paths(tmp_path):
    path = tmp_path / "d.pfm"
    stereoview.write_pfm(path, np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(stereoview.read_pfm(path), np.ones((2, 3), np.float32))


def test_big_endian_arrays_of_different_kinds_still_say_they_differ(matcher):
    with pytest.raises(ValueError, match=r"differ: \(8, 8\) >u2 and \(8, 8\) >f4"):
        matcher.compute(np.zeros((8, 8), ">u2"), np.zeros((8, 8), ">f4"))


def test_different_sizes_are_a_value_error_and_the_engine_goes_on(matcher, pair):
    with pytest.raises(ValueError):
        matcher.compute(np.zeros((40, 64), np.uint8), np.zeros((40, 60), np.uint8))
    assert matcher.compute(*pair).shape == pair[0].shape


def test_missing_files_are_os_errors(tmp_path, matcher):
    with pytest.raises(OSError, match="missing.preset"):
        matcher.load_preset(tmp_path / "missing.preset")
    with pytest.raises(OSError):
        stereoview.read_pfm(str(tmp_path / "missing.pfm"))
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    with pytest.raises(OSError):
        stereoview.write_pfm(str(blocker / "x.pfm"), np.zeros((2, 2), np.float32))


def test_a_bad_preset_is_a_value_error(tmp_path, matcher):
    path = tmp_path / "bad.preset"
    path.write_text("p2 = lots\n")
    with pytest.raises(ValueError, match="p2"):
        matcher.load_preset(path)


@needs_io
def test_a_missing_calibration_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        stereoview.Calibration.load(str(tmp_path / "missing.yaml"))


@pytest.mark.skipif(stereoview.has_io, reason="this build has the io layer")
def test_without_io_its_names_say_why():
    for call in (lambda: stereoview.open_source(left="l.png", right="r.png"),
                 lambda: stereoview.read_image("l.png"),
                 lambda: stereoview.Calibration.load("rig.yaml")):
        with pytest.raises(RuntimeError, match="no io layer"):
            call()


@needs_io
def test_source_flags_are_checked(tmp_path):
    with pytest.raises(ValueError, match="unknown option"):
        stereoview.open_source(frobnicate=1)
    with pytest.raises(OSError, match="nothere"):
        next(iter(stereoview.open_source(left=str(tmp_path / "nothere.png"),
                                         right=str(tmp_path / "nothere2.png"))))
