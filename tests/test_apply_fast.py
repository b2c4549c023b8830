"""The fast kernels of apply_rope (complex view, blocked half layout, general fallback) against
independent constructions, across dtypes, layouts, memory layouts and position shapes."""

import numpy as np
import pytest
from constructions import complex_rope, loop_block_diagonal

from ropemath import RopeCache, apply_rope, to_half
from ropemath.core.kernels import _blocks, _complex_viewable

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
    y = apply_rope(xv, m, layout=layout)
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
    y = apply_rope(x, m, layout=layout).astype(np.float64)
    assert np.max(np.abs(y - dense(x, m, layout))) < TOL[dtype] * np.max(np.abs(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_complex_view_matches_python_complex_numbers(dtype):
    rng = np.random.default_rng(3)  # seed 3
    x = rng.standard_normal((7, 64)).astype(dtype)
    m = rng.integers(-(10**6), 10**6, size=7)
    y = apply_rope(x, m, layout="interleaved")
    for row in range(7):
        expected = complex_rope(x[row].astype(np.float64), float(m[row]))
        assert np.max(np.abs(y[row] - expected)) < TOL[dtype] * np.max(np.abs(x[row])) + 1e-15 * abs(m[row])


@pytest.mark.parametrize("shape", [(3, 700, 64), (5000, 16), (2, 3, 2, 4100, 4), (1, 128), (40000, 2)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_half_layout_equals_permuted_interleaved_bit_for_bit(shape, dtype):
    """Shapes that span several blocks (and a partial last block) of the gathered kernel: both
    layouts do the same arithmetic, so the permutation commutes with the rotation exactly."""
    rng = np.random.default_rng(4)  # seed 4
    x = rng.standard_normal(shape).astype(dtype)
    m = rng.integers(0, 10**5, size=shape[-2])
    np.testing.assert_array_equal(
        apply_rope(to_half(x), m, layout="half"), to_half(apply_rope(x, m, layout="interleaved"))
    )
    strided = np.repeat(x, 2, axis=-1)[..., ::2]  # interleaved, last axis strided: gathered kernel
    np.testing.assert_array_equal(apply_rope(strided, m, layout="interleaved"), apply_rope(x, m, layout="interleaved"))


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_float16_uses_the_two_product_formula(layout):
    rng = np.random.default_rng(41)  # seed 41
    x = rng.standard_normal((3, 50, 16)).astype(np.float16)
    m = rng.integers(0, 1000, size=50)
    phi = m[:, None] * (10000.0 ** (-np.arange(0, 16, 2) / 16))
    c, s = np.cos(phi).astype(np.float16), np.sin(phi).astype(np.float16)
    a, b = (x[..., 0::2], x[..., 1::2]) if layout == "interleaved" else (x[..., :8], x[..., 8:])
    y = apply_rope(x, m, layout=layout)
    ya, yb = (y[..., 0::2], y[..., 1::2]) if layout == "interleaved" else (y[..., :8], y[..., 8:])
    np.testing.assert_array_equal(ya, a * c - b * s)
    np.testing.assert_array_equal(yb, a * s + b * c)


@pytest.mark.parametrize("batch", [(), (0,), (1,), (5,), (3, 700), (2, 3, 4, 500), (7000,), (2, 0, 3)])
@pytest.mark.parametrize("d", [2, 8, 128, 40000])
@pytest.mark.parametrize("block", [7, 1000, 32768, 65536])
def test_blocks_cover_every_vector_exactly_once(batch, d, block):
    seen = np.zeros(batch, dtype=int)
    for sl in _blocks(batch, d, block):
        seen[sl] += 1
        assert seen[sl].size * d <= max(block, d)
    assert np.all(seen == 1)


def test_complex_fast_path_is_taken_only_where_pairs_are_adjacent():
    x = np.zeros((4, 8), dtype=np.float32)
    assert _complex_viewable(x) and _complex_viewable(x[::2])
    assert not _complex_viewable(x[:, ::-1]) and not _complex_viewable(x.astype(np.float16))
    assert not _complex_viewable(x.astype(">f4")) and not _complex_viewable(np.asfortranarray(x))


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_x_is_rejected_with_its_index(layout, bad):
    """The input contract: NaN/±inf in x is an error naming x and the first bad index (the result
    is checked, so a large x is read once more only when something is wrong)."""
    x = np.ones((2, 3, 4))
    x[1, 2, 3] = bad
    with pytest.raises(ValueError, match=rf"^x must contain only finite values, got {bad} at index \(1, 2, 3\)$"):
        apply_rope(x, [1, 2, 3], layout=layout)
    with pytest.raises(ValueError, match=r"^x must contain only finite values, got .* at index \(1, 2, 3\)$"):
        RopeCache(4, max_position=8).apply(x, [1, 2, 3], layout=layout)
    x[1, 2, 3] = 1.0
    assert np.all(np.isfinite(apply_rope(x, [1, 2, 3], layout=layout)))  # the control: finite x passes


def test_overflowing_x_is_an_error_not_inf():
    """float32 near its largest value: a rotated pair can exceed it (|a cos - b sin| up to √2·max)."""
    x = np.full((1, 4), np.finfo(np.float32).max, dtype=np.float32)
    with pytest.raises(ValueError, match=r"^x \(largest \|x\| = 3.4e\+38\).*not finite"):
        apply_rope(x, [1], layout="interleaved")
    assert np.all(np.isfinite(apply_rope(x / 2, [1], layout="interleaved")))  # half as large: fits


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
    for y in (apply_rope(x, m[:, 0], layout="interleaved"), formula):
        assert np.max(np.abs(y.astype(wide) - exact) / norm) <= 1.5 * eps


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2,), (1, 2), (2, 1, 2), (4,), (6,)])
def test_layouts_agree_bit_for_bit_for_a_lone_pair(dtype, shape):
    """d = 2 and one vector: numpy's complex multiply of a single number out of place can differ in
    the last bit from in place, so the lone pair must take the same kernel in both layouts (#14).
    Before the fix, shape (2,) failed here in 175 of 400 cases on an AVX2 machine."""
    rng = np.random.default_rng(6)  # seed 6
    xs = rng.standard_normal((400,) + shape).astype(dtype)
    ms = rng.integers(0, 10**5, size=400)
    for x, m in zip(xs, ms, strict=True):
        np.testing.assert_array_equal(
            apply_rope(to_half(x), m, layout="half"), to_half(apply_rope(x, m, layout="interleaved"))
        )
