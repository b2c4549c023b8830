"""apply_rope against independent constructions: complex numbers and a loop-built matrix."""

import numpy as np
import pytest
from constructions import angle_tol, complex_rope, loop_block_diagonal

import ropemath
from ropemath import apply_rope, to_half, to_interleaved


@pytest.mark.parametrize("d", [2, 4, 8, 64, 128])
@pytest.mark.parametrize("m", [0, 1, -7, 1000, -123456, 999999])
def test_apply_rope_matches_complex_multiplication(d, m):
    x = np.random.default_rng(d).standard_normal(d)
    np.testing.assert_allclose(
        apply_rope(x, m, layout="interleaved", base=1e4), complex_rope(x, m), rtol=0, atol=angle_tol(m)
    )


@pytest.mark.parametrize("d", [2, 6, 16, 64])
def test_apply_rope_matches_loop_matrix(d):
    rng = np.random.default_rng(100 + d)
    for m in rng.integers(-(10**6), 10**6, size=5):
        x = rng.standard_normal(d)
        np.testing.assert_allclose(
            apply_rope(x, m, layout="interleaved", base=1e4), loop_block_diagonal(float(m), d) @ x, atol=angle_tol(m)
        )


def test_half_layout_commutes_with_permutation():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 5, 16))
    m = rng.integers(-1000, 1000, size=5)
    np.testing.assert_allclose(
        apply_rope(to_half(x), m, layout="half", base=1e4),
        to_half(apply_rope(x, m, layout="interleaved", base=1e4)),
        atol=1e-14,
    )


def test_scores_identical_in_both_layouts():
    rng = np.random.default_rng(8)
    q, k = rng.standard_normal((2, 64))
    m, n = 4711, -815
    inter = apply_rope(q, m, layout="interleaved", base=1e4) @ apply_rope(k, n, layout="interleaved", base=1e4)
    half = apply_rope(to_half(q), m, layout="half", base=1e4) @ apply_rope(to_half(k), n, layout="half", base=1e4)
    assert half == pytest.approx(inter, rel=1e-12)


def test_to_half_and_to_interleaved_are_inverse_permutations():
    x = np.random.default_rng(9).standard_normal((4, 12))
    np.testing.assert_array_equal(to_interleaved(to_half(x)), x)
    np.testing.assert_array_equal(to_half(to_interleaved(x)), x)
    # explicit construction of the half layout: first all pair-firsts, then all pair-seconds
    expected = np.concatenate([x[:, [2 * i for i in range(6)]], x[:, [2 * i + 1 for i in range(6)]]], axis=1)
    np.testing.assert_array_equal(to_half(x), expected)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_dtype_and_shape_preserved(dtype):
    x = np.ones((2, 3, 8), dtype=dtype)
    y = apply_rope(x, np.arange(3), layout="interleaved", base=1e4)
    assert y.dtype == dtype and y.shape == x.shape


def test_positions_broadcast_over_batch():
    rng = np.random.default_rng(10)
    x = rng.standard_normal((4, 6, 8))  # (heads, positions, d)
    m = np.arange(6) * 3 - 5
    y = apply_rope(x, m, layout="interleaved", base=1e4)
    for h in range(4):
        for p in range(6):
            np.testing.assert_allclose(y[h, p], complex_rope(x[h, p], m[p]), atol=1e-13)


def test_angles_are_float64_for_float32_input():
    """At m ≈ 1e6, angles m·θ_i formed in float32 are off by milliradians or more (θ_i rounded to
    float32, and the product rounded to a spacing of 2^-7 near 1e5); float64 angles are not."""
    d, m = 8, 999_983.0
    x32 = np.random.default_rng(11).standard_normal(d).astype(np.float32)
    reference = complex_rope(x32.astype(np.float64), m)
    err64 = np.max(np.abs(apply_rope(x32, m, layout="interleaved", base=1e4) - reference))
    theta32 = (10000.0 ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    phi32 = (np.float32(m) * theta32).astype(np.float64)  # what a float32-angle implementation would use
    z = (x32[0::2] + 1j * x32[1::2]).astype(np.complex128) * np.exp(1j * phi32)
    wrong = np.empty(d)
    wrong[0::2], wrong[1::2] = z.real, z.imag
    err32 = np.max(np.abs(wrong - reference))
    assert err64 < 1e-5  # float32 rounding of the result only
    assert err32 > 1e-3  # the float32-angle alternative is visibly worse, so this test can tell them apart


def test_rotation_is_zero_at_position_zero():
    x = np.random.default_rng(12).standard_normal(10)
    np.testing.assert_array_equal(apply_rope(x, 0, layout="interleaved", base=1e4), x)
    np.testing.assert_array_equal(apply_rope(x, 0, layout="half", base=1e4), x)


def test_attention_factor_from_a_yarn_config_scales_cos_and_sin():
    """transformers multiplies cos and sin by YaRN's attention factor; apply_rope(attention_factor=) does it."""
    config = {"rope_type": "yarn", "rope_theta": 1e6, "head_dim": 128, "max_position_embeddings": 32768,
              "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}
    f = ropemath.frequencies_from_config(config)
    assert f.attention_factor == pytest.approx(0.1 * np.log(4.0) + 1)  # YaRN's 0.1 ln(s) + 1, not computed by apply
    rng = np.random.default_rng(7)  # seed 7
    x, m = rng.standard_normal((5, 128)), rng.integers(0, 10**5, size=5)
    phi = m[:, None] * f.theta
    a, b = x[:, :64], x[:, 64:]
    by_hand = f.attention_factor * np.concatenate(
        [a * np.cos(phi) - b * np.sin(phi), a * np.sin(phi) + b * np.cos(phi)], axis=-1)
    y = ropemath.apply_rope(x, m, layout="half", theta=f.theta, attention_factor=f.attention_factor)
    np.testing.assert_allclose(y, by_hand, rtol=0, atol=1e-14)
    unscaled = ropemath.apply_rope(x, m, layout="half", theta=f.theta)  # the control: without the factor
    assert np.max(np.abs(unscaled - by_hand)) > 0.05
    cache = ropemath.RopeCache(128, theta=f.theta, attention_factor=f.attention_factor, max_position=10**5)
    np.testing.assert_array_equal(cache.apply(x, m, layout="half"), y)
