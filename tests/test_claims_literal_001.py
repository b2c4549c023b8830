"""The literal-reading checks of note 001 (ropemath.claims.checks_literal): each verdict, its negative
control's opposite verdict, and the counterexample values recomputed by hand (math / cmath, not the code
under test)."""

import cmath
import math

import pytest

from ropemath.claims import checks_literal as L
from ropemath.claims.controls import CONTROLS


def control_verdict(check):
    return CONTROLS[check].run().verdict


def test_negative_angle_and_its_control():
    assert L.negative_angle().verdict == "holds"
    wrong = CONTROLS[L.negative_angle].run()
    assert wrong.verdict == "fails"
    # sin is odd: sin(-pi/2) = -1, the control's rule sin(-t) = +sin t gives +1
    assert wrong.counterexample["sin(-theta)"] == round(math.sin(-math.pi / 2)) == -1
    assert wrong.counterexample["rule gives"] == 1


def test_polar_split_of_a_real_g_fails():
    out = L.polar_split_literal()
    assert out.verdict == "fails" and out.correction_holds is True
    # f(x, m) = x e^{i m theta} at m = n = 0: q = 1, k = i, g = Re(q conj(k)) = Re(-i) = 0, while |q||k| = 1
    g = ((1 + 0j) * (1j).conjugate()).real
    assert g == 0.0
    assert (out.counterexample["stated"], out.counterexample["actual"]) == (abs(1 + 0j) * abs(1j), abs(g)) == (1.0, 0.0)
    assert control_verdict(L.polar_split_literal) == "holds"  # with complex g, |g| = |q||k| = 1


def test_modulus_needs_the_initial_condition():
    out = L.modulus_initial_condition()
    assert out.verdict == "holds-if"
    # f(x, m) = 2 x e^{i m}: |f(1, 0)| |f(1, 0)| = 2 * 2 = 4, not |q||k| = 1
    assert (out.counterexample["stated"], out.counterexample["actual"]) == (1.0, 4.0)
    assert control_verdict(L.modulus_initial_condition) == "fails"  # the inside sample 2 x e^(i m) breaks it too
    assert L.modulus_initial_condition(scale=1.0).verdict == "holds"  # no case outside the condition: nothing breaks


def test_angle_needs_the_initial_condition():
    out = L.angle_initial_condition()
    assert out.verdict == "holds-if"
    # f(x, m) = conj(x) e^{i m}, q = 1, k = i: Theta(q) - Theta(k) = -pi/2 -> e^{-i pi/2} = -i;
    # Theta_f(q,0) - Theta_f(k,0) = 0 - arg(-i) = pi/2 -> e^{i pi/2} = i
    assert out.counterexample["stated"] == [0.0, -1.0]
    assert out.counterexample["actual"] == [0.0, 1.0]
    assert cmath.exp(1j * (0 - cmath.phase((1j).conjugate()))) == pytest.approx(1j)
    assert control_verdict(L.angle_initial_condition) == "fails"  # the inside sample conj(x) e^(i m) breaks it
    assert L.angle_initial_condition(conjugate=False).verdict == "holds"


def test_phase_needs_the_initial_condition():
    out = L.phase_initial_condition()
    assert out.verdict == "holds-if"
    # f(x, m) = x e^{i(m + 0.5)}: varphi(0) = 0.5, so e^{i varphi(0)} = (cos 0.5, sin 0.5), not (1, 0)
    assert out.counterexample["stated"] == [1.0, 0.0]
    assert out.counterexample["actual"] == [round(math.cos(0.5), 4), round(math.sin(0.5), 4)]
    assert control_verdict(L.phase_initial_condition) == "fails"  # the inside sample x e^(i(m + 0.5)) breaks it
    assert L.phase_initial_condition(offset=0.0).verdict == "holds"


def test_cos_theta_in_some_case():
    assert L.cos_theta_some_case().verdict == "holds"
    # q = k = (1, 0), theta = 1: the score at distance r is cos r; it equals cos 1 at r = +-1, not at 2 or 3
    assert math.cos(-1) == math.cos(1) and abs(math.cos(2) - math.cos(1)) > 0.9 and abs(math.cos(3) - math.cos(1)) > 1
    assert control_verdict(L.cos_theta_some_case) == "fails"


def test_rotating_the_sinusoidal_pair_is_not_rope():
    out = L.sinusoidal_rotated()
    assert out.verdict == "fails" and out.correction_holds is True
    s, c = math.sin(1), math.cos(1)
    # R(1) (sin 1, cos 1) = (cos1 sin1 - sin1 cos1, sin1 sin1 + cos1 cos1) = (0, 1); RoPE of (1, 0) is (cos 1, sin 1)
    assert out.counterexample["p_m"] == [round(s, 4), round(c, 4)]
    assert out.counterexample["e^(i m theta) p_m"] == [round(c * s - s * c, 4), round(s * s + c * c, 4)] == [0.0, 1.0]
    assert out.counterexample["RoPE"] == [round(c, 4), round(s, 4)]
    assert control_verdict(L.sinusoidal_rotated) == "holds"


def _score(q, k, m, n, rotate_keys):
    """(R(m) q) . (R(n) k) in 2D with theta = 1, written out with cos/sin; keys unrotated if not rotate_keys."""
    rq = (math.cos(m) * q[0] - math.sin(m) * q[1], math.sin(m) * q[0] + math.cos(m) * q[1])
    rk = (math.cos(n) * k[0] - math.sin(n) * k[1], math.sin(n) * k[0] + math.cos(n) * k[1]) if rotate_keys else k
    return rq[0] * rk[0] + rq[1] * rk[1]


def test_attention_is_relative_only_when_keys_are_rotated_too():
    assert L.attention_relative().verdict == "holds"
    assert control_verdict(L.attention_relative) == "fails"
    q, k = (1.0, 0.0), (0.0, 1.0)
    # both rotated: positions (0, 1) and (5, 6) give the same score sin(1)... up to rounding
    assert _score(q, k, 0, 1, True) == pytest.approx(_score(q, k, 5, 6, True), abs=1e-12)
    # only q rotated: the score changes with the common shift
    assert abs(_score(q, k, 0, 1, False) - _score(q, k, 5, 6, False)) > 0.5


def test_pair_index_counted_from_one_fails():
    out = L.pair_index_one_based()
    assert out.verdict == "fails" and out.correction_holds is True
    # d = 8: theta_1 = 10000^(-2/8) = 0.1. The second coordinate (j = 2 counted from 1, row 1) rotates with
    # theta_0 = 1: R[1, 1] = cos 1, while floor(2/2) = 1 names theta_1: cos 0.1
    assert 10000 ** (-2 / 8) == pytest.approx(0.1)
    assert (out.counterexample["j"], out.counterexample["row"], out.counterexample["floor(j/2)"]) == (2, 1, 1)
    assert out.counterexample["stated"] == round(math.cos(0.1), 4)
    assert out.counterexample["actual"] == round(math.cos(1.0), 4)
    assert control_verdict(L.pair_index_one_based) == "holds"


def test_pair_frequencies_are_distinct():
    assert L.distinct_pair_frequencies().verdict == "holds"
    assert len({10000 ** (-2 * i / 8) for i in range(4)}) == 4
    assert control_verdict(L.distinct_pair_frequencies) == "fails"  # base 1: every theta_i = 1
