"""Tests that tell mutants of ropemath.claims.checks_attention from the original (``make mutants``).

What they pin, and why:

* the numbers the evidence texts report (the XL feature gap, the weight-sum deviation and smallest denominator of
  the linear-attention refutation, the score change of rotating before W_q, W_k, the output change when v is
  rotated too) are recomputed here from the stated seeds with a RoPE, elu + 1 and softmax written out in numpy —
  not with ropemath — so a check that measures something else than it says is caught;
* the conditions of the verdicts on both sides of their bounds (a gap of exactly GAP is no gap; a denominator
  must be > 0, not >= 1; the numerator counterexample needs 2 cos(m - n) < 0; positivity of elu + 1 on exactly
  the stated range [-30, 30]; the residuals of norm_is_not_the_reason's correction and of values_not_rotated
  within TOL = 1e-12 inclusive, as in identity()), driven by substituted measurements where the real data never
  reach the bound;
* that the linear-attention checks compare the non-causal prefix form too, and that rope_linear_time's sample of
  positions has both signs (a prefix sum that loses the sign of positions must fail it);
* that the controls of norm_is_not_the_reason and values_not_rotated are what their descriptions say: the
  counterexample at m - n = 0; v rotated in the measured outputs (both measured changes equal the rotated-v one).

Numbers printed in the evidence are compared within half a unit of their last printed digit.
"""

import math
import re

import numpy as np

from ropemath.claims import checks_attention as A
from ropemath.claims.controls import CONTROLS

D = 8


def _elu1(x):
    """elu(x) + 1: x + 1 for x > 0, e^x otherwise."""
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _rope(x, pos, base=10000.0):
    """Interleaved RoPE written with complex numbers: pair i of row m times e^(i p_m base^(-2i/d))."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * np.asarray(pos, dtype=float)[:, None] * theta)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def _softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _change(f, pos, shift):
    a, b = f(pos), f(pos + shift)
    return np.max(np.abs(a - b)) / np.max(np.abs(a))


def _printed(evidence, pattern):
    m = re.search(pattern, evidence)
    assert m, (pattern, evidence)
    return float(m.group(1))


def test_rope_helper_matches_the_rotation_by_hand():
    # d = 2, theta_0 = 1: (1, 0) at position 1 -> (cos 1, sin 1); (0, 1) at position -2 -> (sin 2, cos 2)
    out = _rope(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -2.0]))
    assert np.allclose(out, [[math.cos(1), math.sin(1)], [math.sin(2), math.cos(2)]])


# --- xl_breaks_linear -------------------------------------------------------------------------------


def test_xl_gap_is_the_feature_change_between_m_1_and_m_2():
    rng = np.random.default_rng(33)
    k, table = rng.standard_normal(8), rng.standard_normal((9, 8))  # r_j = table[j + 4], j = -4 .. 4
    gap = np.max(np.abs(_elu1(k + table[1 + 4]) - _elu1(k + table[2 + 4])))  # n = 0: r_1 vs r_2
    out = A.xl_breaks_linear()
    assert out.verdict == "holds"
    assert abs(_printed(out.evidence, r"by up to ([0-9.]+)") - gap) <= 5e-4 + 1e-12
    # with an absolute r_n (the control) both m see the same feature: no gap at all
    assert _printed(A.xl_breaks_linear(relative=False).evidence, r"by up to ([0-9.]+)") == 0.0


def test_xl_gap_of_exactly_gap_is_no_difference(monkeypatch):
    calls = []

    def two_features(x):  # phi for m = 1 is 0, for m = 2 it is GAP: the features differ by exactly GAP
        calls.append(1)
        return np.zeros(np.shape(x)) + (A.GAP if len(calls) == 2 else 0.0)

    monkeypatch.setattr(A, "elu_plus_one", two_features)
    assert A.xl_breaks_linear().verdict == "fails"


# --- linear_attention, rope_linear_time -------------------------------------------------------------


def _broken_unless_causal(real):
    def prefix(q, k, v, pos, *, causal=False, layout, base=None, theta=None):
        out = real(q, k, v, pos, causal=causal, layout=layout, base=base, theta=theta)
        return out if causal else out + 1.0

    return prefix


def test_linear_checks_compare_the_non_causal_prefix_form_too(monkeypatch):
    monkeypatch.setattr(A, "rope_linear_attention_prefix", _broken_unless_causal(A.rope_linear_attention_prefix))
    assert A.rope_linear_time().verdict == "fails"
    assert A.linear_attention().verdict == "fails"


def test_rope_linear_time_samples_negative_and_positive_positions(monkeypatch):
    real = A.rope_linear_attention_prefix

    def sign_lost(q, k, v, pos, *, causal=False, layout, base=None, theta=None):  # R_|p|: right for p >= 0 only
        return real(q, k, v, np.abs(pos), causal=causal, layout=layout, base=base, theta=theta)

    monkeypatch.setattr(A, "rope_linear_attention_prefix", sign_lost)
    assert A.rope_linear_time().verdict == "fails"


def test_linear_attention_positivity_is_checked_on_exactly_minus_30_to_30(monkeypatch):
    real = A.elu_plus_one
    # negative only outside the stated range: not seen
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) < -30, -1.0, real(x)))
    assert A.linear_attention().verdict == "holds"
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) > 30, -1.0, real(x)))
    assert A.linear_attention().verdict == "holds"
    # at the ends of the range: seen
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) <= -30, -1.0, real(x)))
    assert A.linear_attention().verdict == "fails"
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) >= 30, -1.0, real(x)))
    assert A.linear_attention().verdict == "fails"


def test_linear_attention_needs_strictly_positive_features(monkeypatch):
    real = A.elu_plus_one
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) <= -30, 0.0, real(x)))
    assert A.linear_attention().verdict == "fails"  # a zero feature can give a zero denominator


# --- norm_is_not_the_reason --------------------------------------------------------------------------


def test_norm_refutation_needs_a_negative_numerator():
    # phi = (1, 1), d = 2, theta_0 = 1: the rotated numerator at distance m - n is 2 cos(m - n)
    out = A.norm_is_not_the_reason(distance=5)
    assert out.counterexample["rotated numerator"] == round(2 * math.cos(5), 4)  # 0.5673 > 0
    assert out.verdict == "holds"  # no counterexample at m - n = 5
    assert A.norm_is_not_the_reason(distance=2).verdict == "fails"  # 2 cos 2 = -0.83


def test_norm_control_is_the_counterexample_at_distance_0():
    out = CONTROLS[A.norm_is_not_the_reason].run()
    assert out.counterexample["m"] == out.counterexample["n"] == 0
    assert out.counterexample["rotated numerator"] == 2.0  # phi^T phi: nothing rotated
    assert out.verdict == "holds"


def test_norm_evidence_reports_the_weight_sums_and_denominators():
    q, k, _ = np.random.default_rng(35).standard_normal((3, 32, 8))
    pos = np.arange(32.0)
    fq, fk = _elu1(q), _elu1(k)
    numerators = _rope(fq, pos) @ _rope(fk, pos).T
    denominators = fq @ fk.sum(axis=0)  # sum_n phi(q_m)^T phi(k_n), unrotated
    ev = A.norm_is_not_the_reason().evidence
    dev = np.max(np.abs(numerators.sum(axis=1) / denominators - 1))
    assert abs(_printed(ev, r"largest deviation ([0-9.]+)") - dev) <= 5e-4 + 1e-12
    assert abs(_printed(ev, r"smallest ([0-9.]+)\)") - denominators.min()) <= 5e-4 + 1e-12


def test_norm_correction_needs_the_prefix_form_and_positive_denominators(monkeypatch):
    real_terms, real_prefix = A.rope_linear_terms, A.rope_linear_attention_prefix
    assert A.norm_is_not_the_reason().correction_holds is True

    def denominators(value):
        def terms(*a, **kw):
            numerators, den = real_terms(*a, **kw)
            return numerators, np.full_like(den, value)

        return terms

    monkeypatch.setattr(A, "rope_linear_terms", denominators(0.5))
    assert A.norm_is_not_the_reason().correction_holds is True  # positive, if below 1
    monkeypatch.setattr(A, "rope_linear_terms", denominators(0.0))
    assert A.norm_is_not_the_reason().correction_holds is False  # zero is not positive
    monkeypatch.setattr(A, "rope_linear_terms", real_terms)
    monkeypatch.setattr(A, "rope_linear_attention_prefix", lambda *a, **kw: real_prefix(*a, **kw) + 1.0)
    assert A.norm_is_not_the_reason().correction_holds is False  # positive denominators alone are not enough


def test_norm_correction_tolerance_is_1e_12_inclusive(monkeypatch):
    # prefix form vs quadratic form within TOL = 1e-12, inclusive as in identity()
    monkeypatch.setattr(A, "rope_linear_attention", lambda *a, **kw: np.zeros((32, 8)))
    for corr, ok in ((1e-12, True), (1.5e-12, False)):
        monkeypatch.setattr(A, "rope_linear_attention_prefix", lambda *a, c=corr, **kw: np.full((32, 8), c))
        assert A.norm_is_not_the_reason().correction_holds is ok


# --- rotate_after_projection, rotate_inside_attention ------------------------------------------------


def _before_projection_change():
    rng = np.random.default_rng(40)
    x, wq, wk = rng.standard_normal((6, 8)), *rng.standard_normal((2, 8, 8))

    def scores(p):  # rotate the layer input, then project
        return (_rope(x, p) @ wq.T) @ (_rope(x, p) @ wk.T).T

    return _change(scores, np.arange(6.0), 5.0)


def test_rotating_before_the_projections_changes_the_scores_by_the_reported_amount():
    before = _before_projection_change()
    assert before > 0.1
    for check, pattern in (
        (A.rotate_after_projection, r"scores change by ([0-9.]+) relative"),
        (A.rotate_inside_attention, r"changes them by ([0-9.]+) \(relative\)"),
    ):
        assert abs(_printed(check().evidence, pattern) - before) <= 5e-3 + 1e-12


# --- values_not_rotated ------------------------------------------------------------------------------


def test_rotating_v_too_changes_the_outputs_by_the_reported_amount():
    q, k, v = np.random.default_rng(42).standard_normal((3, 6, 8))
    pos = np.array([0.0, 1.0, 2.0, 5.0, 9.0, 10.0])

    def outputs(p):  # softmax((R q)(R k)^T / sqrt d) (R v)
        return _softmax_rows(_rope(q, p) @ _rope(k, p).T / math.sqrt(D)) @ _rope(v, p)

    leaked = _change(outputs, pos, 5.0)
    out = A.values_not_rotated()
    assert out.verdict == "holds"
    assert abs(_printed(out.evidence, r"they change by ([0-9.]+):") - leaked) <= 5e-3 + 1e-12
    # the control rotates v in the measured outputs too: both of its measurements are that same change
    ctl = CONTROLS[A.values_not_rotated].run()
    assert ctl.verdict == "fails"
    printed = _printed(ctl.evidence, r"outputs change by ([0-9.e+-]+) \(tolerance 1e-12\) \(relative\)")
    assert abs(printed - leaked) <= 5e-2 + 1e-12
    assert abs(_printed(ctl.evidence, r"they change by ([0-9.]+):") - leaked) <= 5e-3 + 1e-12


def test_values_not_rotated_kept_tolerance_is_1e_12_inclusive(monkeypatch):
    # kept (v not rotated) must be within TOL = 1e-12, inclusive as in identity(); leaked must exceed GAP
    for kept, verdict in ((1e-12, "holds"), (1.5e-12, "fails")):
        changes = iter([kept, 1.0])
        monkeypatch.setattr(A, "shift_change", lambda score, positions, shift, it=changes: next(it))
        assert A.values_not_rotated().verdict == verdict
