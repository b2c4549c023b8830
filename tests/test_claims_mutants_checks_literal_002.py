"""Tests that tell mutants of ropemath.claims.checks_literal from the original (``make mutants``).

What they pin, and why:

* the counterexamples reproduce from the inputs they report: doubled_goal_formula's q = k and m = n give
  <f_q, f_k> and g <f_q, f_k>; kn_named_query's q_m, k_n, m, n, theta give the stated and the true score;
  index_shift's d, m, q = e_0 and coordinate give the §4 matrix entry and the §4.1 formula; the angle of
  angle_under_different_rotations is recomputed from its reported q = k, theta, m, n (with plain 2x2 rotations,
  not the code under test);
* embedding_rotated_before_projection's reported relative score change is recomputed from its reported d, N and
  shift with an independent interleaved RoPE;
* position_term_absolute's first reported gap (learned p, seed 60) is recomputed;
* direction_rotation_unique says "the only one" exactly when it holds, and its 3D control has 1 free parameter
  (dim SO(3) = 3 minus rank 2);
* matrix_sparse's bound of 1/16 is exact: d = 32 fills exactly 1/16 (holds), d = 16 fills 1/8 (fails).
"""

import math

import numpy as np
import pytest

from ropemath.claims import checks_literal as L
from ropemath.claims.controls import CONTROLS


def _rot(t):
    return np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])


def _rope(x, p, d):
    """Interleaved RoPE written out: pair (2i, 2i+1) turned by p * 10000^(-2i/d); x of shape (..., d)."""
    out = np.array(x, dtype=float)
    for i in range(d // 2):
        c, s = math.cos(p * 10000.0 ** (-2 * i / d)), math.sin(p * 10000.0 ** (-2 * i / d))
        a, b = x[..., 2 * i], x[..., 2 * i + 1]
        out[..., 2 * i], out[..., 2 * i + 1] = c * a - s * b, s * a + c * b
    return out


def test_doubled_goal_formula_counterexample_reproduces():
    ce = L.doubled_goal_formula().counterexample
    q = np.array(ce["q = k"])
    m = ce["m = n"]
    a = float((_rot(m) @ q) @ (_rot(m) @ q))  # d = 2, theta_0 = 1
    g = float(q @ q)
    assert ce["<f_q, f_k>"] == pytest.approx(a) and ce["g <f_q, f_k>"] == pytest.approx(g * a)
    assert ce["<f_q, f_k>"] != pytest.approx(ce["g <f_q, f_k>"])


@pytest.mark.parametrize("check", [L.kn_named_query, CONTROLS[L.kn_named_query].run])
def test_kn_named_query_counterexample_reproduces(check):
    o = check()
    ce = o.counterexample
    qm, kn, t = np.array(ce["q_m"]), np.array(ce["k_n"]), ce["theta"]
    query = kn if "k_n as the query" in o.evidence else qm
    assert ce["stated"] == pytest.approx((_rot(ce["m"] * t) @ query) @ (_rot(ce["n"] * t) @ kn), abs=1e-4)
    assert ce["actual"] == pytest.approx((_rot(ce["m"] * t) @ qm) @ (_rot(ce["n"] * t) @ kn), abs=1e-4)


def test_kn_named_query_verdicts():
    assert L.kn_named_query().verdict == "fails"
    assert CONTROLS[L.kn_named_query].run().verdict == "holds"


def test_position_term_learned_gap_recomputed():
    rng = np.random.default_rng(60)
    wq, wk = rng.standard_normal((2, 8, 8))
    p = rng.standard_normal((12, 8))
    s = (p @ wq.T) @ (p @ wk.T).T
    gap = abs(s[1, 0] - s[6, 5])
    assert f"differ by {gap:.1e}, " in L.position_term_absolute().evidence


def test_embedding_rotated_before_projection_change_recomputed():
    ce = L.embedding_rotated_before_projection().counterexample
    d, n, shift = ce["d"], ce["N"], ce["shift"]
    rng = np.random.default_rng(61)
    x, wq, wk = rng.standard_normal((n, d)), *rng.standard_normal((2, d, d))

    def scores(pos):
        rx = np.stack([_rope(x[i], pos[i], d) for i in range(n)])
        return (rx @ wq.T) @ (rx @ wk.T).T

    pos = np.arange(float(n))
    a, b = scores(pos), scores(pos + shift)
    assert ce["relative score change"] == pytest.approx(np.max(np.abs(a - b)) / np.max(np.abs(a)), abs=1e-4)


def test_direction_rotation_unique_text_and_control():
    o = L.direction_rotation_unique()
    assert o.verdict == "holds" and "is the only one" in o.evidence and "Not unique" not in o.evidence
    c = CONTROLS[L.direction_rotation_unique].run()
    # R^3: dim SO(3) = 3, and A -> A u over skew A has rank 2 (the image is u's orthogonal plane): 1 free parameter
    assert c.verdict == "fails" and c.counterexample == {"dim": 3, "free parameters": 1}
    assert "Not unique" in c.evidence and "is the only one" not in c.evidence


def test_matrix_sparse_bound_is_one_sixteenth():
    assert L.matrix_sparse(dims=(32,)).verdict == "holds"  # 64 of 1024 = exactly 1/16
    assert L.matrix_sparse(dims=(16,)).verdict == "fails"  # 32 of 256 = 1/8


def test_index_shift_counterexample_reproduces():
    o = L.index_shift()
    ce = o.counterexample
    d, m, i = ce["d"], ce["m"], ce["coordinate"]
    assert ce["q"] == "e_0" and ce["theta_k"] == "10^-k"
    # §4's first block is R(m theta_1) with theta_1 = 10^-1 at d = 8; §4.1's first is R(m theta_0), theta_0 = 1
    matrix = _rot(m * 10000.0 ** (-2 / d))[:, 0]
    fast = _rot(m * 1.0)[:, 0]
    assert d == 8 and ce["stated"] == pytest.approx(matrix[i], abs=1e-4)
    assert ce["actual"] == pytest.approx(fast[i], abs=1e-4)
    assert o.verdict == "fails" and CONTROLS[L.index_shift].run().verdict == "holds"


@pytest.mark.parametrize("check", [L.angle_under_different_rotations, CONTROLS[L.angle_under_different_rotations].run])
def test_angle_under_different_rotations_reproduces(check):
    ce = check().counterexample
    q = np.array(ce["q = k"])
    t = ce["theta"]
    u, v = _rot(ce["m"] * t) @ q, _rot(ce["n"] * t) @ q
    angle = math.acos(max(-1.0, min(1.0, float(u @ v) / np.linalg.norm(u) / np.linalg.norm(v))))
    assert ce["actual"] == pytest.approx(angle, abs=1e-4) and ce["stated"] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("check", [L.elementwise_display, CONTROLS[L.elementwise_display].run])
def test_elementwise_display_counterexample_reproduces(check):
    ce = check().counterexample
    d, m, i, j = ce["d"], ce["m"], ce["coordinate"], int(ce["q"][2:])
    assert ce["theta_i"] == "10^-i" and d == 8
    block = _rot(m * 10.0 ** -(i // 2))  # pair i // 2 turns by m theta_(i // 2), theta_k = 10^-k at d = 8
    actual = block[i % 2, j % 2] if i // 2 == j // 2 else 0.0
    assert ce["actual"] == pytest.approx(actual, abs=1e-4)


def test_elementwise_display_worst_entry_is_the_fifth_sine():
    # every other entry of the display agrees with R_m; entry (4, 5) is -sin(theta_1) instead of -sin(theta_2)
    ce = L.elementwise_display().counterexample
    assert (ce["q"], ce["coordinate"], ce["m"]) == ("e_5", 4, 1)
    assert ce["stated"] == pytest.approx(-math.sin(0.1), abs=1e-4)
