"""Tests that tell mutants of ropemath.claims.checks_derivation from the original (``make mutants``).

What they pin, and why:

* the helpers do what their docstrings say: ``_steps`` builds the wrong step ``factor * rhs + shift`` (a doubled
  right side compensated by ``shift = -rhs`` is the true step again), ``_encode("rope")`` is ``z e^(i m)``, and
  ``_refuted(name, restored)`` rebuilds the refutation for the claim plus ``restored``;
* the counterexamples reproduce from the inputs they state: polar_split's argument relation at its ``m = n``
  (recomputed here with the parity encoding written out), gamma_zero's miss |e^(0.5 i) - 1| = 2 sin(1/4), the
  step of common_difference at the m it names, and the control of converse uses a key perpendicular to q;
* polar_split counts as a counterexample only an encoding whose product is unchanged when m and n shift by the
  same s (a conjugating RoPE is; an encoding with a phase m^2 is not);
* the random samples are what the evidence says: their number ("20 random cases"), and for cos_theta_case parallel
  q, k with m - n = +1 and -1 both drawn (perpendicular ones in its control).
"""

import cmath
import math
import re

import numpy as np
import sympy as sp

from ropemath.claims import checks_derivation as D
from ropemath.claims.controls import CONTROLS
from ropemath.symbolic.derivation import derivation_steps


def _cases(evidence):
    m = re.search(r"(\d+) random cases", evidence)
    assert m, evidence
    return int(m.group(1))


# --- helpers ---------------------------------------------------------------------------------------


def test_steps_builds_factor_times_rhs_plus_shift():
    rhs = {s.key: s for s in derivation_steps()}["radial_solution"].rhs  # |q|, not 0
    assert rhs != 0
    ok, text = D._steps("radial_solution", factor=2, shift=-rhs)  # 2|q| - |q| = |q|: the true step again
    assert ok and "NOT verified" not in text
    ok, text = D._steps("radial_solution", factor=1, shift=rhs)  # 2|q|: wrong
    assert not ok and "NOT verified" in text


def test_encode_rope_multiplies_by_e_i_m_and_parity_conjugates_odd_positions():
    z = 0.3 - 1.2j
    for m in (-3, 1, 2):
        assert abs(D._encode(z, m, "rope") - z * complex(math.cos(m), math.sin(m))) < 1e-15
    assert D._encode(z, 4, "parity") == z and D._encode(z, -3, "parity") == z.conjugate()


def test_refuted_rebuilds_the_refutation_for_the_claim_plus_restored():
    base = D._refuted("missing_cross_term", sp.Integer(0))
    # + 1 makes the claim agree with the true side at the counterexample (1 = 0 + 1), but it is no proof: fails
    out = D._refuted("missing_cross_term", sp.Integer(1))
    assert out.verdict == base.verdict == "fails"
    assert out.counterexample["true side"] == base.counterexample["true side"] == "1"
    assert sp.sympify(out.counterexample["stated formula"]) == sp.sympify(base.counterexample["stated formula"]) + 1


# --- polar_split -----------------------------------------------------------------------------------


def test_polar_split_example_reproduces_at_its_positions():
    out = D.polar_split()
    ex = out.counterexample
    m = ex["m = n"]

    def parity(z, pos):
        return z if pos % 2 == 0 else z.conjugate()

    q, k = 1 + 0j, 1j
    left = cmath.phase(parity(q, m)) - cmath.phase(parity(k, m))  # pi/2 at m = 1; Theta_g(q, k, 0) = -pi/2
    gap = abs(cmath.exp(1j * left) - cmath.exp(1j * cmath.phase(q * k.conjugate())))
    assert ex["|gap| of the argument relation"] == round(gap, 4) == 2.0
    assert _cases(out.evidence) == 20


def test_polar_split_needs_an_encoding_relative_under_a_common_shift(monkeypatch):
    rope = D._encode
    # f(z, m) = conj(z) e^(i m) outside: f(q,m) f(k,n)* = conj(q) k e^(i(m-n)) depends on m - n only, yet at q = 1,
    # k = i, m = n = 1 the arguments give pi/2 against Theta_g = -pi/2: a counterexample outside the condition
    monkeypatch.setattr(
        D, "_encode", lambda z, m, e: z.conjugate() * cmath.exp(1j * m) if e == "parity" else rope(z, m, e)
    )
    assert D.polar_split().verdict == "holds-if"
    # f(z, m) = conj(z) e^(i m^2) is not relative at all: no counterexample, the split is not refuted
    monkeypatch.setattr(
        D, "_encode", lambda z, m, e: z.conjugate() * cmath.exp(1j * m * m) if e == "parity" else rope(z, m, e)
    )
    assert D.polar_split().verdict == "holds"


def test_polar_split_fails_when_its_inside_sample_breaks_the_relation():
    assert D.polar_split(inside="parity").verdict == "fails"  # the control: a case outside the condition inside
    assert D.polar_split(encoding="rope").verdict == "holds"  # nothing outside the condition: nothing breaks


def test_polar_split_samples_as_many_cases_as_it_says(monkeypatch):
    calls = []
    encode = D._encode

    def counting(z, m, encoding):
        calls.append(m)
        return encode(z, m, encoding)

    monkeypatch.setattr(D, "_encode", counting)
    out = D.polar_split()
    assert len(calls) == 6 * _cases(out.evidence) + 2  # per case 4 outside, 2 inside; 2 for the example


# --- radial_choice, gamma_zero, recurrence_next, solution_2d ---------------------------------------------


def test_radial_choice_other_solution_and_its_spoiled_variant():
    assert D.radial_choice().verdict == "holds"
    assert D.radial_choice(key_exponent=1).verdict == "fails"  # f_k = 2^n k e^(in): the product grows with m + n


def test_gamma_zero_reports_the_miss_of_gamma_one_half():
    printed = float(re.search(r"misses q by ([0-9.]+)\|q\|", D.gamma_zero().evidence).group(1))
    assert abs(printed - 2 * math.sin(0.25)) <= 5e-5  # |e^(i/2) - 1| = 2 sin(1/4)


def test_recurrence_next_samples_as_many_cases_as_it_says(monkeypatch):
    calls = []

    class Counting:
        exp = staticmethod(cmath.exp)

        @staticmethod
        def phase(z):
            calls.append(z)
            return cmath.phase(z)

    monkeypatch.setattr(D, "cmath", Counting)
    out = D.recurrence_next()
    assert out.verdict == "holds"
    assert len(calls) == 3 * _cases(out.evidence)  # Theta_g(1), theta_q, theta_k per case


def test_solution_2d_samples_as_many_cases_as_it_says(monkeypatch):
    calls = []
    rotation = D.rotation_2d

    def counting(angle):
        calls.append(angle)
        return rotation(angle)

    monkeypatch.setattr(D, "rotation_2d", counting)
    out = D.solution_2d()
    assert out.verdict == "holds"
    assert len(calls) == 2 * _cases(out.evidence)  # R(m theta) and R(n theta) per case


# --- cos_theta_case --------------------------------------------------------------------------------


def _recorded_samples(monkeypatch, **kwargs):
    calls = []
    score = D._score

    def recording(q, k, m, n, t=1.0):
        calls.append((np.array(q, dtype=float), np.array(k, dtype=float), m - n))
        return score(q, k, m, n, t)

    monkeypatch.setattr(D, "_score", recording)
    out = D.cos_theta_case(**kwargs)
    return out, calls[1:]  # the first call is the counterexample at m - n = distance


def test_cos_theta_case_samples_parallel_pairs_at_both_distances(monkeypatch):
    out, samples = _recorded_samples(monkeypatch)
    assert out.verdict == "holds-if"
    assert len(samples) == _cases(out.evidence)
    for v, w, _ in samples:
        assert abs(v[0] * w[1] - v[1] * w[0]) <= 1e-12 * np.linalg.norm(v) * np.linalg.norm(w)  # parallel
    assert {d for _, _, d in samples} == {1.0, -1.0}


def test_cos_theta_case_control_samples_perpendicular_pairs(monkeypatch):
    out, samples = _recorded_samples(monkeypatch, **CONTROLS[D.cos_theta_case].kwargs)
    assert out.verdict == "fails"
    for v, w, _ in samples:
        assert abs(v @ w) <= 1e-12 * np.linalg.norm(v) * np.linalg.norm(w)  # perpendicular, as its text says
        assert np.linalg.norm(w) > 0


def test_cos_theta_case_inside_sample_covers_minus_one(monkeypatch):
    # a score that is (q.k) cos(theta) at m - n = +1 only must not pass the condition "m - n = +-1"
    score = D._score

    def one_sided(q, k, m, n, t=1.0):
        return score(q, k, m, n, t) if m - n == 1 else score(q, k, m, n, t) + 1.0

    monkeypatch.setattr(D, "_score", one_sided)
    assert D.cos_theta_case().verdict == "fails"


# --- converse, common_difference -------------------------------------------------------------------


def test_converse_control_key_is_perpendicular_to_q():
    ctl = CONTROLS[D.converse].run()
    assert ctl.verdict == "holds"
    q, k = np.array(ctl.counterexample["q"]), np.array(ctl.counterexample["k"])
    assert q @ k == 0.0 and np.linalg.norm(k) > 0
    stated = re.search(r"k = \((\S+), (\S+)\)", CONTROLS[D.converse].wrong)
    assert k.tolist() == [float(stated.group(1)), float(stated.group(2))]  # the key its description names
    plus = math.cos(1) * k[0] + math.sin(1) * k[1]  # m = 1, n = 0: R(1) q = (cos 1, sin 1)
    minus = math.cos(1) * k[0] - math.sin(1) * k[1]  # m = 0, n = 1: q . R(1) k
    assert abs(ctl.counterexample["m - n = 1"] - plus) <= 5e-5
    assert abs(ctl.counterexample["m - n = -1"] - minus) <= 5e-5


def test_common_difference_example_shows_the_step_at_its_m():
    ex = D.common_difference().counterexample
    m, t = ex["m"], ex["theta"]
    step = ex[f"phi({m + 1}) - phi({m})"]
    phi = ex["phi(0..5)"]
    assert step == phi[m + 1] - phi[m] == t != m  # the step at m is theta, not m
