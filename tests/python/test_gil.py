"""The engine runs without the GIL: another Python thread makes progress during a frame."""
import threading
import time

import numpy as np
import pytest

from conftest import textured_pair

stereoview = pytest.importorskip("stereoview")


def test_a_second_thread_runs_while_a_frame_computes():
    left, right = textured_pair(width=480, height=360, shift=9)
    m = stereoview.Matcher(engine="cpu", disparities=64, paths=8)
    stop = threading.Event()
    counts = [0]

    def count():
        while not stop.is_set():
            counts[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.02)
        start_count, start = counts[0], time.perf_counter()
        m.compute(left, right)
        frame_seconds = time.perf_counter() - start
        progress = counts[0] - start_count
    finally:
        stop.set()
        counter.join()
    assert frame_seconds > 0.02, "the frame was too fast to tell"
    # With the GIL held for the frame the counter would stall (a switch or two at most).
    assert progress > 1000, f"the counter advanced {progress} times in {frame_seconds:.3f} s"
