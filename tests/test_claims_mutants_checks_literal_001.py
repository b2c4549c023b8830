"""Tests that tell mutants of ropemath.claims.checks_literal from the original (``make mutants``).

What they pin, and why:

* ``_relative_residual`` is what its docstring says: over 20 random cases (f is called 4 times a case), the
  largest |f(q,m) f*(k,n) - f(q,m+s) f*(k,n+s)| divided by |q||k|. For f(x, m) = x u(m) with |u| = 1 that is
  max |u(m) u*(n) - u(m+s) u*(n+s)|, independent of q and k, recomputed here from the same draws; it is 0 for
  u(m) = e^(im) and at most 2 for any unit u;
* the evidence tells the truth about the samples: sinusoidal_rotated compares rotated p_m for m = 0..5 and
  checks its correction on 20 random cases; the spread of the rotated p_m is rounding-level (all are (0, 1));
* the counterexamples reproduce from the inputs they report (sinusoidal_rotated's m and theta,
  pair_index_one_based's m and row, phase_initial_condition's theta = slope of its f, polar_split_literal's
  control g = q conj(k));
* the existence reading of "some case" finds both signs m - n = +1 and -1 (cos is even);
* negative_angle's control rule sin(-t) = +sin t is reported as not proved;
* pair_index_one_based's control (0-based) finds no wrong coordinate: stated = actual = cos(theta_0).
"""

import ast
import cmath
import math
import re

import numpy as np
import pytest

from ropemath.claims import checks_literal as L
from ropemath.claims.controls import CONTROLS

# --- _relative_residual ------------------------------------------------------------------------------


def test_relative_residual_uses_20_cases():
    calls = []

    def f(x, pos):
        calls.append(pos)
        return x * cmath.exp(1j * pos)

    assert L._relative_residual(f, 51) < 1e-12
    assert len(calls) == 4 * 20


def _u(pos):
    return cmath.exp(0.1j * pos * pos)  # unit modulus, not a function of differences


@pytest.mark.parametrize("seed", [51, 52, 53])
def test_relative_residual_is_relative_to_q_and_k(seed):
    rng = np.random.default_rng(seed)
    expected = 0.0
    for _ in range(20):
        rng.standard_normal(2), rng.standard_normal(2)  # q, k: they cancel out of the relative residual
        m, n, s = (float(v) for v in rng.integers(-50, 50, 3))
        expected = max(expected, abs(_u(m) * _u(n).conjugate() - _u(m + s) * _u(n + s).conjugate()))
    got = L._relative_residual(lambda x, p: x * _u(p), seed)
    assert got == pytest.approx(expected, abs=1e-9)
    assert 0.5 < got <= 2.0  # |u(m) u*(n)| = 1 on both sides


# --- negative_angle ----------------------------------------------------------------------------------


def test_negative_angle_control_rule_not_proved():
    assert "+1 sin t NOT proved" in CONTROLS[L.negative_angle].run().evidence
    assert "-1 sin t proved" in L.negative_angle().evidence


# --- polar_split_literal -----------------------------------------------------------------------------


def test_polar_split_control_g_is_q_times_conj_k():
    ce = CONTROLS[L.polar_split_literal].run().counterexample
    g = (1 + 0j) * (1j).conjugate()  # q = 1, k = i, m = n = 0: f f* = q conj(k) = -i
    assert ce["g"] == [g.real, g.imag] == [0.0, -1.0]
    assert L.polar_split_literal().counterexample["g"] == g.real == 0.0


# --- phase_initial_condition -------------------------------------------------------------------------


def test_phase_example_theta_is_the_slope_of_its_f():
    ce = L.phase_initial_condition().counterexample
    # f(x, m) = x e^(i(m + 0.5)): varphi(m) = 1 * m + 0.5, slope theta = 1
    match = re.fullmatch(r"x e\^\(i\(m \+ ([0-9.]+)\)\)", ce["f(x, m)"])
    assert match and float(match.group(1)) == 0.5
    assert ce["theta"] == 1.0


# --- cos_theta_some_case -----------------------------------------------------------------------------


def test_some_case_found_at_both_signs():
    ev = L.cos_theta_some_case().evidence
    # cos(-1) = cos(1): both m - n = 1 and m - n = -1 give (q.k) cos(theta)
    found = re.search(r"at m - n in (\[[^\]]*\])", ev).group(1)
    assert sorted(ast.literal_eval(found)) == [-1, 1]


# --- sinusoidal_rotated ------------------------------------------------------------------------------


def test_sinusoidal_rotated_samples_what_it_reports(monkeypatch):
    seen, rope_calls = [], []
    enc, rope = L.sinusoidal_encoding, L.apply_rope

    def rec_enc(pos, d, **kw):
        seen.append(float(pos))
        return enc(pos, d, **kw)

    def rec_rope(x, pos, **kw):
        rope_calls.append(pos)
        return rope(x, pos, **kw)

    monkeypatch.setattr(L, "sinusoidal_encoding", rec_enc)
    monkeypatch.setattr(L, "apply_rope", rec_rope)
    out = L.sinusoidal_rotated()
    assert "m = 0..5" in out.evidence and "20 random cases" in out.evidence
    assert seen[1:] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]  # seen[0]: p_m at m = 1
    assert len(rope_calls) == 1 + 20


def test_sinusoidal_rotated_spread_is_rounding_level():
    # R(m) (sin m, cos m) = (cos m sin m - sin m cos m, sin m sin m + cos m cos m) = (0, 1) for every m
    for m in range(6):
        s, c = math.sin(m), math.cos(m)
        assert abs(c * s - s * c) < 1e-15 and abs(s * s + c * c - 1) < 1e-15
    assert "(spread < 1e-9)" in L.sinusoidal_rotated().evidence


def test_sinusoidal_counterexample_follows_its_inputs():
    ce = L.sinusoidal_rotated().counterexample
    m, theta = ce["m"], ce["theta"]
    a = m * theta
    assert ce["RoPE"] == [round(math.cos(a), 4), round(math.sin(a), 4)]  # e^(i m theta) q, q = (1, 0)
    assert ce["p_m"] == [round(math.sin(m), 4), round(math.cos(m), 4)]


# --- pair_index_one_based ----------------------------------------------------------------------------


def test_pair_index_counterexample_follows_its_m_and_row():
    ce = L.pair_index_one_based().counterexample
    d, m, row = ce["d"], ce["m"], ce["row"]
    theta_row = 10000.0 ** (-2 * (row // 2) / d)  # the pair of row r is r // 2
    assert ce["actual"] == round(math.cos(m * theta_row), 4)
    assert ce["stated"] == round(math.cos(m * 10000.0 ** (-2 * ce["floor(j/2)"] / d)), 4)


def test_pair_index_control_has_no_wrong_coordinate():
    ce = CONTROLS[L.pair_index_one_based].run().counterexample
    # counted from 0, every coordinate j uses theta_floor(j/2): no bad j, the first coordinate is shown
    assert (ce["j"], ce["row"]) == (0, 0)
    assert ce["stated"] == ce["actual"] == round(math.cos(1.0), 4)
