"""Tests of ropemath.symbolic.refutations: each false claim is refuted at its counterexample, the
values are confirmed with numpy (ropemath.core.rotation.rotation_2d, an independent construction), the
correct forms are proved, the gap formulas agree with numpy at seeded random inputs, and a true
claim is NOT reported as refuted."""

import math

import numpy as np
import pytest
import sympy as sp

from ropemath.core.rotation import rotation_2d
from ropemath.symbolic import refutations
from ropemath.symbolic.common import check_identity, k0, k1, m, n, q0, q1, theta
from ropemath.symbolic.proofs import prove_relative_position_2d

NAMES = ["relative_sign", "missing_cross_term", "norms_times_cos", "missing_weight_transpose"]


def test_registry_names_in_order():
    assert refutations.refutation_names() == tuple(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_claim_is_refuted(name):
    r = refutations.get_refutation(name)
    assert r.refuted is True
    assert r.correct.holds is True
    assert r.gap.holds is True
    assert r.lhs_value != r.claim_value
    assert r.lhs_value == r.correct_value
    for value in (r.lhs_value, r.claim_value, r.correct_value):
        assert value.is_number  # plain numbers anyone can plug in
    assert r.values_text() and r.summary() and r.source and r.holds_when


# Worked by hand (R(a) = [[cos a, -sin a], [sin a, cos a]], R(pi/2)(x, y) = (-y, x)); m = 1, n = 0, theta = pi/2:
# relative_sign:  R_1 (1,0) = (0,1), R_0 (0,1) = (0,1): true 1; claim (1,0).R(pi/2)(0,1) = (1,0).(-1,0) = -1.
# missing_cross_term:  k = (1,1): true (0,1).(1,1) = 1; claim (q.k) cos(pi/2) = 1 * 0 = 0.
# norms_times_cos:  q = (1,0), k = (0,1) (r = 1, alpha_q = 0, alpha_k = pi/2): true 1; claim 1*1*cos(pi/2) = 0.
# missing_weight_transpose:  W_q x_m = (1,0), R_1 (1,0) = (0,1), R_0 W_k x_n = (0,1): true 1;
#   claim: R(-pi/2)(0,1) = (1,0), W_q (1,0) = (0,0), so x_m.(0,0) = 0; correct W_q^T (1,0) = (0,1), x_m.(0,1) = 1.
HAND = {
    "relative_sign": ("q_0 = 1, q_1 = 0, k_0 = 0, k_1 = 1, m = 1, n = 0, theta = pi/2", 1, -1),
    "missing_cross_term": ("q_0 = 1, q_1 = 0, k_0 = 1, k_1 = 1, m = 1, n = 0, theta = pi/2", 1, 0),
    "norms_times_cos": ("r_q = 1, alpha_q = 0, r_k = 1, alpha_k = pi/2, m = 1, n = 0, theta = pi/2", 1, 0),
    "missing_weight_transpose": (
        "W_q = [[0, 1], [0, 0]], W_k = [[1, 0], [0, 1]], x_m = [[0], [1]], x_n = [[0], [1]], m = 1, n = 0, "
        "theta = pi/2", 1, 0),
}


@pytest.mark.parametrize("name", NAMES)
def test_counterexample_values_match_the_hand_computation(name):
    r = refutations.get_refutation(name)
    values, true_side, claim = HAND[name]
    assert r.values_text() == values
    assert (r.lhs_value, r.claim_value, r.correct_value) == (true_side, claim, true_side)


def score(q, k, m, n, theta):
    """(R_m q)·(R_n k) with numpy's rotation_2d (not the sympy code)."""
    return float((rotation_2d(m * theta) @ np.asarray(q, float)) @ (rotation_2d(n * theta) @ np.asarray(k, float)))


def test_relative_sign_counterexample_numerically():
    r = refutations.get_refutation("relative_sign")
    q, k, m, n, t = (1, 0), (0, 1), 1, 0, math.pi / 2  # the values of the record, typed here
    assert "q_0 = 1, q_1 = 0, k_0 = 0, k_1 = 1, m = 1, n = 0, theta = pi/2" == r.values_text()
    claim = float(np.asarray(q) @ rotation_2d((m - n) * t) @ np.asarray(k))
    correct = float(np.asarray(q) @ rotation_2d((n - m) * t) @ np.asarray(k))
    assert score(q, k, m, n, t) == pytest.approx(float(r.lhs_value), abs=1e-15)  # 1
    assert claim == pytest.approx(float(r.claim_value), abs=1e-15)  # -1
    assert correct == pytest.approx(1.0, abs=1e-15)


def test_missing_cross_term_counterexample_numerically():
    r = refutations.get_refutation("missing_cross_term")
    q, k, m, n, t = (1, 0), (1, 1), 1, 0, math.pi / 2
    assert score(q, k, m, n, t) == pytest.approx(float(r.lhs_value), abs=1e-15)  # 1
    assert (q[0] * k[0] + q[1] * k[1]) * math.cos((m - n) * t) == pytest.approx(float(r.claim_value), abs=1e-15)
    assert score(q, k, m, n, t) == pytest.approx(1.0, abs=1e-15)  # HAND["missing_cross_term"]


def test_norms_times_cos_counterexample_numerically():
    r = refutations.get_refutation("norms_times_cos")
    q, k, m, n, t = (1, 0), (0, 1), 1, 0, math.pi / 2  # r_q = r_k = 1, alpha_q = 0, alpha_k = pi/2
    assert score(q, k, m, n, t) == pytest.approx(float(r.lhs_value), abs=1e-15)
    assert math.hypot(*q) * math.hypot(*k) * math.cos((m - n) * t) == pytest.approx(float(r.claim_value), abs=1e-15)
    assert score(q, k, m, n, t) == pytest.approx(1.0, abs=1e-15)  # HAND["norms_times_cos"]


def test_missing_weight_transpose_counterexample_numerically():
    r = refutations.get_refutation("missing_weight_transpose")
    Wq, Wk = np.array([[0.0, 1.0], [0.0, 0.0]]), np.eye(2)
    xm, xn, m, n, t = np.array([0.0, 1.0]), np.array([0.0, 1.0]), 1, 0, math.pi / 2
    true = (rotation_2d(m * t) @ Wq @ xm) @ (rotation_2d(n * t) @ Wk @ xn)
    claim = xm @ Wq @ rotation_2d((n - m) * t) @ Wk @ xn
    assert true == pytest.approx(float(r.lhs_value), abs=1e-15)  # 1
    assert claim == pytest.approx(float(r.claim_value), abs=1e-15)  # 0
    assert (true, claim) == (pytest.approx(1.0, abs=1e-15), pytest.approx(0.0, abs=1e-15))  # HAND


def test_gap_formulas_match_numpy_at_random_inputs():
    rng = np.random.default_rng(7)
    for _ in range(5):
        q, k = rng.normal(size=2), rng.normal(size=2)
        m, n = rng.integers(-50, 50, size=2)
        t = float(rng.uniform(0, 1))
        s = score(q, k, m, n, t)
        cross, phi = q[0] * k[1] - q[1] * k[0], (m - n) * t
        wrong_sign = float(q @ rotation_2d(phi) @ k)
        assert s - wrong_sign == pytest.approx(2 * cross * math.sin(phi), abs=1e-12)
        assert s - (q @ k) * math.cos(phi) == pytest.approx(cross * math.sin(phi), abs=1e-12)
        delta = math.atan2(q[1], q[0]) - math.atan2(k[1], k[0])
        norms = math.hypot(*q) * math.hypot(*k)
        expected = norms * ((math.cos(delta) - 1) * math.cos(phi) - math.sin(delta) * math.sin(phi))
        assert s - norms * math.cos(phi) == pytest.approx(expected, abs=1e-12)
        Wq, Wk, xm, xn = rng.normal(size=(2, 2)), rng.normal(size=(2, 2)), rng.normal(size=2), rng.normal(size=2)
        true = (rotation_2d(m * t) @ Wq @ xm) @ (rotation_2d(n * t) @ Wk @ xn)
        claim = xm @ Wq @ rotation_2d((n - m) * t) @ Wk @ xn
        gap = xm @ (Wq.T - Wq) @ rotation_2d((n - m) * t) @ Wk @ xn
        assert true - claim == pytest.approx(gap, abs=1e-12)


def test_a_true_claim_is_not_refuted():
    correct = prove_relative_position_2d()
    values = {q0: 1, q1: 0, k0: 0, k1: 1, m: 1, n: 0, theta: sp.pi / 2}
    r = refutations.refute("not_wrong", correct.shown_rhs, source="test", correct=correct, values=values,
                           gap=sp.Integer(0), holds_when="always")
    assert r.refuted is False


def test_incomplete_values_are_rejected():
    correct = prove_relative_position_2d()
    with pytest.raises(ValueError, match="values must give every symbol a number"):
        refutations.refute("partial", correct.shown_rhs, source="test", correct=correct, values={q0: 1, q1: 0},
                           gap=sp.Integer(0), holds_when="always")


def test_an_unproved_correct_form_does_not_refute():
    x = sp.Symbol("x", real=True)
    bogus = check_identity("bogus", x, 2 * x, source="test")
    assert bogus.holds is False
    r = refutations.refute("x_is_3x", 3 * x, source="test", correct=bogus, values={x: 1}, gap=-2 * x,
                           holds_when="x = 0")
    assert r.refuted is False


def test_get_refutation_rejects_unknown_names():
    with pytest.raises(ValueError, match="name must be one of"):
        refutations.get_refutation("nope")
    with pytest.raises(TypeError, match="name must be"):
        refutations.get_refutation(None)
