"""Tests that tell mutants of ropemath.claims.checks_frequency from the original (``make mutants``).

What they pin, and why:

* the sample of eq. (35)-(37) is the one the docstring of ``_abel`` and the evidence state (d = 32, seed 0, 3 draws,
  r in [-1024, 1024] plus 1024 draws in [-1e6, 1e6]): the largest score/bound ratio, the number of scores above
  the bound (also for the control's bound / 16) and the control's complex-score residual are recomputed here
  from those draws with ropemath.theory.abel and ropemath.core.apply;
* the numbers the evidence and the controls report reproduce from the formulas written out: the residuals of the
  index controls (theta_one_based, pair_index), the wavelengths (theta_decreasing, fast_near_slow_far's base-100
  control), the clock-hands angles and displacement (at 710 and at the control's 700), the window means of the
  bound on [0, 256) (and [2048, 2304) for the control), the example's B values at its stated d and base, the
  turn fraction of extrapolation, the limit of decay_with_dimension as (Ci(r) - Ci(r/10^4)) / ln 10^4;
* the verdicts on both sides of their conditions: theta_range at d = 16 (ratio 3.16 > 2: outside the condition);
  fast_near_slow_far at base 2000 (slowest wavelength just above 10000, the one before it below); a bound trend
  with a small rise is no trend; larger_base_slower with equal bases or reaches one position apart; the
  correction of decay_with_dimension at distances where it holds or not at the largest d.
"""

import math
import re

import mpmath
import numpy as np
import pytest

from ropemath.claims import checks_frequency as F
from ropemath.claims._verdict import res
from ropemath.claims.controls import CONTROLS
from ropemath.core.apply import apply_rope
from ropemath.theory.abel import abel_bound, complex_score
from ropemath.theory.decay import decay_bound


def _numbers(pattern, text):
    m = re.search(pattern, text)
    assert m, text
    return m.groups()


def _ctrl(check):
    """The registered negative control of ``check``, run."""
    return CONTROLS[check].run()


def _theta(d, base=10000.0):
    return base ** (-2.0 * np.arange(d // 2) / d)


# --- the eq. (35)-(37) sample -------------------------------------------------------------------------


def _draws():
    """The documented sample: seed 0; r = -1024..1024 and 1024 integers in [-1e6, 1e6]; then 3 x (q, k, n)."""
    rng = np.random.default_rng(0)
    r = np.concatenate([np.arange(-1024, 1025), rng.integers(-1_000_000, 1_000_001, size=1024)]).astype(float)
    draws = []
    for _ in range(3):
        q, k = rng.standard_normal((2, 32))
        n = float(rng.integers(-1_000_000, 1_000_001))
        draws.append((q, k, n))
    assert r.size == 2049 + 1024 and np.all(np.abs(r) <= 1e6)
    return r, draws


def _ratios(r, draws):
    return [
        np.abs(complex_score(q, k, r, layout="interleaved")) / abel_bound(q, k, r, layout="interleaved")
        for q, k, _ in draws
    ]


def test_abel_sample_max_ratio_and_violations_are_those_of_the_documented_draws():
    r, draws = _draws()
    ratios = _ratios(r, draws)
    out = F._abel()
    assert out["max_ratio"] == pytest.approx(max(float(x.max()) for x in ratios), rel=1e-12)
    assert out["violations"] == 0
    assert out["rope_error"] <= 1e-9


def test_abel_inequality_evidence_reports_ratio_and_violations_of_the_sample():
    r, draws = _draws()
    ratios = _ratios(r, draws)
    text = F.abel_inequality().evidence
    v, ratio = _numbers(r"(\d+) scores above the bound; largest score/bound ratio ([0-9]+\.[0-9]+)", text)
    assert int(v) == 0 and ratio == f"{max(float(x.max()) for x in ratios):.3f}"
    # the control divides the bound by 16: every score above 1/16 of the true bound is a violation
    ctrl = _ctrl(F.abel_inequality)
    v, ratio = _numbers(r"(\d+) scores above the bound; largest score/bound ratio ([0-9]+\.[0-9]+)", ctrl.evidence)
    assert ctrl.verdict == "fails"
    assert int(v) == sum(int(np.count_nonzero(x > 1 / 16)) for x in ratios)
    assert ratio == f"{16 * max(float(x.max()) for x in ratios):.3f}"


def test_complex_score_form_control_residual_is_that_of_e_to_the_minus_i_r_theta():
    r, draws = _draws()
    err = 0.0
    for q, k, n in draws:
        rope = apply_rope(np.broadcast_to(q, (r.size, 32)), n + r, layout="interleaved", base=10000.0) @ apply_rope(
            k, n, layout="interleaved", base=10000.0
        )
        wrong = complex_score(q, k, -r, layout="interleaved")
        err = max(err, float(np.max(np.abs(wrong - rope))) / float(np.linalg.norm(q) * np.linalg.norm(k)))
    assert err > 0.1
    ctrl = _ctrl(F.complex_score_form)
    assert ctrl.verdict == "fails"
    assert f"largest residual {res(err)} " in ctrl.evidence


# --- index and frequency controls ------------------------------------------------------------------


def test_theta_one_based_control_residual_is_the_unshifted_index_gap():
    err = max(
        abs(10000.0 ** (-2 * j / d) - 10000.0 ** (-2 * (j - 1) / d)) for d in F.DIMS for j in range(1, d // 2 + 1)
    )
    ctrl = _ctrl(F.theta_one_based)
    assert ctrl.verdict == "fails" and f"largest residual {res(err)} " in ctrl.evidence


def test_pair_index_control_residual_compares_cos_theta_of_the_next_pair():
    theta = _theta(8)
    err = max(abs(math.cos(theta[j // 2]) - math.cos(theta[min((j + 1) // 2, 3)])) for j in range(8))
    ctrl = _ctrl(F.pair_index)
    assert ctrl.verdict == "fails" and f"largest residual {res(err)} " in ctrl.evidence


def test_shared_frequencies_control_compares_coordinate_0_with_2():
    ex = _ctrl(F.shared_frequencies).counterexample
    assert ex["R[2,2]"] == round(math.cos(10000.0**-0.5), 4) and ex["R[0,0]"] == round(math.cos(1.0), 4)


def test_theta_decreasing_reports_the_wavelengths_at_base_10000():
    lo, hi = _numbers(r"grow from ([0-9.]+) to ([0-9]+) positions", F.theta_decreasing().evidence)
    lam = 2 * math.pi / _theta(128)
    assert lo == f"{lam[0]:.2f}" and hi == f"{lam[-1]:.0f}"


def test_theta_range_counterexample_is_consistent_and_d16_is_outside_the_condition():
    ex = F.theta_range().counterexample
    assert ex["theta_(d/2)"] / ex["1/10000"] == pytest.approx(ex["ratio"], rel=1e-3)
    # d = 16: theta_(d/2) * 10000 = 10000^(1/8) = 3.16 > 2, far from 1/10000; d = 4096 and 128 stay close
    assert 10000.0 ** (2 / 16) > 3
    assert F.theta_range(d=16).verdict == "holds-if"


def test_fast_near_slow_far_control_reports_the_base_100_slowest_wavelength():
    lam = 2 * math.pi / 100.0 ** (-126 / 128)
    (w,) = _numbers(r"pair 63 turns .*?\(wavelength ([0-9]+)\)", _ctrl(F.fast_near_slow_far).evidence)
    assert w == f"{lam:.0f}" == "585"


def test_fast_near_slow_far_reads_the_slowest_pair():
    # base 2000: the slowest wavelength 2 pi 2000^(126/128) is above 10000, the next one below
    assert 2 * math.pi * 2000.0 ** (126 / 128) > 10000 > 2 * math.pi * 2000.0 ** (124 / 128)
    assert F.fast_near_slow_far(base=2000.0).verdict == "holds"


# --- clock hands -----------------------------------------------------------------------------------


def _clock(b):
    fast = abs(math.remainder(b, 2 * math.pi))  # theta_0 = 1
    theta = _theta(128)
    # each pair of the unit vector (1, ..., 1)/sqrt(128) has norm 1/8 and moves by 2 |sin(b theta / 2)| of it
    together = math.sqrt(float(np.sum((2 * np.sin(b * theta / 2) / 8) ** 2)))
    return fast, together


@pytest.mark.parametrize("b", [710.0, 700.0])
def test_clock_hands_reports_the_angle_and_displacement(b):
    fast, together = _clock(b)
    out = F.clock_hands() if b == 710.0 else _ctrl(F.clock_hands)
    pos, angle, moved = _numbers(r"positions 0 and (\d+) differ by only (\S+) rad.*moves by ([0-9.]+)\.", out.evidence)
    assert (pos, angle, moved) == (f"{b:.0f}", f"{fast:.1e}", f"{together:.3f}")
    assert out.verdict == ("holds" if b == 710.0 else "fails")


# --- score and bound trend -------------------------------------------------------------------------


def _window_means(start):
    return np.round(decay_bound(start + np.arange(256.0), 128).reshape(8, 32).mean(axis=1), 2).tolist()


def test_score_decays_and_bound_decreases_read_the_trend_on_0_256():
    text = f"window means of the bound over [0, 256) in steps of 32: {_window_means(0.0)}"
    assert text in F.score_decays().evidence
    assert text in F.bound_decreases().evidence
    ctrl = _ctrl(F.bound_decreases)
    assert f"window means of the bound over [2048, 2304) in steps of 32: {_window_means(2048.0)}" in ctrl.evidence
    assert ctrl.verdict == "fails"


def test_bound_trend_rejects_a_small_rise():
    means = decay_bound(256.0 + np.arange(256.0), 128).reshape(8, 32).mean(axis=1)
    assert 0 < np.max(np.diff(means)) < 1
    assert F._bound_trend(256.0)[0] is False
    assert F._bound_trend(0.0)[0] is True


def test_score_decays_control_is_2_cos_r_theta_63():
    ex = _ctrl(F.score_decays).counterexample
    t63 = 10000.0 ** (-126 / 128)
    assert ex["score(r=255)"] == round(2 * math.cos(255 * t63), 4)
    assert ex["score(r=256)"] == round(2 * math.cos(256 * t63), 4)


def test_bound_decreases_example_is_the_bound_at_its_stated_d_and_base():
    ex = F.bound_decreases().counterexample
    b = decay_bound(np.arange(0.0, 4097.0), ex["d"], float(ex["base"]))
    keys = [k for k in ex if k.startswith("B(")]
    assert len(keys) == 4
    for key in keys:
        assert ex[key] == round(float(b[int(key[2:-1])]), 4)


# --- larger_base_slower ----------------------------------------------------------------------------


def test_larger_base_slower_example_is_the_bound_at_its_stated_d():
    ex = F.larger_base_slower().counterexample
    r = ex["r"]
    assert ex["B at base 10000"] == round(float(decay_bound(np.array([float(r)]), ex["d"], 10000.0)[0]), 4)
    assert ex["B at base 100000"] == round(float(decay_bound(np.array([float(r)]), ex["d"], 100000.0)[0]), 4)


def _reach(base):
    c = decay_bound(np.arange(0.0, 1025.0), 128, base)
    return int(np.nonzero(c < 0.25 * c[0])[0][0])


def test_larger_base_slower_on_both_sides_of_strict_increase():
    # reaches one position apart still increase; the same base twice does not decay more slowly than itself
    assert _reach(11000.0) == _reach(10000.0) + 1
    assert F.larger_base_slower(bases=(10000.0, 11000.0, 100000.0)).verdict == "holds-if"
    assert F.larger_base_slower(bases=(10000.0, 10000.0, 100000.0)).verdict == "fails"


# --- decay_with_dimension --------------------------------------------------------------------------


def _gaps(r):
    """|(2/d) sum_i cos(r theta_i) - limit| at d = 2^6 and 2^22, limit = (Ci(r) - Ci(r/10^4)) / ln 10^4."""
    limit = float((mpmath.ci(r) - mpmath.ci(r / 10000.0)) / mpmath.log(10000))
    return limit, [abs(float(np.mean(np.cos(r * _theta(d)))) - limit) for d in (2**6, 2**22)]


@pytest.mark.parametrize("r", [10.0, 11.0, 17.0, 100.0, 1336.0, 10000.0])
def test_decay_with_dimension_correction_is_judged_at_the_largest_d(r):
    limit, g = _gaps(r)
    out = F.decay_with_dimension(distances=(r,))
    assert out.correction_holds == (g[-1] < 1e-4 and g[-1] < g[0])
    assert out.counterexample[f"r = {r:g}"]["L(r)"] == round(limit, 4)
    # the claim "tends to 0" is refuted wherever 0 is over 10 times farther from the limit than the largest sum
    assert out.verdict == ("fails" if abs(limit) > 10 * g[-1] else "holds")


def test_decay_with_dimension_is_not_fooled_far_out():
    # at r = 10^4 the large-d limit is -0.037: small, but not 0; the claim is still wrong there
    limit, g = _gaps(10000.0)
    assert round(limit, 3) == -0.037 and g[-1] < 1e-4
    assert F.decay_with_dimension(distances=(10000.0,)).verdict == "fails"
    assert _ctrl(F.decay_with_dimension).verdict == "holds"  # the claimed limit replaced by L(r): nothing to refute


# --- extrapolation ---------------------------------------------------------------------------------


def test_extrapolation_reports_the_slowest_turn_at_position_2047():
    seen = 2047 * 10000.0 ** (-126 / 128) / (2 * math.pi)
    frac, pos = _numbers(r"turned only ([0-9.]+) of a full turn by position (\d+)", F.extrapolation().evidence)
    assert (frac, pos) == (f"{seen:.3f}", "2047")


def test_theta_zero_based_looks_at_every_pair_up_to_the_last(monkeypatch):
    """The check compares 10000^(-2i/d) with ropemath.frequencies for every i = 0 .. d/2 - 1: a faulty
    frequencies whose last pair alone is off (doubled) must make it fail; the real one holds."""
    assert F.theta_zero_based().verdict == "holds"
    real = F.frequencies

    def last_pair_doubled(d, *args, **kwargs):
        theta = np.array(real(d, *args, **kwargs), dtype=float)
        theta[-1] *= 2.0
        return theta

    monkeypatch.setattr(F, "frequencies", last_pair_doubled)
    assert F.theta_zero_based().verdict == "fails"
