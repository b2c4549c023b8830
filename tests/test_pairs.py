"""The compiled pair mover (ropemath/core/_pairs.c, issue #13 item 6): it moves bits exactly like numpy's
strided copies, for every shape, stride and item size the kernels give it, writes nothing outside its
views, rejects bad arguments by name, and the kernels give the same bytes with it and without it.
Negative controls: a mover that swaps the coordinates, or drops one pair, fails the same comparisons.

Where the module was not built (no C compiler at install) these tests skip with a reason, except under
CI=true, where its absence fails: CI's machines have a compiler, and without the module the speed goal of
the half layout is measured on the numpy fallback."""

import os

import numpy as np
import pytest

from ropemath import RopeCache, apply_rope, to_half
from ropemath.core import kernels

IN_CI = os.environ.get("CI", "").lower() == "true"
PAIRS = kernels._pairs
needs_pairs = pytest.mark.skipif(
    PAIRS is None, reason="ropemath.core._pairs was not built (no C compiler at install): numpy moves the pairs"
)


def _bits(shape, dtype, rng):
    """Random bit patterns as floats of ``dtype``: NaNs with payloads, ±inf, ±0 and subnormals included."""
    utype = np.uint32 if np.dtype(dtype).itemsize == 4 else np.uint64
    info = np.iinfo(utype)
    return rng.integers(0, info.max, size=shape, dtype=utype, endpoint=True).view(dtype)


def _gather_numpy(a, b):
    """The reference: z[2k] = a.flat[k], z[2k+1] = b.flat[k] by numpy copies (C order)."""
    z = np.empty(2 * a.size, dtype=a.dtype)
    z[0::2] = a.reshape(-1)
    z[1::2] = b.reshape(-1)
    return z


def _views(kind, dtype, rng):
    """Pairs of views (a, b) of one shape with the strides the kernels produce, and odder ones."""
    if kind == "half rows":
        x = _bits((4, 7, 10), dtype, rng)
        return x[..., :5], x[..., 5:]
    if kind == "interleaved, strided last axis":
        x = _bits((3, 12), dtype, rng)
        return x[..., 0::2], x[..., 1::2]
    if kind == "negative strides":
        x = _bits((6, 8), dtype, rng)
        return x[::-1, :4], x[::-1, 4:][:, ::-1]
    if kind == "transposed":
        x = _bits((9, 4), dtype, rng)
        return x.T[:2], x.T[2:]
    if kind == "different arrays":
        return _bits((5, 3), dtype, rng), _bits((5, 9), dtype, rng)[:, ::3]
    if kind == "one axis":
        x = _bits((11,), dtype, rng)
        return x[:5], x[6:]
    if kind == "five axes, a size-1 axis":
        x = _bits((2, 1, 3, 2, 8), dtype, rng)
        return x[..., :4], x[..., 4:]
    if kind == "empty":
        x = _bits((0, 8), dtype, rng)
        return x[:, :4], x[:, 4:]
    raise AssertionError(kind)


KINDS = [
    "half rows",
    "interleaved, strided last axis",
    "negative strides",
    "transposed",
    "different arrays",
    "one axis",
    "five axes, a size-1 axis",
    "empty",
]


def test_the_compiled_mover_is_built_in_ci():
    if PAIRS is None and not IN_CI:
        pytest.skip("ropemath.core._pairs was not built (no C compiler at install); fails only under CI=true")
    assert PAIRS is not None, "CI must build ropemath/core/_pairs.c (pip install -e . with a C compiler)"
    assert kernels._pair_mover() == "compiled"


@needs_pairs
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", KINDS)
def test_gather_and_scatter_move_the_bits_numpy_copies_move(kind, dtype):
    rng = np.random.default_rng(80)  # seed 80
    a, b = _views(kind, dtype, rng)
    z = np.empty(2 * a.size, dtype=dtype)
    PAIRS.gather(a, b, z)
    assert z.tobytes() == _gather_numpy(a, b).tobytes()
    # scatter into the same views of arrays filled with a marker: the views get the bits back, and
    # nothing else in their arrays changes (compared with what numpy's copies make of the same arrays)
    parents = {id(v.base): np.full(v.base.shape, 0xAB, v.base.dtype) for v in (a, b)}
    expected = {key: parent.copy() for key, parent in parents.items()}
    oa, ob = _same_view(parents[id(a.base)], a), _same_view(parents[id(b.base)], b)
    PAIRS.scatter(z, oa, ob)
    _same_view(expected[id(a.base)], a)[...] = a.view(a.base.dtype)
    _same_view(expected[id(b.base)], b)[...] = b.view(b.base.dtype)
    for key, parent in parents.items():
        assert parent.tobytes() == expected[key].tobytes()


def _same_view(parent, view):
    """The view of ``parent`` (an array like ``view.base``) with ``view``'s offset, shape and strides."""
    if view.size == 0:
        return np.empty(view.shape, parent.dtype)
    offset = view.__array_interface__["data"][0] - view.base.__array_interface__["data"][0]
    start = parent.reshape(-1).view(np.uint8)[offset:].view(parent.dtype)
    return np.lib.stride_tricks.as_strided(start, view.shape, view.strides)


@needs_pairs
@pytest.mark.parametrize("fault", ["swapped", "one pair dropped"])
def test_a_faulty_gather_fails_the_same_comparison(fault):
    """Negative control: the byte comparison above says no to a mover that swaps a and b, or skips a pair."""
    rng = np.random.default_rng(81)  # seed 81
    a, b = _views("half rows", np.float32, rng)
    z = np.empty(2 * a.size, dtype=np.float32)
    if fault == "swapped":
        PAIRS.gather(b, a, z)
    else:
        PAIRS.gather(a, b, z)
        z[2:4] = 0.0
    assert z.tobytes() != _gather_numpy(a, b).tobytes()


@needs_pairs
def test_bad_arguments_are_named():
    a = np.zeros((2, 4), np.float32)
    z = np.zeros(16, np.float32)
    cases = [
        ((a, a), TypeError, r"gather\(a, b, z\) takes 3 arguments, got 2"),
        ((a, [1.0, 2.0], z), TypeError, "b must be a buffer"),
        ((a, a, z[:-1]), ValueError, r"z must hold 2 \* a.size = 16 items, got 15"),
        ((a, a, np.zeros((16, 2), np.float32)[:, 0]), ValueError, "z must be C-contiguous"),
        ((a, a.astype(np.float64), z), ValueError, "a, b and z must have items of one size, got 4, 8 and 4"),
        ((a, a[:, :2], z), ValueError, "a and b must have one shape"),
        ((a.astype(np.float16), a.astype(np.float16), z.astype(np.float16)), ValueError, "a must have items of 4 or 8"),
        ((np.float32(1.0), np.float32(2.0), np.zeros(2, np.float32)), ValueError, "at least one axis"),
    ]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            PAIRS.gather(*args)
    read_only = np.zeros(16, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(TypeError, match="z must be a writable buffer"):
        PAIRS.gather(a, a, read_only)
    with pytest.raises(TypeError, match="a must be a writable buffer"):
        PAIRS.scatter(z, read_only[:8].reshape(2, 4), a)
    with pytest.raises(TypeError, match=r"scatter\(z, a, b\) takes 3 arguments"):
        PAIRS.scatter(z)


def _kernel_cases(dtype):
    """Inputs of the gathered kernel: half layout (contiguous, from a strided array, a lone pair, many
    blocks) and the interleaved layout with a strided last axis."""
    rng = np.random.default_rng(82)  # seed 82
    x = rng.standard_normal((3, 700, 130)).astype(dtype)
    x[rng.random(x.shape) < 0.05] = -0.0
    big = rng.standard_normal((2, 300, 32)).astype(dtype)
    return {
        "half (3, 700, 130), several blocks": (x, rng.integers(0, 4096, x.shape[:-1]), "half"),
        "half, strided batch": (big[:, ::3], rng.integers(0, 4096, (2, 100)), "half"),
        "half, one pair": (np.array([0.5, -0.25], dtype), 7, "half"),
        "interleaved, strided last axis": (big[..., ::2], rng.integers(0, 4096, (2, 300)), "interleaved"),
    }


@needs_pairs
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernels_give_the_same_bytes_with_and_without_the_compiled_mover(dtype, monkeypatch):
    """apply_rope, RopeCache.apply and an in-place rotation, compiled mover against numpy's copies."""
    for name, (x, m, layout) in _kernel_cases(dtype).items():
        c = RopeCache(x.shape[-1], max_position=4096)
        runs = {}
        for mover in ("compiled", "numpy"):
            if mover == "numpy":
                monkeypatch.setattr(kernels, "_pairs", None)
            assert kernels._pair_mover() == mover
            inplace = x.copy()
            c.apply(inplace, m, layout=layout, out=inplace)
            runs[mover] = (apply_rope(x, m, layout=layout), c.apply(x, m, layout=layout), inplace)
            monkeypatch.undo()
        for got, expected in zip(runs["compiled"], runs["numpy"], strict=True):
            assert got.tobytes() == expected.tobytes(), name


class _Swapping:
    """A faulty mover for the negative control: gathers (b, a) instead of (a, b)."""

    @staticmethod
    def gather(a, b, z):
        PAIRS.gather(b, a, z)

    @staticmethod
    def scatter(z, a, b):
        PAIRS.scatter(z, a, b)


@needs_pairs
def test_a_faulty_mover_in_the_kernel_is_caught(monkeypatch):
    """Negative control of the test above: with a mover that swaps the coordinates the bytes differ, and
    the layouts no longer agree."""
    rng = np.random.default_rng(83)  # seed 83
    x = rng.standard_normal((4, 64, 16)).astype(np.float32)
    m = rng.integers(0, 4096, (4, 64))
    good = apply_rope(to_half(x), m, layout="half")
    assert good.tobytes() == to_half(apply_rope(x, m, layout="interleaved")).tobytes()
    monkeypatch.setattr(kernels, "_pairs", _Swapping)
    bad = apply_rope(to_half(x), m, layout="half")
    assert bad.tobytes() != good.tobytes()
    assert bad.tobytes() != to_half(apply_rope(x, m, layout="interleaved")).tobytes()
