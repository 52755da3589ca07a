"""One Matcher or one source shared by several Python threads: every thread gets its own
results, every frame goes to exactly one thread, nothing aborts or hangs."""
import subprocess
import threading

import numpy as np
import pytest

from conftest import textured_pair

stereoview = pytest.importorskip("stereoview")

THREADS = 4
CALLS = 40


def distinct_pairs(count):
    """Pairs of different textures and shifts (1..15 px), so that a result computed from
    another thread's pair differs from the right one."""
    return [textured_pair(width=80, height=40, shift=1 + n % 15, seed=100 + n)
            for n in range(count)]


def run_threads(work, count):
    """Runs work(n) on `count` threads at once; returns the exceptions they raised."""
    errors = []
    start = threading.Barrier(count)

    def run(n):
        try:
            start.wait()
            work(n)
        except Exception as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hangs"
    return errors


def test_threads_sharing_a_matcher_each_get_their_own_results():
    m = stereoview.Matcher(engine="cpu", disparities=16)
    pairs = distinct_pairs(THREADS * CALLS)
    expected = [m.compute_fixed(left, right) for left, right in pairs]
    expected_float = [m.compute(left, right) for left, right in pairs]
    wrong = []

    # Thread 0 and 1 call compute_fixed, thread 2 compute, thread 3 streams through compute_many.
    def work(n):
        mine = range(n * CALLS, (n + 1) * CALLS)
        if n == 3:
            results = m.compute_many(pairs[i] for i in mine)
        elif n == 2:
            results = (m.compute(*pairs[i]) for i in mine)
        else:
            results = (m.compute_fixed(*pairs[i]) for i in mine)
        reference = expected_float if n >= 2 else expected
        for i, result in zip(mine, results):
            if not np.array_equal(result, reference[i], equal_nan=True):
                wrong.append(i)

    assert run_threads(work, THREADS) == []
    assert wrong == [], f"{len(wrong)} of {THREADS * CALLS} results belong to another pair"


def test_compute_between_the_frames_of_compute_many_gets_its_own_result():
    m = stereoview.Matcher(engine="cpu", disparities=16)
    pairs = distinct_pairs(4)
    expected = [m.compute(left, right) for left, right in pairs]
    stream = m.compute_many(pairs[:3])
    # The stream keeps its second pair in the engine while it hands over the first.
    np.testing.assert_array_equal(next(stream), expected[0])
    np.testing.assert_array_equal(m.compute(*pairs[3]), expected[3])
    np.testing.assert_array_equal(list(stream), expected[1:3])


def test_a_bad_frame_in_a_stream_fails_only_itself(matcher, pair):
    bad = (np.zeros((40, 64), np.uint8), np.zeros((40, 60), np.uint8))
    stream = matcher.compute_many([pair, bad, pair])
    first = next(stream)
    with pytest.raises(ValueError):
        next(stream)
    np.testing.assert_array_equal(matcher.compute(*pair), first)


def test_threads_sharing_a_video_source_get_every_frame_once(tmp_path, cli):
    if not stereoview.has_io:
        pytest.skip("this build has no io layer (configured without OpenCV)")
    video = str(tmp_path / "pair.mp4")
    frames = 30
    subprocess.run([cli, "--headless", "--engine", "cpu", "--size", "64x48", "--disparities",
                    "16", "--frames", str(frames), "--record", video, "--record-format", "raw"],
                   check=True, capture_output=True, timeout=120)
    source = stereoview.open_source(sbs=video)
    indices = [[] for _ in range(3)]

    def work(n):
        for left, right, info in source:
            assert left.shape == (48, 64, 3) and right.shape == (48, 64, 3)
            indices[n].append(info["index"])

    assert run_threads(work, 3) == []
    assert sorted(sum(indices, [])) == list(range(frames))
