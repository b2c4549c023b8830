"""Attention with RoPE (ropemath.attention) against explicit Python double loops.

Independent sides: every score is rebuilt as (R_m q_m)·(R_n k_n) with the dense
rotation_matrix and Python sums; softmax with math.exp; elu+1 with math.exp; linear attention
by the literal eq. (19) double sum.  Notebook 06 names the tests that pin its statements.
"""

import math

import numpy as np
import pytest

from ropemath import (
    elu_plus_one,
    rope_attention_weights,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    rope_scores,
    rope_softmax_attention,
    rotation_2d,
    rotation_matrix,
    shift_invariance_error,
    smallest_numerator,
    weight_sum_deviation,
)


def dot(a, b):
    return sum(float(x) * float(y) for x, y in zip(a, b, strict=True))


def loop_scores(q, k, pos, base=10000.0):
    d = q.shape[1]
    rq = [rotation_matrix(p, d, base) @ row for p, row in zip(pos, q, strict=True)]
    rk = [rotation_matrix(p, d, base) @ row for p, row in zip(pos, k, strict=True)]
    return [[dot(rq[m], rk[n]) for n in range(len(pos))] for m in range(len(pos))]


def loop_softmax_attention(q, k, v, pos, causal, base=10000.0):
    """o_m = Σ_n exp(s_mn/√d - max) v_n / Σ_n exp(s_mn/√d - max), by explicit loops."""
    N, d = q.shape
    S = loop_scores(q, k, pos, base)
    out = np.zeros((N, v.shape[1]))
    for m in range(N):
        visible = range(m + 1) if causal else range(N)
        top = max(S[m][n] / math.sqrt(d) for n in visible)
        w = {n: math.exp(S[m][n] / math.sqrt(d) - top) for n in visible}
        total = sum(w.values())
        for e in range(v.shape[1]):
            out[m, e] = sum(w[n] * v[n, e] for n in visible) / total
    return out


def loop_elu1(x):
    return np.array([[a + 1.0 if a > 0 else math.exp(a) for a in row] for row in x])


def loop_linear_attention(q, k, v, pos, causal, base=10000.0):
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


# --- softmax attention --------------------------------------------------------------------


@pytest.mark.parametrize("pos", POSITIONS)
def test_rope_scores_match_loop(pos):
    q, k, _ = random_qkv(1)
    np.testing.assert_allclose(rope_scores(q, k, pos), loop_scores(q, k, pos), rtol=0, atol=1e-11)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("pos", POSITIONS)
def test_softmax_attention_matches_loop(pos, causal):
    q, k, v = random_qkv(2)
    np.testing.assert_allclose(
        rope_softmax_attention(q, k, v, pos, causal=causal), loop_softmax_attention(q, k, v, pos, causal), atol=1e-12
    )


def test_softmax_attention_base_is_used():
    q, k, v = random_qkv(3)
    pos = np.arange(7.0)
    expected = loop_softmax_attention(q, k, v, pos, False, base=7.0)
    np.testing.assert_allclose(rope_softmax_attention(q, k, v, pos, base=7.0), expected, atol=1e-12)
    assert np.max(np.abs(rope_softmax_attention(q, k, v, pos, base=7.0) - rope_softmax_attention(q, k, v, pos))) > 1e-3


def test_softmax_is_numerically_stable_for_huge_scores():
    """Scores of order 1e4: no overflow (warnings are errors here), rows still sum to one."""
    q, k, v = random_qkv(4, scale=100.0)
    w = rope_attention_weights(q, k, np.arange(7.0), causal=True)
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(
        rope_softmax_attention(q, k, v, np.arange(7.0), causal=True),
        loop_softmax_attention(q, k, v, np.arange(7.0), True),
        atol=1e-12,
    )


def test_causal_weights_are_lower_triangular():
    q, k, _ = random_qkv(5)
    w = rope_attention_weights(q, k, np.arange(7.0), causal=True)
    assert np.all(np.triu(w, 1) == 0)


@pytest.mark.parametrize("kind", ["softmax", "linear"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shift", [1.0, -500.5, 1000.0])
def test_shift_invariance(kind, causal, shift):
    """Notebook 06: shifting every position by s changes the output only at rounding level."""
    q, k, v = random_qkv(6)
    assert shift_invariance_error(q, k, v, np.arange(7.0), shift, causal=causal, kind=kind) < 1e-12


def test_shift_invariance_error_detects_a_change():
    """Negative control: a different relative layout (positions scaled by 2) is detected."""
    q, k, v = random_qkv(6)
    pos = np.arange(7.0)
    o1, o2 = rope_softmax_attention(q, k, v, pos), rope_softmax_attention(q, k, v, 2 * pos)
    assert np.max(np.abs(o1 - o2)) > 1e-2


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
        rope_linear_attention(q, k, v, pos, causal=causal), loop_linear_attention(q, k, v, pos, causal), atol=1e-12
    )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_prefix_sum_form_equals_quadratic_form(seed, causal):
    """Notebook 06: the O(N) running-sum form gives the O(N^2) form's outputs."""
    rng = np.random.default_rng(seed)
    N, d, dv = 200, 16, 5
    q, k, v = rng.standard_normal((N, d)), rng.standard_normal((N, d)), rng.standard_normal((N, dv))
    pos = np.arange(N) + float(rng.integers(0, 1000))
    fast = rope_linear_attention_prefix(q, k, v, pos, causal=causal)
    slow = rope_linear_attention(q, k, v, pos, causal=causal)
    assert np.max(np.abs(fast - slow)) / np.max(np.abs(slow)) < 1e-12


def test_prefix_sum_form_with_custom_feature_map():
    q, k, v = random_qkv(8)
    pos = np.arange(7.0)

    def phi(x):
        return np.exp(x)

    np.testing.assert_allclose(
        rope_linear_attention_prefix(q, k, v, pos, causal=True, feature_map=phi),
        rope_linear_attention(q, k, v, pos, causal=True, feature_map=phi),
        atol=1e-12,
    )


def test_linear_weights_sum_to_one_without_rotation_differences():
    """All positions equal: every rotation cancels, the weights sum to exactly one (up to rounding)."""
    q, k, _ = random_qkv(9)
    assert weight_sum_deviation(q, k, np.full(7, 42.0)) < 1e-14
    assert weight_sum_deviation(q, k, np.full(7, 42.0), causal=True) < 1e-14


def test_linear_weights_do_not_sum_to_one():
    """Notebook 06: with distinct positions the row sums of A_mn / D_m are not 1 (loop-computed)."""
    q, k, _ = random_qkv(10)
    pos = np.arange(7.0)
    d = q.shape[1]
    fq, fk = loop_elu1(q), loop_elu1(k)
    worst = 0.0
    for m in range(7):
        rq = rotation_matrix(pos[m], d) @ fq[m]
        num = sum(dot(rq, rotation_matrix(pos[n], d) @ fk[n]) for n in range(7))
        den = sum(dot(fq[m], fk[n]) for n in range(7))
        worst = max(worst, abs(num / den - 1.0))
    assert abs(weight_sum_deviation(q, k, pos) - worst) < 1e-12
    assert worst > 0.05


def test_softmax_weights_do_sum_to_one():
    q, k, _ = random_qkv(10)
    np.testing.assert_allclose(rope_attention_weights(q, k, np.arange(7.0)).sum(axis=1), 1.0, atol=1e-15)


def test_negative_numerator_concrete_case():
    """Notebook 06: q = k = 0 → φ = (1, 1); at distance 3 (d = 2, θ_0 = 1) the numerator is 2 cos 3 < 0."""
    A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [3.0, 0.0])
    assert abs(A[0, 1] - 2 * math.cos(3.0)) < 1e-15 and A[0, 1] < -1.9
    assert np.all(D > 0)  # the unrotated products stay positive
    assert abs(smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [3.0, 0.0]) - 2 * math.cos(3.0)) < 1e-15


def test_negative_numerators_occur_for_random_inputs_but_unrotated_products_do_not():
    q, k, _ = random_qkv(11, N=32, d=8)
    assert smallest_numerator(q, k, np.arange(32.0)) < 0
    assert smallest_numerator(q, k, np.zeros(32)) > 0  # no rotation: φ(q)^T φ(k) > 0


def test_smallest_numerator_ignores_masked_entries():
    A, _ = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [0.0, 3.0], causal=True)
    assert A[0, 1] == 0.0 and A[1, 0] < 0
    assert smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [0.0, 3.0], causal=True) == A[1, 0]


def test_rotated_denominator_can_nearly_vanish():
    """Notebook 06: a rotated denominator 2 + 2cos(355) ≈ 9e-10 (355 ≈ 113π); the paper's unrotated one is 4."""
    A, D = rope_linear_terms(np.zeros((2, 2)), np.zeros((2, 2)), [355.0, 0.0])
    closed = 2.0 + 2.0 * math.cos(355.0)
    assert abs(A[0].sum() - closed) < 1e-14 and closed < 1e-9
    assert D[0] == 4.0


# --- bad input --------------------------------------------------------------------------------


Q = np.zeros((3, 4))
V = np.zeros((3, 2))
P = np.arange(3.0)


def test_bad_shapes():
    with pytest.raises(ValueError, match=r"^q must have shape \(N, d\)"):
        rope_scores(np.zeros(4), np.zeros(4), [0])
    with pytest.raises(ValueError, match=r"^k must have the shape of q"):
        rope_scores(Q, np.zeros((2, 4)), P)
    with pytest.raises(ValueError, match=r"^k must have last axis of length d=4"):
        rope_scores(Q, np.zeros((3, 6)), P)
    with pytest.raises(ValueError, match=r"^q must have a positive even last axis"):
        rope_scores(np.zeros((3, 3)), np.zeros((3, 3)), P)
    with pytest.raises(ValueError, match=r"^positions must have shape \(3,\)"):
        rope_scores(Q, Q, [0.0, 1.0])
    with pytest.raises(ValueError, match=r"^v must have shape \(3, d_v\)"):
        rope_softmax_attention(Q, Q, np.zeros((2, 2)), P)
    with pytest.raises(ValueError, match=r"^v must have shape \(3, d_v\)"):
        rope_linear_attention_prefix(Q, Q, np.zeros(3), P)


def test_bad_types_and_values():
    with pytest.raises(TypeError, match=r"^q must be a real floating-point array"):
        rope_scores(np.zeros((3, 4), dtype=int), Q, P)
    with pytest.raises(TypeError, match=r"^v must be a real floating-point array"):
        rope_linear_attention(Q, Q, np.zeros((3, 2), dtype=complex), P)
    with pytest.raises(ValueError, match=r"^q must contain only finite values"):
        rope_scores(np.full((3, 4), np.nan), Q, P)
    with pytest.raises(ValueError, match=r"^v must contain only finite values"):
        rope_softmax_attention(Q, Q, np.full((3, 2), np.inf), P)
    with pytest.raises(ValueError, match=r"^positions must contain only finite values"):
        rope_scores(Q, Q, [0.0, np.inf, 1.0])
    with pytest.raises(TypeError, match=r"^causal must be a bool, got str 'yes'$"):
        rope_softmax_attention(Q, Q, V, P, causal="yes")
    with pytest.raises(TypeError, match=r"^causal must be a bool"):
        rope_linear_attention_prefix(Q, Q, V, P, causal=1)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0"):
        rope_linear_attention(Q, Q, V, P, base=0.0)
    with pytest.raises(ValueError, match=r"^shift must be finite"):
        shift_invariance_error(Q, Q, V, P, np.nan)
    with pytest.raises(ValueError, match=r"^kind must be one of \('softmax', 'linear'\)"):
        shift_invariance_error(Q, Q, V, P, 1.0, kind="relu")
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
        elu_plus_one([1, 2])


def test_bad_feature_maps():
    with pytest.raises(TypeError, match=r"^feature_map must be callable"):
        rope_linear_attention(Q, Q, V, P, feature_map="elu")
    with pytest.raises(ValueError, match=r"^feature_map\(q\) must have a positive even last axis"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: x[:, :3])
    with pytest.raises(ValueError, match=r"^feature_map gives a zero denominator"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: 0.0 * x)
    with pytest.raises(ValueError, match=r"^feature_map gives a zero denominator"):
        rope_linear_attention_prefix(Q, Q, V, P, feature_map=lambda x: 0.0 * x)
    with pytest.raises(ValueError, match=r"^feature_map\(q\) must contain only finite values"):
        rope_linear_attention(Q, Q, V, P, feature_map=lambda x: x + np.inf)


def test_linear_output_for_unit_values_is_the_weight_sum():
    """Notebook 06: with v_n = 1 the output is sum_n A_mn / D_m, not 1: no longer a weighted average."""
    q, k, _ = random_qkv(12)
    pos = np.arange(7.0)
    A, D = rope_linear_terms(q, k, pos)
    out = rope_linear_attention(q, k, np.ones((7, 1)), pos)
    np.testing.assert_allclose(out[:, 0], A.sum(axis=1) / D, rtol=1e-14)
    assert np.max(np.abs(out - 1.0)) > 0.05


def test_causal_first_row_weights_sum_to_one():
    q, k, _ = random_qkv(13)
    A, D = rope_linear_terms(q, k, np.arange(7.0) + 5.0, causal=True)
    assert abs(A[0].sum() / D[0] - 1.0) < 1e-15


@pytest.mark.parametrize("angle", [0.0, 1.0, 3.0, -2.5, 355.0])
def test_quadratic_form_of_a_rotation(angle):
    """u^T R(a) u = |u|^2 cos a for any u: the antisymmetric sin part cancels."""
    for u in np.random.default_rng(14).standard_normal((5, 2)):
        assert abs(u @ rotation_2d(angle) @ u - (u @ u) * math.cos(angle)) < 1e-14
