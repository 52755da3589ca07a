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
    counts = [0]

    def count():
        while not stop.is_set():
            counts[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        # The counter's own pace, while this thread sleeps without the GIL.
        time.sleep(0.02)
        idle_count, idle_start = counts[0], time.perf_counter()
        time.sleep(0.1)
        rate = (counts[0] - idle_count) / (time.perf_counter() - idle_start)
        start_count, start = counts[0], time.perf_counter()
        m.compute(left, right)
        frame_seconds = time.perf_counter() - start
        progress = counts[0] - start_count
    finally:
        stop.set()
        counter.join()
    assert frame_seconds > 0.1, "the frame was too fast to tell"
    # With the GIL held while the engine works the counter only runs in the switch interval
    # (5 ms) between Python calls: a few percent of the frame; without it, about half its pace
    # (the two threads share the GIL while the engine's threads use the cores).
    share = progress / (rate * frame_seconds)
    assert share > 0.15, f"the counter ran {share:.0%} of its pace during {frame_seconds:.3f} s"
