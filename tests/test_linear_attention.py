"""Linear attention with RoPE (ropemath.attention.linear) against explicit Python double loops.

Independent sides: RoFormer eq. (19) as a literal double sum with the dense rotation_matrix
and Python sums; elu+1 with math.exp; closed forms worked by hand (2 cos 3, 2 + 2 cos 355).
Notebook 06 names the tests that pin its statements.
"""

import math

import numpy as np
import pytest

from ropemath import (
    elu_plus_one,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    rotation_2d,
    rotation_matrix,
    smallest_numerator,
    weight_sum_deviation,
)


def dot(a, b):
    return sum(float(x) * float(y) for x, y in zip(a, b, strict=True))


def loop_elu1(x):
    return np.array([[a + 1.0 if a > 0 else math.exp(a) for a in row] for row in x])


def loop_linear_attention(q, k, v, pos, causal, base=1e4):
    """RoFormer eq. (19) as a literal double sum (numerator rotated, denominator not)."""
    N, d = q.shape
    fq, fk = loop_elu1(q), loop_elu1(k)
    out = np.zeros((N, v.shape[1]))
    for m in range(N):
        visible = range(m + 1) if causal else range(N)
        rq = rotation_matrix(pos[m], d, base) @ fq[m]
        num = [dot(rq, rotation_matrix(pos[n], d, base) @ fk[n]) for n in visible]
        den = sum(dot(fq[m], fk[n]) for n in visible)
        for e in range(v.shape[1]):
            out[m, e] = sum(a * v[n, e] for a, n in zip(num, visible, strict=True)) / den
    return out


def random_qkv(seed, N=7, d=6, dv=3, scale=1.0):
    rng = np.random.default_rng(seed)
    return scale * rng.standard_normal((N, d)), scale * rng.standard_normal((N, d)), rng.standard_normal((N, dv))


POSITIONS = [np.arange(7.0), np.array([3.0, -2.0, 10.0, 10.0, 0.5, 100.0, 7.0]), np.arange(7.0) + 1e5]


# --- linear attention ---------------------------------------------------------------------


def test_elu_plus_one_matches_formula_and_is_positive():
    x = np.array([[-800.0, -3.0, -1e-9, 0.0, 1e-9, 2.0, 800.0]])
    np.testing.assert_allclose(elu_plus_one(x), loop_elu1(x), rtol=1e-15)
    assert np.all(elu_plus_one(np.array([-700.0, -1.0])) > 0)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("pos", POSITIONS)
def test_linear_attention_matches_loop(pos, causal):
    q, k, v = random_qkv(7)
    np.testing.assert_allclose(
        rope_linear_attention(q, k, v, pos, causal=causal, layout="interleaved", base=1e4),
        loop_linear_attention(q, k, v, pos, causal),
        atol=1e-12,
    )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_prefix_sum_form_equals_quadratic_form(seed, causal):
    """Notebook 06: the O(N) running-sum form gives the O(N^2) form's outputs."""
    rng = np.random.default_rng(seed)
    N, d, dv = 200, 16, 5
    q, k, v = rng.standard_normal((N, d)), rng.standard_normal((N, d)), rng.standard_normal((N, dv))
    pos = np.arange(N) + float(rng.integers(0, 1000))
    fast = rope_linear_attention_prefix(q, k, v, pos, causal=causal, layout="interleaved", base=1e4)
    slow = rope_linear_attention(q, k, v, pos, causal=causal, layout="interleaved", base=1e4)
    assert np.max(np.abs(fast - slow)) / np.max(np.abs(slow)) < 1e-12


def test_prefix_sum_form_with_custom_feature_map():
    q, k, v = random_qkv(8)
    pos = np.arange(7.0)

    def phi(x):
        return np.exp(x)

    np.testing.assert_allclose(
        rope_linear_attention_prefix(q, k, v, pos, causal=True, feature_map=phi, layout="interleaved", base=1e4),
        rope_linear_attention(q, k, v, pos, causal=True, feature_map=phi, layout="interleaved", base=1e4),
        atol=1e-12,
    )


def test_linear_weights_sum_to_one_without_rotation_differences():
    """All positions equal: every rotation cancels, the weights sum to exactly one (up to rounding)."""
    q, k, _ = random_qkv(9)
    assert weight_sum_deviation(q, k, np.full(7, 42.0), layout="interleaved", base=1e4) < 1e-14
    assert weight_sum_deviation(q, k, np.full(7, 42.0), causal=True, layout="interleaved", base=1e4) < 1e-14


def loop_weight_sums(q, k, pos):
    """sum_n A_mn / D_m of eq. (19), by explicit loops over m and n (dense rotation matrices)."""
    N, d = q.shape
    fq, fk = loop_elu1(q), loop_elu1(k)
    sums = []
    for m in range(N):
        rq = rotation_matrix(pos[m], d) @ fq[m]
        num = sum(dot(rq, rotation_matrix(pos[n], d) @ fk[n]) for n in range(N))
        den = sum(dot(fq[m], fk[n]) for n in range(N))
        sums.append(num / den)
    return np.array(sums)


def test_linear_weights_do_not_sum_to_one():
    """Notebook 06: with distinct positions the row sums of A_mn / D_m are not 1 (loop-computed)."""
    q, k, _ = random_qkv(10)
    pos = np.arange(7.0)
    worst = float(np.max(np.abs(loop_weight_sums(q, k, pos) - 1.0)))
    assert abs(weight_sum_deviation(q, k, pos, layout="interleaved", base=1e4) - worst) < 1e-12
    assert worst > 0.05


def test_negative_numerator_concrete_case():
    """Notebook 06: q = k = 0 → φ = (1, 1); at distance 3 (d = 2, θ_0 = 1) the numerator is 2 cos 3 < 0."""
    A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [3.0, 0.0], layout="interleaved", base=1e4)
    assert abs(A[0, 1] - 2 * math.cos(3.0)) < 1e-15 and A[0, 1] < -1.9
    assert np.all(D > 0)  # the unrotated products stay positive
    assert (
        abs(
            smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [3.0, 0.0], layout="interleaved", base=1e4)
            - 2 * math.cos(3.0)
        )
        < 1e-15
    )


def test_negative_numerators_occur_for_random_inputs_but_unrotated_products_do_not():
    q, k, _ = random_qkv(11, N=32, d=8)
    assert smallest_numerator(q, k, np.arange(32.0), layout="interleaved", base=1e4) < 0
    assert smallest_numerator(q, k, np.zeros(32), layout="interleaved", base=1e4) > 0  # no rotation: φ(q)^T φ(k) > 0


def test_smallest_numerator_ignores_masked_entries():
    # the visible pairs are (0,0), (1,1) with numerator 2 and (1,0) with 2 cos(0 - 3) = 2 cos 3; (0,1) is masked
    A, _ = rope_linear_terms(
        np.zeros((2, 2)), np.zeros((2, 2)), [0.0, 3.0], causal=True, layout="interleaved", base=1e4
    )
    assert A[0, 1] == 0.0 and abs(A[1, 0] - 2 * math.cos(3.0)) < 1e-15
    smallest = smallest_numerator(
        np.zeros((2, 2)), np.zeros((2, 2)), [0.0, 3.0], causal=True, layout="interleaved", base=1e4
    )
    assert abs(smallest - 2 * math.cos(3.0)) < 1e-15


def test_rotated_denominator_can_nearly_vanish():
    """Notebook 06: a rotated denominator 2 + 2cos(355) ≈ 9e-10 (355 ≈ 113π); the paper's unrotated one is 4."""
    A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [355.0, 0.0], layout="interleaved", base=1e4)
    closed = 2.0 + 2.0 * math.cos(355.0)
    assert abs(A[0].sum() - closed) < 1e-14 and closed < 1e-9
    assert D[0] == 4.0


def test_rotated_denominator_can_be_negative():
    """Notebook 06: with a second key at 0 the rotated sum is 2 + 4 cos 355 ≈ -2 < 0; unrotated it is 6."""
    A, D = rope_linear_terms(np.zeros((3, 2)), np.zeros((3, 2)), [355.0, 0.0, 0.0], layout="interleaved", base=1e4)
    closed = 2.0 + 4.0 * math.cos(355.0)
    assert abs(A[0].sum() - closed) < 1e-13 and closed < -1.99
    assert D[0] == 6.0


# --- bad input --------------------------------------------------------------------------------


Q = np.zeros((3, 4))
V = np.zeros((3, 2))
P = np.arange(3.0)


def test_bad_shapes_and_values():
    with pytest.raises(ValueError, match=r"^v must have shape \(3, d_v\)"):
        rope_linear_attention_prefix(Q, Q, np.zeros(3), P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^q must have shape \(N, d\) with N >= 1, got shape \(0, 2\)"):
        rope_linear_attention(
            np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 1)), np.zeros(0), layout="interleaved", base=1e4
        )
    with pytest.raises(TypeError, match=r"^v must be a real floating-point array"):
        rope_linear_attention(Q, Q, np.zeros((3, 2), dtype=complex), P, layout="interleaved", base=1e4)
    with pytest.raises(TypeError, match=r"^causal must be a bool"):
        rope_linear_attention_prefix(Q, Q, V, P, causal=1, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0"):
        rope_linear_attention(Q, Q, V, P, base=0.0, layout="interleaved")
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
        elu_plus_one([1, 2])
    with pytest.raises(ValueError, match=r"^x must contain only finite values"):
        elu_plus_one(np.array([0.0, np.nan]))


def test_bad_feature_maps():
    with pytest.raises(TypeError, match=r"^feature_map must be callable"):
        rope_linear_attention(Q, Q, V, P, feature_map="elu", layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^feature_map\(q\) must have a positive even last axis"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: x[:, :3], layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^feature_map must give positive denominators .* denominator of 0$"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: 0.0 * x, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^feature_map must give positive denominators"):
        rope_linear_attention_prefix(Q, Q, V, P, feature_map=lambda x: 0.0 * x, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^feature_map\(q\) must contain only finite values"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: x + np.inf, layout="interleaved", base=1e4)
    # a signed map can make a denominator negative: phi(q) = (1, 1), phi(k) = (-1, -1) gives -2 < 0
    q, k = np.ones((2, 2)), -np.ones((2, 2))
    for attend in (rope_linear_attention, rope_linear_attention_prefix):
        with pytest.raises(ValueError, match=r"^feature_map must give positive denominators .* of -4$"):
            attend(q, k, np.ones((2, 1)), [0.0, 1.0], feature_map=lambda x: x, layout="interleaved", base=1e4)


def test_linear_output_for_unit_values_is_the_weight_sum():
    """Notebook 06: with v_n = 1 the output is sum_n A_mn / D_m, not 1: no longer a weighted average."""
    q, k, _ = random_qkv(12)
    pos = np.arange(7.0)
    out = rope_linear_attention(q, k, np.ones((7, 1)), pos, layout="interleaved", base=1e4)
    np.testing.assert_allclose(out[:, 0], loop_weight_sums(q, k, pos), rtol=1e-13)  # independent loop
    assert np.max(np.abs(out - 1.0)) > 0.05


def test_causal_first_row_weights_sum_to_one():
    q, k, _ = random_qkv(13)
    A, D = rope_linear_terms(q, k, np.arange(7.0) + 5.0, causal=True, layout="interleaved", base=1e4)
    assert abs(A[0].sum() / D[0] - 1.0) < 1e-15


@pytest.mark.parametrize("angle", [0.0, 1.0, 3.0, -2.5, 355.0])
def test_quadratic_form_of_a_rotation(angle):
    """u^T R(a) u = |u|^2 cos a for any u: the antisymmetric sin part cancels."""
    for u in np.random.default_rng(14).standard_normal((5, 2)):
        assert abs(u @ rotation_2d(angle) @ u - (u @ u) * math.cos(angle)) < 1e-14
