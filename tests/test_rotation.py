"""Frequencies and dense rotation matrices against independent constructions."""

import math

import numpy as np
import pytest
from constructions import loop_block_diagonal

from ropemath import frequencies, half_permutation, rotation_2d, rotation_matrix


@pytest.mark.parametrize("d", [2, 4, 8, 64, 128])
@pytest.mark.parametrize("base", [10000.0, 500000.0, 2.0])
def test_frequencies_match_paper_formula(d, base):
    expected = [base ** (-2 * (j - 1) / d) for j in range(1, d // 2 + 1)]
    got = frequencies(d, base)
    assert got.dtype == np.float64 and got.shape == (d // 2,)
    np.testing.assert_allclose(got, expected, rtol=1e-15, atol=0)


def test_frequencies_endpoints():
    theta = frequencies(128)
    assert theta[0] == 1.0
    # The last frequency is 10000^{-(d-2)/d}, not 1/10000 (it approaches it only as d grows).
    assert theta[-1] == pytest.approx(10000.0 ** (-126 / 128), rel=1e-15)
    assert np.all(np.diff(theta) < 0)


@pytest.mark.parametrize("d", [2, 4, 8, 64])
@pytest.mark.parametrize("m", [0.0, 1.0, -3.0, 12345.0, -999999.0])
def test_rotation_matrix_equals_loop(d, m):
    # allowance: |m| times the last-ulp difference of two pow routines for θ_i
    np.testing.assert_allclose(rotation_matrix(m, d), loop_block_diagonal(m, d), rtol=0, atol=1e-13 + 1e-15 * abs(m))


def test_rotation_matrix_batched_shape_and_values():
    m = np.array([[0.0, 1.0, 2.0], [-1.0, 5.0, 7.0]])
    R = rotation_matrix(m, 6)
    assert R.shape == (2, 3, 6, 6)
    for idx in np.ndindex(m.shape):
        np.testing.assert_allclose(R[idx], loop_block_diagonal(m[idx], 6), atol=1e-14)


def test_rotation_2d_matches_complex_multiplication():
    rng = np.random.default_rng(3)
    for a in rng.uniform(-10, 10, size=20):
        z = complex(*rng.standard_normal(2))
        rotated = z * complex(math.cos(a), math.sin(a))
        xy = rotation_2d(a) @ [z.real, z.imag]
        np.testing.assert_allclose(xy, [rotated.real, rotated.imag], atol=1e-14)


def test_half_layout_matrix_is_permuted_interleaved_matrix():
    d, m = 8, 3.7
    P = np.eye(d)[half_permutation(d)]  # (P x)[j] = x[perm[j]]
    expected = P @ rotation_matrix(m, d) @ P.T
    np.testing.assert_allclose(rotation_matrix(m, d, layout="half"), expected, atol=1e-15)


def test_half_permutation_pairs():
    perm = half_permutation(10)
    # pair i sits at (2i, 2i+1) interleaved and at (i, i + d/2) in the half layout
    for i in range(5):
        assert perm[i] == 2 * i and perm[i + 5] == 2 * i + 1
