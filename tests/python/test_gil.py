"""The engine runs without the GIL: another Python thread makes progress during a frame."""
import threading
import time

import numpy as np
import pytest

from conftest import textured_pair

stereoview = pytest.importorskip("stereoview")


def test_a_second_thread_runs_while_a_frame_computes():
    left, right = textured_pair(width=480, height=360, shift=9)
    # The reference engine: slow enough on any machine for the counter to show its pace (the SIMD
    # CPU engine may finish the frame in tens of milliseconds).
    m = stereoview.Matcher(engine="reference", disparities=64, paths=8)
    stop = threading.Event()
    stamps = []

    def count():
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                stamps.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.02)
        start = time.perf_counter()
        m.compute(left, right)
        end = time.perf_counter()
    finally:
        stop.set()
        counter.join()
    frame_seconds = end - start
    assert frame_seconds > 0.1, "the frame was too fast to tell"
    # With the GIL held while the engine works the counter could only run within the switch
    # interval (5 ms) at the frame's ends; without it, it runs all through. The middle half of
    # the frame is far from both ends, whatever the machine's load makes of the counter's pace.
    middle = [t for t in stamps if start + frame_seconds / 4 < t < end - frame_seconds / 4]
    assert middle, f"the counter never ran in the middle of a {frame_seconds:.3f} s frame"
