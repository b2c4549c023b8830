"""ropemath.core.outputs: a released result's memory is reused, and never one that is still in use.

A result, any view of it, or a memoryview keeps its buffer out of the pool; once every one is gone,
the next result of the same size gets the same memory (that is the point: no new pages to zero).
A pool that ignored the reference count (negative control) would hand out a buffer still in use,
and the first test sees it.
"""

import numpy as np
import pytest

from ropemath import RopeCache, apply_rope
from ropemath.core import outputs
from ropemath.core.outputs import new_output, pooled_bytes, set_output_pool

SHAPE = (4, 1024, 256)  # 4 MiB of float32: pooled


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


@pytest.fixture
def pool():
    """An empty pool of 64 MiB for the test; the previous limit afterwards."""
    previous = set_output_pool(0)
    set_output_pool(2**26)
    yield
    set_output_pool(0)
    set_output_pool(previous)


def holders(a: np.ndarray) -> list:
    """Things a reader might keep of a result: a slice, a reshaped view, a memoryview."""
    return [a[1:], a.reshape(-1), memoryview(a)]


@pytest.mark.skipif(not outputs._ENABLED, reason="the pool is off on this interpreter")
@pytest.mark.parametrize("keep", ["array", "slice", "reshape", "memoryview"])
def test_memory_in_use_is_never_handed_out_again(pool, keep):
    first = new_output(SHAPE, np.dtype(np.float32))
    kept = {"array": first, "slice": first[1:], "reshape": first.reshape(-1), "memoryview": memoryview(first)}[keep]
    if keep != "array":
        del first
    second = new_output(SHAPE, np.dtype(np.float32))
    assert not np.shares_memory(second, np.asarray(kept))


@pytest.mark.skipif(not outputs._ENABLED, reason="the pool is off on this interpreter")
def test_released_memory_is_reused_and_a_blind_pool_would_reuse_memory_in_use(pool, monkeypatch):
    first = new_output(SHAPE, np.dtype(np.float32))
    where = address(first)
    del first
    second = new_output(SHAPE, np.dtype(np.float32))
    assert address(second) == where  # reused: no new pages
    third = new_output(SHAPE, np.dtype(np.float32))  # second is alive: new memory
    assert not np.shares_memory(second, third)
    # negative control: a pool that takes any buffer of the right size hands out `second`'s memory
    del third
    monkeypatch.setattr(outputs, "_refs", lambda buffer: outputs._FREE_COUNT)
    blind = new_output(SHAPE, np.dtype(np.float32))
    assert np.shares_memory(blind, second)


@pytest.mark.skipif(not outputs._ENABLED, reason="the pool is off on this interpreter")
def test_results_of_apply_rope_and_the_cache_do_not_share_memory(pool):
    x = np.random.default_rng(70).standard_normal(SHAPE).astype(np.float32)  # seed 70
    m = np.arange(SHAPE[1])
    cache = RopeCache(SHAPE[-1], max_position=SHAPE[1])
    y1 = apply_rope(x, m, layout="half")
    y2 = cache.apply(x, m, layout="half")
    y3 = apply_rope(x, m, layout="interleaved")
    assert not (np.shares_memory(y1, y2) or np.shares_memory(y1, y3) or np.shares_memory(y2, y3))
    assert y1.tobytes() == y2.tobytes()  # and the values are right: equal to the cache's, bit for bit
    expected = y1.copy()
    del y1, y2, y3
    again = apply_rope(x, m, layout="half")  # from a released buffer: same values
    assert again.tobytes() == expected.tobytes()


def test_small_arrays_are_not_pooled_and_off_means_off(pool):
    small = new_output((3, 4), np.dtype(np.float64))
    assert small.flags.owndata and pooled_bytes() == 0
    set_output_pool(0)  # off: nothing is kept (the OS may still map a freed region at the same address again)
    a = new_output(SHAPE, np.dtype(np.float32))
    del a
    b = new_output(SHAPE, np.dtype(np.float32))
    assert pooled_bytes() == 0 and b.shape == SHAPE and b.flags.c_contiguous and b.flags.writeable


def test_the_pool_stays_within_its_limit(pool):
    set_output_pool(3 * 2**22)  # room for three 4 MiB buffers
    alive = [new_output(SHAPE, np.dtype(np.float32)) for _ in range(5)]
    assert pooled_bytes() <= 3 * 2**22
    assert all(not np.shares_memory(a, b) for i, a in enumerate(alive) for b in alive[i + 1:])
    del alive
    big = new_output((2, *SHAPE), np.dtype(np.float32))  # 8 MiB: evicts released buffers to fit
    assert pooled_bytes() <= 3 * 2**22 and big.nbytes == 2**23


@pytest.mark.parametrize("bad, error, words", [(-1, ValueError, "max_bytes"), ("64", TypeError, "max_bytes"),
                                                (1.5, TypeError, "max_bytes")])
def test_bad_pool_limits_are_named(bad, error, words):
    with pytest.raises(error, match=words):
        set_output_pool(bad)


@pytest.mark.skipif(not outputs._ENABLED, reason="the pool is off on this interpreter")
def test_threads_never_get_each_others_results(pool, monkeypatch):
    """Four threads rotate their own x again and again, keeping their last two results and checking them after
    every call: a buffer handed to two holders at once would be overwritten by the other thread's rotation.
    Negative control: with a pool blind to the reference count, the same check sees x1's rotation in x0's result."""
    import threading

    rng = np.random.default_rng(71)  # seed 71
    xs = [rng.standard_normal(SHAPE).astype(np.float32) for _ in range(4)]
    m = np.arange(SHAPE[1])
    expected = [apply_rope(x, m, layout="half").tobytes() for x in xs]
    failures = []

    def work(t):
        kept = []
        for _ in range(15):
            kept = [*kept[-1:], apply_rope(xs[t], m, layout="half")]
            if any(y.tobytes() != expected[t] for y in kept):
                failures.append(t)
                return

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []
    set_output_pool(0)  # an empty pool, then one buffer in it
    set_output_pool(2**26)
    monkeypatch.setattr(outputs, "_refs", lambda buffer: outputs._FREE_COUNT)
    first = apply_rope(xs[0], m, layout="half")
    apply_rope(xs[1], m, layout="half")
    assert first.tobytes() != expected[0]
