"""A frame that cannot fit in memory raises MemoryError with the CLI's message, before any of
its memory is taken: the arrays here are broadcast views of one pixel (no memory of their own),
and the CPU cases run under an address-space limit of 1 GiB more than the process maps, so that
a refusal does not depend on the machine's memory and a copy of the frame could not be made."""
import contextlib
import resource

import numpy as np
import pytest

from conftest import cuda_matcher, textured_pair

stereoview = pytest.importorskip("stereoview")

GiB = 1 << 30
CASES = [
    pytest.param(12000, np.float32, id="12000x12000-float32"),
    pytest.param(20000, np.uint8, id="20000x20000-uint8"),
    pytest.param(20000, np.uint16, id="20000x20000-uint16"),
]


@contextlib.contextmanager
def address_space_limit(headroom):
    """For the block, this process may map only `headroom` bytes more than it maps now."""
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * resource.getpagesize()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + headroom
    if soft != resource.RLIM_INFINITY:
        limit = min(limit, soft)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def huge_pair(side, dtype):
    plane = np.broadcast_to(np.zeros(1, dtype), (side, side))
    return plane, plane


def refusal(side, memory, engine):
    amount = r"[0-9.]+ ([KMGTPE]iB|bytes?)"
    return (rf"^a {side}x{side} frame \(census-sgm, 256 disparities\) needs {amount} of {memory} "
            rf"memory on the {engine} engine, but {amount} is available: use a smaller size or "
            r"fewer disparities, or add pyramid levels$")


@pytest.mark.parametrize("side, dtype", CASES)
@pytest.mark.parametrize("call", ["compute", "compute_fixed", "compute_many"])
def test_a_frame_that_cannot_fit_is_a_memory_error_on_the_cpu_engine(side, dtype, call):
    m = stereoview.Matcher(engine="cpu", disparities=256)
    left, right = huge_pair(side, dtype)
    with address_space_limit(GiB), pytest.raises(MemoryError, match=refusal(side, "host", "cpu")):
        if call == "compute_many":
            list(m.compute_many([(left, right)]))
        else:
            getattr(m, call)(left, right)


def test_the_address_space_limit_counts_as_memory(pair):
    # 4096x4096 with 256 disparities takes about 14 GiB: refused under a 1 GiB limit, where it
    # would otherwise fail halfway (issue 39: a segfault), whatever memory the host has.
    m = stereoview.Matcher(engine="cpu", disparities=256)
    left, right = huge_pair(4096, np.uint8)
    with address_space_limit(GiB), pytest.raises(MemoryError, match=refusal(4096, "host", "cpu")):
        m.compute(left, right)
    # The Matcher goes on with frames that fit.
    small = stereoview.Matcher(engine="cpu", disparities=16)
    with address_space_limit(GiB):
        assert small.compute(*pair).shape == pair[0].shape


@pytest.mark.parametrize("side, dtype", CASES)
def test_a_frame_that_cannot_fit_is_a_memory_error_on_the_cuda_engine(side, dtype):
    # No GPU has the hundreds of GiB these frames' cost volumes take; the host's limit is left
    # alone (the CUDA driver maps far more address space than it uses).
    m = cuda_matcher(disparities=256)
    left, right = huge_pair(side, dtype)
    with pytest.raises(MemoryError, match=refusal(side, "(device|host)", "cuda")):
        m.compute(left, right)
    left, right = textured_pair()
    assert m.compute(left, right).shape == left.shape
