"""RopeCache: equal to apply_rope bit for bit, equal to the dense form, out= and in-place use, bad input."""

import numpy as np
import pytest
from test_apply_fast import TOL, dense

from ropemath import RopeCache, apply_rope


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("m_kind", ["range", "from 3", "gather", "2-D", "scalar", "(H, 1)"])
def test_cache_equals_apply_rope_bit_for_bit(dtype, layout, m_kind):
    """Same float64 angles m·θ_i (m exact in float64), same cos/sin, same kernels."""
    rng = np.random.default_rng(20)  # seed 20
    x = rng.standard_normal((4, 7, 16)).astype(dtype)
    m = {
        "range": np.arange(7),
        "from 3": np.arange(3, 10),
        "gather": np.array([5, 0, 99, 3, 3, 42, 7]),
        "2-D": rng.integers(0, 100, (4, 7)),
        "scalar": 57,
        "(H, 1)": rng.integers(0, 100, (4, 1)),
    }[m_kind]
    cache = RopeCache(16, max_position=100, base=1e4)
    np.testing.assert_array_equal(cache.apply(x, m, layout=layout), apply_rope(x, m, layout=layout, base=1e4))


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cache_matches_the_dense_form(layout, dtype):
    rng = np.random.default_rng(21)  # seed 21
    x = rng.standard_normal((2, 9, 32)).astype(dtype)
    m = rng.integers(0, 4096, size=9)
    y = RopeCache(32, base=500000.0, max_position=4096).apply(x, m, layout=layout)
    mb = np.broadcast_to(m, x.shape[:-1])
    expected = np.empty(x.shape)
    for idx in np.ndindex(x.shape[:-1]):  # base 500000: rebuild the dense rows with that base
        expected[idx] = dense_base(x[idx], int(mb[idx]), 500000.0, layout)
    assert np.max(np.abs(y - expected)) < TOL[dtype] * np.max(np.abs(x))


def dense_base(v, m, base, layout):
    """R_m v for one vector with a given base, from 2×2 blocks written out (RoFormer eq. 15, 1-based j)."""
    d = v.size
    out = np.empty(d)
    for j in range(1, d // 2 + 1):
        t = m * base ** (-2 * (j - 1) / d)
        p, q = (2 * j - 2, 2 * j - 1) if layout == "interleaved" else (j - 1, j - 1 + d // 2)
        out[p] = np.cos(t) * v[p] - np.sin(t) * v[q]
        out[q] = np.sin(t) * v[p] + np.cos(t) * v[q]
    return out


def test_default_base_matches_loop_construction():
    x = np.random.default_rng(22).standard_normal((3, 8))  # seed 22
    m = np.array([0, 1, 2047])
    np.testing.assert_allclose(
        RopeCache(8, max_position=2048, base=1e4).apply(x, m, layout="interleaved"),
        dense(x, m, "interleaved"),
        atol=1e-13,
    )


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_out_and_in_place(layout, dtype):
    rng = np.random.default_rng(23)  # seed 23
    x = rng.standard_normal((3, 70, 64)).astype(dtype)
    m = np.arange(70)
    cache = RopeCache(64, max_position=70, base=1e4)
    expected = apply_rope(x, m, layout=layout, base=1e4)
    out = np.empty_like(x)
    assert cache.apply(x, m, layout=layout, out=out) is out
    np.testing.assert_array_equal(out, expected)
    strided = np.empty((3, 70, 128), dtype=dtype)[..., ::2]  # a non-contiguous out
    np.testing.assert_array_equal(cache.apply(x, m, layout=layout, out=strided), expected)
    inplace = x.copy()
    assert cache.apply(inplace, m, layout=layout, out=inplace) is inplace
    np.testing.assert_array_equal(inplace, expected)


def test_repr_and_attributes():
    cache = RopeCache(8, base=100.0, max_position=10)
    assert repr(cache) == "RopeCache(d=8, base=100.0, max_position=10)"
    assert (cache.d, cache.base, cache.max_position) == (8, 100.0, 10)


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"d": 7, "base": 1e4}, ValueError, "d must be a positive even integer, got 7"),
        ({"d": 8.0, "base": 1e4}, TypeError, "d must be a positive even integer"),
        ({"d": 8}, ValueError, "pass exactly one of base and theta"),
        ({"d": 8, "base": 1e4, "theta": [1.0] * 4}, ValueError, "pass exactly one of base and theta"),
        ({"d": 8, "base": 1e4, "attention_factor": 0.0}, ValueError, "attention_factor must be"),
        ({"d": 8, "base": 0.0}, ValueError, "base must be a finite real number > 0"),
        ({"d": 8, "base": "1e4"}, TypeError, "base must be a finite real number > 0"),
        ({"d": 8, "base": 1e4, "max_position": 0}, ValueError, "max_position must be an integer >= 1, got 0"),
        ({"d": 8, "base": 1e4, "max_position": 2.5}, TypeError, "max_position must be an integer"),
        ({"d": 8, "base": 1e4, "max_position": True}, TypeError, "max_position must be an integer"),
    ],
)
def test_bad_constructor_arguments(kwargs, exc, message):
    with pytest.raises(exc, match=message.replace("(", r"\(")):
        RopeCache(**kwargs)


@pytest.mark.parametrize(
    "x, m, kwargs, exc, message",
    [
        (np.ones(8), 1.0, {}, TypeError, "m must be an integer or an array of integers, got float 1.0"),
        (np.ones(8), True, {}, TypeError, "m must be an integer or an array of integers"),
        (np.ones(8), "3", {}, TypeError, "m must be an integer or an array of integers"),
        (np.ones(8), -1, {}, ValueError, r"m must be in \[0, max_position=16\), got values from -1 to -1"),
        (np.ones((2, 8)), [3, 16], {}, ValueError, r"m must be in \[0, max_position=16\), got values from 3 to 16"),
        (np.ones((3, 8)), [0, 1], {}, ValueError, "m must be broadcastable to x.shape"),
        (np.ones(6), 0, {}, ValueError, "x must have last axis of length d=8"),
        (np.ones(8, dtype=int), 0, {}, TypeError, "x must be a real floating-point array"),
        (np.ones(8), 0, {"layout": "rotate_half"}, ValueError, "layout must be one of"),
        (np.ones(8), 0, {"out": [0.0] * 8}, TypeError, "out must be a numpy array or None"),
        (np.ones(8), 0, {"out": np.ones(6)}, ValueError, "out must have x's shape"),
        (np.ones(8), 0, {"out": np.ones(8, dtype=np.float32)}, ValueError, "out must have x's shape"),
    ],
)
def test_bad_apply_arguments(x, m, kwargs, exc, message):
    with pytest.raises(exc, match=message):
        RopeCache(8, max_position=16, base=1e4).apply(x, m, **{"layout": "interleaved", **kwargs})


def test_out_read_only_or_overlapping_is_refused():
    cache = RopeCache(4, max_position=4, base=1e4)
    x = np.ones((2, 4))
    ro = np.empty((2, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be writeable"):
        cache.apply(x, 0, out=ro, layout="interleaved")
    with pytest.raises(ValueError, match="out must be x itself or not overlap x"):
        cache.apply(x, 0, out=x[::-1], layout="interleaved")
