"""Property-based tests (hypothesis) over shapes, d, positions, layouts and dtypes."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from ropemath import apply_rope, rotation_matrix, to_half, to_interleaved
from ropemath.core.error_bounds import elementwise_error_bound, norm_error_bound, relative_position_error_bound

dims = st.integers(1, 32).map(lambda h: 2 * h)
positions = st.integers(-10**6, 10**6)
layouts = st.sampled_from(["interleaved", "half"])
dtypes = st.sampled_from([np.float32, np.float64])
finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False, width=32)
RTOL = {np.float32: 2e-5, np.float64: elementwise_error_bound()}  # float64: derived in appendix 11 (about 15u)


@st.composite
def batches(draw):
    """x of shape (..., d) and positions of a shape that broadcasts to x.shape[:-1]."""
    d = draw(dims)
    batch = draw(array_shapes(min_dims=0, max_dims=3, max_side=4))
    dtype = draw(dtypes)
    x = draw(arrays(dtype, batch + (d,), elements=finite))
    m_shape = tuple(draw(st.sampled_from([1, s])) for s in batch)[draw(st.integers(0, len(batch))):]
    m = draw(arrays(np.int64, m_shape, elements=positions))
    return x, m, dtype


@given(batches(), layouts)
def test_shape_dtype_and_dense_agreement(case, layout):
    x, m, dtype = case
    y = apply_rope(x, m, layout=layout, base=1e4)
    assert y.shape == x.shape and y.dtype == x.dtype
    R = rotation_matrix(np.broadcast_to(m, x.shape[:-1]), x.shape[-1], layout=layout)
    dense = np.einsum("...ij,...j->...i", R, x.astype(np.float64))
    scale = np.linalg.norm(x.astype(np.float64), axis=-1, keepdims=True) + 1e-30
    assert np.all(np.abs(y - dense) <= RTOL[dtype] * scale)


@given(batches(), layouts)
def test_norm_preserved(case, layout):
    x, m, dtype = case
    x64 = x.astype(np.float64)
    y = apply_rope(x64, m, layout=layout, base=1e4)
    ny, nx = np.linalg.norm(y, axis=-1), np.linalg.norm(x64, axis=-1)
    assert np.all(np.abs(ny - nx) <= norm_error_bound(x.shape[-1]) * nx)  # the derived bound of appendix 11


@given(dims, positions, positions, st.integers(0, 2**32 - 1), layouts)
def test_relative_position_identity(d, m, n, seed, layout):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    lhs = apply_rope(q, m, layout=layout, base=1e4) @ apply_rope(k, n, layout=layout, base=1e4)
    rhs = q @ apply_rope(k, n - m, layout=layout, base=1e4)
    bound = relative_position_error_bound(m, n, d)  # derived in appendix 11; grows with |m| + |n| + |n - m|
    assert abs(lhs - rhs) <= bound * np.linalg.norm(q) * np.linalg.norm(k)


@given(batches())
def test_layout_permutation_commutes(case):
    x, m, dtype = case
    half = apply_rope(to_half(x), m, layout="half", base=1e4).astype(np.float64)
    inter = to_half(apply_rope(x, m, layout="interleaved", base=1e4))
    x64 = x.astype(np.float64)
    pair = np.hypot(x64[..., 0::2], x64[..., 1::2])  # the derived bound of ropemath.core.apply: 4.01 u |pair|
    assert np.all(np.abs(half - inter) <= 4.01 * np.finfo(x.dtype).eps / 2 * np.concatenate([pair, pair], axis=-1))
    np.testing.assert_array_equal(to_interleaved(to_half(x)), x)
