"""Softmax attention with RoPE (ropemath.attention.softmax) against explicit Python double loops.

Independent sides: every score is rebuilt as (R_m q_m)·(R_n k_n) with the dense
rotation_matrix and Python sums; softmax with math.exp.  The linear attention of RoFormer
eq. (19) is tested in tests/test_linear_attention.py.  Notebook 06 names the tests that pin
its statements.
"""

import math

import numpy as np
import pytest

from ropemath import (
    rope_attention_weights,
    rope_linear_attention,
    rope_scores,
    rope_softmax_attention,
    rotation_matrix,
)


def shift_invariance_error(q, k, v, positions, shift, *, causal, kind):
    """max |o(p + s) - o(p)| / max |o(p)| for softmax or linear attention (interleaved, base 10000)."""
    attend = {"softmax": rope_softmax_attention, "linear": rope_linear_attention}[kind]
    before, after = (attend(q, k, v, p, causal=causal, layout="interleaved", base=1e4)
                     for p in (positions, positions + shift))
    return float(np.max(np.abs(after - before)) / np.max(np.abs(before)))


def dot(a, b):
    return sum(float(x) * float(y) for x, y in zip(a, b, strict=True))


def loop_scores(q, k, pos, base=1e4):
    d = q.shape[1]
    rq = [rotation_matrix(p, d, base) @ row for p, row in zip(pos, q, strict=True)]
    rk = [rotation_matrix(p, d, base) @ row for p, row in zip(pos, k, strict=True)]
    return [[dot(rq[m], rk[n]) for n in range(len(pos))] for m in range(len(pos))]


def loop_softmax_attention(q, k, v, pos, causal, base=1e4):
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


def random_qkv(seed, N=7, d=6, dv=3, scale=1.0):
    rng = np.random.default_rng(seed)
    return scale * rng.standard_normal((N, d)), scale * rng.standard_normal((N, d)), rng.standard_normal((N, dv))


POSITIONS = [np.arange(7.0), np.array([3.0, -2.0, 10.0, 10.0, 0.5, 100.0, 7.0]), np.arange(7.0) + 1e5]


# --- softmax attention --------------------------------------------------------------------


@pytest.mark.parametrize("pos", POSITIONS)
def test_rope_scores_match_loop(pos):
    q, k, _ = random_qkv(1)
    np.testing.assert_allclose(
        rope_scores(q, k, pos, layout="interleaved", base=1e4), loop_scores(q, k, pos), rtol=0, atol=1e-11
    )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("pos", POSITIONS)
def test_softmax_attention_matches_loop(pos, causal):
    q, k, v = random_qkv(2)
    np.testing.assert_allclose(
        rope_softmax_attention(q, k, v, pos, causal=causal, layout="interleaved", base=1e4),
        loop_softmax_attention(q, k, v, pos, causal),
        atol=1e-12,
    )


def test_softmax_attention_base_is_used():
    q, k, v = random_qkv(3)
    pos = np.arange(7.0)
    expected = loop_softmax_attention(q, k, v, pos, False, base=7.0)
    np.testing.assert_allclose(
        rope_softmax_attention(q, k, v, pos, base=7.0, layout="interleaved"), expected, atol=1e-12
    )
    assert (
        np.max(
            np.abs(
                rope_softmax_attention(q, k, v, pos, base=7.0, layout="interleaved")
                - rope_softmax_attention(q, k, v, pos, layout="interleaved", base=1e4)
            )
        )
        > 1e-3
    )


def test_softmax_is_numerically_stable_for_huge_scores():
    """Scores of order 1e4: no overflow (warnings are errors here), rows still sum to one."""
    q, k, v = random_qkv(4, scale=100.0)
    w = rope_attention_weights(q, k, np.arange(7.0), causal=True, layout="interleaved", base=1e4)
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(
        rope_softmax_attention(q, k, v, np.arange(7.0), causal=True, layout="interleaved", base=1e4),
        loop_softmax_attention(q, k, v, np.arange(7.0), True),
        atol=1e-12,
    )


def test_causal_weights_are_lower_triangular():
    q, k, _ = random_qkv(5)
    w = rope_attention_weights(q, k, np.arange(7.0), causal=True, layout="interleaved", base=1e4)
    assert np.all(np.triu(w, 1) == 0)


@pytest.mark.parametrize("kind", ["softmax", "linear"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shift", [1.0, -500.5, 1000.0])
def test_shift_invariance(kind, causal, shift):
    """Notebook 06: shifting every position by s changes the output only at rounding level."""
    q, k, v = random_qkv(6)
    assert (
        shift_invariance_error(q, k, v, np.arange(7.0), shift, causal=causal, kind=kind)
        < 1e-12
    )


def test_scaled_positions_change_the_output():
    """Negative control: a different relative layout (positions scaled by 2) is detected."""
    q, k, v = random_qkv(6)
    pos = np.arange(7.0)
    o1, o2 = (
        rope_softmax_attention(q, k, v, pos, layout="interleaved", base=1e4),
        rope_softmax_attention(q, k, v, 2 * pos, layout="interleaved", base=1e4),
    )
    assert np.max(np.abs(o1 - o2)) > 1e-2


def test_softmax_weights_do_sum_to_one():
    q, k, _ = random_qkv(10)
    np.testing.assert_allclose(
        rope_attention_weights(q, k, np.arange(7.0), layout="interleaved", base=1e4).sum(axis=1), 1.0, atol=1e-15
    )


# --- bad input --------------------------------------------------------------------------------


Q = np.zeros((3, 4))
V = np.zeros((3, 2))
P = np.arange(3.0)


def test_bad_shapes():
    with pytest.raises(ValueError, match=r"^q must have shape \(N, d\) with N >= 1"):
        rope_scores(np.zeros(4), np.zeros(4), [0], layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^q must have shape \(N, d\) with N >= 1, got shape \(0, 2\)"):
        rope_attention_weights(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^k must have the shape of q"):
        rope_scores(Q, np.zeros((2, 4)), P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^k must have last axis of length d=4"):
        rope_scores(Q, np.zeros((3, 6)), P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^q must have a positive even last axis"):
        rope_scores(np.zeros((3, 3)), np.zeros((3, 3)), P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^positions must have shape \(3,\)"):
        rope_scores(Q, Q, [0.0, 1.0], layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^v must have shape \(3, d_v\)"):
        rope_softmax_attention(Q, Q, np.zeros((2, 2)), P, layout="interleaved", base=1e4)


def test_bad_types_and_values():
    with pytest.raises(TypeError, match=r"^q must be a real floating-point array"):
        rope_scores(np.zeros((3, 4), dtype=int), Q, P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^q must contain only finite values"):
        rope_scores(np.full((3, 4), np.nan), Q, P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^v must contain only finite values"):
        rope_softmax_attention(Q, Q, np.full((3, 2), np.inf), P, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^positions must contain only finite values"):
        rope_scores(Q, Q, [0.0, np.inf, 1.0], layout="interleaved", base=1e4)
    with pytest.raises(TypeError, match=r"^causal must be a bool, got str 'yes'$"):
        rope_softmax_attention(Q, Q, V, P, causal="yes", layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0"):
        rope_softmax_attention(Q, Q, V, P, base=0.0, layout="interleaved")
