"""apply_rope's two kernels (complex view; two products on the pair views) against independent
constructions, across dtypes, layouts, memory layouts and position shapes, and the derived bound
on the difference between the layouts."""

import numpy as np
import pytest
from constructions import complex_rope, loop_block_diagonal

from ropemath import RopeCache, apply_rope, to_half
from ropemath.core.apply import _complex_view

# Tolerances relative to the largest |x|: rounding of cos/sin and of two products and a sum
# in the working precision (float16: eps 9.8e-4, float32: 1.2e-7, float64: 2.2e-16).
TOL = {np.float16: 4e-3, np.float32: 1e-6, np.float64: 1e-13}


def half_matrix(m, d):
    """R in the half layout, Q R Q^T, with Q built by a loop: x_half[i] = x[2i], x_half[d/2+i] = x[2i+1]."""
    Q = np.zeros((d, d))
    for i in range(d // 2):
        Q[i, 2 * i] = 1.0
        Q[d // 2 + i, 2 * i + 1] = 1.0
    return Q @ loop_block_diagonal(m, d) @ Q.T


def dense(x, m, layout):
    """R_m x by loop-built matrices, vector by vector, in float64 (positions broadcast to x.shape[:-1])."""
    x64 = np.asarray(x, dtype=np.float64)
    mb = np.broadcast_to(m, x64.shape[:-1])
    out = np.empty(x64.shape)
    for idx in np.ndindex(x64.shape[:-1]):
        R = (loop_block_diagonal if layout == "interleaved" else half_matrix)(float(mb[idx]), x64.shape[-1])
        out[idx] = R @ x64[idx]
    return out


def variants(x):
    """The same values of x in different memory layouts (all shape (3, 5, d))."""
    d = x.shape[-1]
    wide = np.zeros((3, 10, 2 * d), dtype=x.dtype)
    wide[:, ::2, ::2] = x
    reversed_last = np.ascontiguousarray(x[..., ::-1])[..., ::-1]  # last-axis stride negative
    readonly = x.copy()
    readonly.flags.writeable = False
    return {
        "contiguous": x,
        "strided batch and last axis": wide[:, ::2, ::2],
        "strided batch": np.ascontiguousarray(np.repeat(x, 2, axis=1))[:, ::2],
        "negative last stride": reversed_last,
        "fortran order": np.asfortranarray(x),
        "read-only": readonly,
        "big-endian": x.astype(x.dtype.newbyteorder(">")),
    }


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize(
    "kind",
    [
        "contiguous",
        "strided batch and last axis",
        "strided batch",
        "negative last stride",
        "fortran order",
        "read-only",
        "big-endian",
    ],
)
def test_every_memory_layout_matches_the_dense_form(dtype, layout, kind):
    rng = np.random.default_rng(1)  # seed 1
    x = rng.standard_normal((3, 5, 8)).astype(dtype)
    m = rng.integers(-1000, 1000, size=5)
    xv = variants(x)[kind]
    np.testing.assert_array_equal(xv.astype(np.float64), x.astype(np.float64))
    y = apply_rope(xv, m, layout=layout, base=1e4)
    assert y.shape == x.shape and y.dtype == xv.dtype
    err = np.max(np.abs(y.astype(np.float64) - dense(x, m, layout))) / np.max(np.abs(x.astype(np.float64)))
    assert err < TOL[dtype]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("m_shape", ["scalar", "(P,)", "(H, 1)", "(H, P)", "(1, P)"])
def test_positions_broadcast(dtype, layout, m_shape):
    rng = np.random.default_rng(2)  # seed 2
    x = rng.standard_normal((4, 6, 16)).astype(dtype)
    m = {
        "scalar": 37,
        "(P,)": rng.integers(0, 5000, 6),
        "(H, 1)": rng.integers(0, 5000, (4, 1)),
        "(H, P)": rng.integers(0, 5000, (4, 6)),
        "(1, P)": rng.integers(0, 5000, (1, 6)),
    }[m_shape]
    y = apply_rope(x, m, layout=layout, base=1e4).astype(np.float64)
    assert np.max(np.abs(y - dense(x, m, layout))) < TOL[dtype] * np.max(np.abs(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_complex_view_matches_python_complex_numbers(dtype):
    rng = np.random.default_rng(3)  # seed 3
    x = rng.standard_normal((7, 64)).astype(dtype)
    m = rng.integers(-(10**6), 10**6, size=7)
    y = apply_rope(x, m, layout="interleaved", base=1e4)
    for row in range(7):
        expected = complex_rope(x[row].astype(np.float64), float(m[row]))
        assert np.max(np.abs(y[row] - expected)) < TOL[dtype] * np.max(np.abs(x[row])) + 1e-15 * abs(m[row])


#: the derived bound of ropemath.core.apply._rotate: |half(Px) - P interleaved(x)| <= 4.01 u f ||(a_i, b_i)||
LAYOUT_BOUND = 4.01


def gap(half, inter, x, factor):
    """Largest |half - inter| per coordinate (both in the half layout), in units of u * f * ||pair||."""
    x64 = x.astype(np.float64)
    pair = np.hypot(x64[..., 0::2], x64[..., 1::2])
    norm = np.concatenate([pair, pair], axis=-1)  # pair i sits at coordinates i and d/2 + i of the half layout
    scale = np.finfo(x.dtype).eps / 2 * factor * norm
    diff = np.abs(half.astype(np.float64) - inter)
    return float(np.max(np.where(norm > 0, diff / np.where(norm > 0, scale, 1.0), 0.0)))


@pytest.mark.parametrize("shape", [(3, 700, 64), (5000, 16), (2, 3, 2, 410, 4), (1, 128), (4000, 2), (2,)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("factor", [1.0, 1.2])
def test_layouts_agree_within_the_derived_bound(shape, dtype, factor):
    """The complex multiply (interleaved) and the two products (half) round differently; the
    derived bound holds, and a wrong pairing or a wrong sign exceeds it by orders of magnitude."""
    rng = np.random.default_rng(4)  # seed 4
    x = rng.standard_normal(shape).astype(dtype)
    m = rng.integers(1, 10**5, size=shape[-2] if len(shape) > 1 else ())
    rope = {"base": 10000.0, "attention_factor": factor}
    half = apply_rope(to_half(x), m, layout="half", **rope)
    assert gap(half, to_half(apply_rope(x, m, layout="interleaved", **rope)), x, factor) <= LAYOUT_BOUND
    wrong_sign = to_half(apply_rope(x, -m, layout="interleaved", **rope))
    assert gap(half, wrong_sign, x, factor) > 1000 * LAYOUT_BOUND
    if shape[-1] > 2:  # wrong pairing: the half kernel on interleaved coordinates
        wrong_pairs = to_half(apply_rope(x, m, layout="half", **rope))
        right = to_half(apply_rope(x, m, layout="interleaved", **rope))
        assert gap(wrong_pairs, right, x, factor) > 1000 * LAYOUT_BOUND


def test_float16_layouts_are_the_same_arithmetic():
    """float16 takes the two products in both layouts: the permutation commutes with the rotation exactly."""
    rng = np.random.default_rng(40)  # seed 40
    x = rng.standard_normal((3, 50, 16)).astype(np.float16)
    m = rng.integers(0, 1000, size=50)
    np.testing.assert_array_equal(
        apply_rope(to_half(x), m, layout="half", base=1e4), to_half(apply_rope(x, m, layout="interleaved", base=1e4))
    )


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_float16_uses_the_two_product_formula(layout):
    rng = np.random.default_rng(41)  # seed 41
    x = rng.standard_normal((3, 50, 16)).astype(np.float16)
    m = rng.integers(0, 1000, size=50)
    phi = m[:, None] * (10000.0 ** (-np.arange(0, 16, 2) / 16))
    c, s = np.cos(phi).astype(np.float16), np.sin(phi).astype(np.float16)
    a, b = (x[..., 0::2], x[..., 1::2]) if layout == "interleaved" else (x[..., :8], x[..., 8:])
    y = apply_rope(x, m, layout=layout, base=1e4)
    ya, yb = (y[..., 0::2], y[..., 1::2]) if layout == "interleaved" else (y[..., :8], y[..., 8:])
    np.testing.assert_array_equal(ya, a * c - b * s)
    np.testing.assert_array_equal(yb, a * s + b * c)


def test_complex_fast_path_is_taken_only_where_pairs_are_adjacent():
    x = np.zeros((4, 8), dtype=np.float32)
    assert _complex_view(x) is not None and _complex_view(x[::2]) is not None
    assert _complex_view(x[:, ::-1]) is None and _complex_view(x.astype(np.float16)) is None
    assert _complex_view(x.astype(">f4")) is None and _complex_view(np.asfortranarray(x)) is None


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_x_is_rejected_with_its_index(layout, bad):
    """The input contract: NaN/±inf in x is an error naming x and the first bad index (the result
    is checked, so a large x is read once more only when something is wrong)."""
    x = np.ones((2, 3, 4))
    x[1, 2, 3] = bad
    with pytest.raises(ValueError, match=rf"^x must contain only finite values, got {bad} at index \(1, 2, 3\)$"):
        apply_rope(x, [1, 2, 3], layout=layout, base=1e4)
    with pytest.raises(ValueError, match=r"^x must contain only finite values, got .* at index \(1, 2, 3\)$"):
        RopeCache(4, max_position=8, base=1e4).apply(x, [1, 2, 3], layout=layout)
    x[1, 2, 3] = 1.0
    assert np.all(np.isfinite(apply_rope(x, [1, 2, 3], layout=layout, base=1e4)))  # the control: finite x passes


def test_overflowing_x_is_an_error_not_inf():
    """float32 near its largest value: a rotated pair can exceed it (|a cos - b sin| up to √2·max)."""
    x = np.full((1, 4), np.finfo(np.float32).max, dtype=np.float32)
    with pytest.raises(ValueError, match=r"^x \(largest \|x\| = 3.4e\+38\).*not finite"):
        apply_rope(x, [1], layout="interleaved", base=1e4)
    assert np.all(np.isfinite(apply_rope(x / 2, [1], layout="interleaved", base=1e4)))  # half as large: fits


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_complex_path_and_two_product_formula_are_within_1_5_ulp(dtype):
    """Against the exact result for the *rounded* cos/sin (products of two float32 are exact in float64;
    for float64 the reference is longdouble): the two-product formula rounds three times (≤ 1.5 ulp),
    a fused complex multiply twice; both paths must stay within 1.5 ulp of the pair's norm."""
    if dtype == np.float64 and np.finfo(np.longdouble).nmant < 63:
        pytest.skip("longdouble is no wider than float64 here: no exact reference")
    rng = np.random.default_rng(5)  # seed 5
    x = rng.standard_normal((256, 128)).astype(dtype)
    m = rng.integers(0, 4096, size=(256, 1))
    phi = m * (10000.0 ** (-np.arange(0, 128, 2) / 128))
    c, s = np.cos(phi).astype(dtype), np.sin(phi).astype(dtype)
    wide = np.float64 if dtype == np.float32 else np.longdouble
    a, b, cw, sw = x[:, 0::2].astype(wide), x[:, 1::2].astype(wide), c.astype(wide), s.astype(wide)
    exact = np.stack([a * cw - b * sw, a * sw + b * cw], axis=-1).reshape(x.shape)
    formula = np.stack([x[:, 0::2] * c - x[:, 1::2] * s, x[:, 0::2] * s + x[:, 1::2] * c], axis=-1).reshape(x.shape)
    norm = np.repeat(np.hypot(a, b), 2, axis=-1)
    eps = np.finfo(dtype).eps
    for y in (apply_rope(x, m[:, 0], layout="interleaved", base=1e4), formula):
        assert np.max(np.abs(y.astype(wide) - exact) / norm) <= 1.5 * eps
