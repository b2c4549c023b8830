"""Negative controls of checks_derivation, checks_attention and checks_frequency.

Every check of these modules is run with its defaults and with its registered wrong variant; the
expected verdicts below are the ledger's recorded verdicts (ropemath/claims/note00*.py) and their
opposites, written down here, not computed.  The targeted tests feed each check a broken ingredient
(a sympy step or proof that no longer holds, an inflated residual, a flag) and require the verdict
to follow it: a check that ignores what it computed cannot pass them.
"""

import dataclasses
import inspect
import re

import numpy as np
import pytest
import sympy as sp

from ropemath.claims import LEDGER
from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_frequency as F
from ropemath.claims.controls import CONTROLS
from ropemath.symbolic import proofs
from ropemath.symbolic.derivation import derivation_steps

MODULES = (D, A, F)

# check -> (verdict with the defaults = the ledger's, verdict of the registered wrong variant)
EXPECTED = {
    D.euler: ("holds", "fails"),
    D.complex_product: ("holds", "fails"),
    D.complex_conjugate: ("holds", "fails"),
    D.complex_times_is_rotation: ("holds", "fails"),
    D.matrix_step_slip: ("fails", "holds"),
    D.complex_inner_product: ("holds", "fails"),
    D.polar_split: ("holds-if", "fails"),
    D.radial_choice: ("holds", "fails"),
    D.angle_split: ("holds", "fails"),
    D.recurrence: ("holds", "fails"),
    D.recurrence_next: ("holds", "fails"),
    D.arithmetic_solution: ("holds", "fails"),
    D.gamma_zero: ("holds", "fails"),
    D.solution_2d: ("holds", "fails"),
    D.norms_times_cos: ("fails", "holds"),
    D.missing_cross_term: ("fails", "holds"),
    D.cos_theta_case: ("holds-if", "fails"),
    D.cos_theta_generic: ("fails", "holds"),
    D.not_a_function_of_similarity: ("fails", "holds"),
    D.converse: ("fails", "holds"),
    D.common_difference: ("fails", "holds"),
    A.softmax_weights: ("holds", "fails"),
    A.permutation_blind: ("holds", "fails"),
    A.linear_attention: ("holds", "fails"),
    A.xl_breaks_linear: ("holds", "fails"),
    A.rope_linear_time: ("holds", "fails"),
    A.norm_is_not_the_reason: ("fails", "holds"),
    A.rotate_inside_attention: ("holds", "fails"),
    A.rotated_scores: ("holds", "fails"),
    A.values_not_rotated: ("holds", "fails"),
    F.theta_one_based: ("holds", "fails"),
    F.theta_zero_based: ("holds", "fails"),
    F.theta_decreasing: ("holds", "fails"),
    F.theta_range: ("holds-if", "fails"),
    F.fast_near_slow_far: ("holds", "fails"),
    F.pair_index: ("holds", "fails"),
    F.shared_frequencies: ("fails", "holds"),
    F.clock_hands: ("holds", "fails"),
    F.complex_score_form: ("holds", "fails"),
    F.abel_summation: ("holds", "fails"),
    F.abel_inequality: ("holds", "fails"),
    F.score_decays: ("fails", "holds"),
    F.bound_decreases: ("holds-if", "fails"),
    F.larger_base_slower: ("holds-if", "fails"),
    F.decay_with_dimension: ("fails", "holds"),
    F.decay_iterated_limit: ("holds", "fails"),
    F.same_frequencies_as_sinusoidal: ("holds", "fails"),
    F.theta_is_not_the_base: ("fails", "holds"),
}
NOT_CHECKABLE = {A.empirical, A.rotate_after_projection, F.extrapolation}  # nothing to negate: no control
NAMES = [f.__name__ for f in EXPECTED]


def public_checks():
    return {
        fn
        for module in MODULES
        for name, fn in inspect.getmembers(module, inspect.isfunction)
        if fn.__module__ == module.__name__ and not name.startswith("_")
    }


def test_every_public_check_is_listed_and_every_checkable_one_has_a_control():
    assert public_checks() == set(EXPECTED) | NOT_CHECKABLE
    assert set(EXPECTED) <= set(CONTROLS)
    assert not NOT_CHECKABLE & set(CONTROLS)
    mine = {fn for fn in CONTROLS if fn.__module__ in {m.__name__ for m in MODULES}}
    assert mine == set(EXPECTED)


def test_the_expected_defaults_are_the_ledgers_verdicts():
    recorded = {}
    for entry in LEDGER:
        for check, verdict in [(entry.check, entry.verdict)] + [(a.check, a.verdict) for a in entry.alternatives]:
            if check in EXPECTED:
                recorded.setdefault(check, set()).add(verdict)
    assert len(recorded) >= len(EXPECTED) - 3, "the checks listed here are the ledger's (entries or alternatives)"
    for fn, verdicts in recorded.items():
        assert verdicts == {EXPECTED[fn][0]}, fn.__name__


@pytest.mark.parametrize("fn", list(EXPECTED), ids=NAMES)
def test_default_and_control_verdicts(fn):
    default, wrong = EXPECTED[fn]
    ctl = CONTROLS[fn]
    assert ctl.check is fn and ctl.wrong.strip()
    params = inspect.signature(fn).parameters
    for name, value in ctl.kwargs.items():
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[name].default != value, f"{ctl.call}: the control must change the default"
    assert fn().verdict == default
    assert ctl.run().verdict == wrong
    assert default != wrong


@pytest.mark.parametrize("fn", list(EXPECTED), ids=NAMES)
def test_evidence_carries_no_rounding_level_numbers(fn):
    for outcome in (fn(), CONTROLS[fn].run()):
        text = outcome.evidence.replace("tolerance 1e-12", "")
        assert not re.search(r"\de-1\d", text), outcome.evidence  # e.g. 2.2e-16: printed as "< 1e-9" instead


class _Proxy:
    """``obj`` with some attributes replaced (works whether they are fields or computed properties)."""

    def __init__(self, obj, **changes):
        self._obj = obj
        self.__dict__.update(changes)

    def __getattr__(self, name):
        return getattr(self._obj, name)


# --- the sympy derivation steps: a step that is not verified must make the check fail -----------


def _with_failed_step(monkeypatch, key):
    steps = tuple(dataclasses.replace(s, verified=False) if s.key == key else s for s in derivation_steps())
    monkeypatch.setattr(D, "derivation_steps", lambda: steps)


@pytest.mark.parametrize(
    "fn, key",
    [
        (D.complex_inner_product, "inner_product"),
        (D.radial_choice, "radial_solution"),
        (D.angle_split, "angle_split"),
        (D.recurrence, "angular_recurrence"),
        (D.arithmetic_solution, "phase_solution"),
        (D.arithmetic_solution, "initial_phase"),
        (D.gamma_zero, "initial_phase"),
        (D.solution_2d, "solution"),
        (D.solution_2d, "rotation_form"),
        (D.solution_2d, "relative_score"),
    ],
)
def test_a_step_not_verified_makes_the_check_fail(monkeypatch, fn, key):
    assert fn().verdict == "holds"
    _with_failed_step(monkeypatch, key)
    out = fn()
    assert out.verdict == "fails" and "NOT verified" in out.evidence


@pytest.mark.parametrize("key", ["polar_product", "radial_equation", "angular_equation"])
def test_polar_split_fails_when_a_step_inside_its_condition_is_not_verified(monkeypatch, key):
    _with_failed_step(monkeypatch, key)
    assert D.polar_split().verdict == "fails"


def test_a_wrong_step_is_reverified_by_its_own_sympy_check():
    ok, text = D._steps("radial_solution", "angle_split")
    assert ok and text.count("NOT verified") == 0
    for kwargs in ({"factor": 2}, {"factor": -1}, {"factor": 0}):
        ok, text = D._steps("radial_solution", "angle_split", **kwargs)
        assert not ok and text.count("NOT verified") == 2, kwargs
    ok, text = D._steps("initial_phase", shift=sp.Rational(1, 2))
    assert not ok
    ok, _ = D._steps("initial_phase", factor=3)  # rhs = 0: any factor keeps gamma = 0
    assert ok


@pytest.mark.parametrize("gamma", [sp.Rational(1, 2), -1, sp.pi])
def test_gamma_zero_refuses_any_other_gamma(gamma):
    assert D.gamma_zero(gamma=gamma).verdict == "fails"


# --- the zero test of sympy: a check must not ignore it ------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [D.euler, D.complex_product, D.complex_conjugate, D.complex_times_is_rotation, D.complex_inner_product],
)
def test_symbolic_checks_follow_the_zero_test(monkeypatch, fn):
    monkeypatch.setattr(D, "is_zero", lambda expr: False)
    out = fn()
    assert out.verdict == "fails" and "NOT proved" in out.evidence


def test_matrix_step_slip_needs_both_the_shape_and_the_zero_test(monkeypatch):
    assert D.matrix_step_slip().counterexample["stated line"] == "[[1, 2*I]]"
    assert D.matrix_step_slip().correction_holds is True
    assert D.matrix_step_slip(rows_summed=True).counterexample["stated line"] == "[[1 + 2*I]]"
    monkeypatch.setattr(D, "is_zero", lambda expr: False)
    out = D.matrix_step_slip(rows_summed=True)
    assert out.verdict == "fails" and out.correction_holds is False


@pytest.mark.parametrize("sign", [-1, 1])
def test_complex_times_is_rotation_each_sign(sign):
    assert D.complex_times_is_rotation(sign=sign).verdict == ("holds" if sign == 1 else "fails")


# --- refutations: the verdict follows the refutation, the correction follows its proof -----------


@pytest.mark.parametrize("fn", [D.norms_times_cos, D.missing_cross_term])
def test_refutation_checks_follow_the_refutation(monkeypatch, fn):
    from ropemath.symbolic import refutations

    out = fn()
    assert out.verdict == "fails" and out.correction_holds is True
    assert out.counterexample["true side"] == "1" and out.counterexample["stated formula"] == "0"
    real = refutations.get_refutation
    monkeypatch.setattr(refutations, "get_refutation", lambda name: _Proxy(real(name), refuted=False))
    assert fn().verdict == "fails"  # not refuted, but not proved either
    monkeypatch.setattr(
        refutations, "get_refutation", lambda name: _Proxy(real(name), refuted=False, claim=real(name).lhs)
    )
    assert fn().verdict == "holds"
    monkeypatch.setattr(
        refutations, "get_refutation", lambda name: _Proxy(real(name), correct=_Proxy(real(name).correct, holds=False))
    )
    out = fn()
    assert out.correction_holds is False and "FAILS" in out.evidence


def test_restored_claims_match_the_true_side_at_the_counterexample():
    for fn, kwargs in ((D.norms_times_cos, {"with_angle": True}), (D.missing_cross_term, {"with_cross_term": True})):
        out = fn(**kwargs)
        assert out.counterexample["true side"] == out.counterexample["stated formula"] == "1"


# --- numeric checks: residuals, thresholds and flags that must be honoured -----------------------


def test_cos_theta_case_counterexample_and_both_sides_of_the_condition():
    out = D.cos_theta_case()
    ex = out.counterexample
    assert ex["true side"] == round(np.cos(2.0), 4) and ex["stated"] == round(np.cos(1.0), 4)
    assert ex["m"] == 2 and ex["n"] == 0 and ex["theta"] == 1.0
    assert D.cos_theta_case(distance=1).verdict == "holds"  # the counterexample inside the condition
    assert D.cos_theta_case(distance=-1).verdict == "holds"
    assert D.cos_theta_case(parallel=False, distance=1).verdict == "holds"  # nothing broke outside


def test_polar_split_counterexample():
    ex = D.polar_split().counterexample
    # phase(1) - phase(conj(i)) = pi/2 against phase(1 * conj(i)) = -pi/2: |e^(i pi/2) - e^(-i pi/2)| = 2
    assert ex["|gap| of the argument relation"] == 2.0 and ex["f(z, m)"] == "z for even m, conj(z) for odd m"
    assert D.polar_split(encoding="rope").counterexample["f(z, m)"] == "z e^(i m)"


def test_similarity_and_converse_counterexamples():
    ex = D.not_a_function_of_similarity().counterexample
    assert ex["score(q, k)"] == round(np.sin(1.0), 4) and ex["score(q, k')"] == round(-np.sin(1.0), 4)
    assert D.not_a_function_of_similarity().correction_holds is True
    ex = D.converse().counterexample
    assert ex["m - n = 1"] == ex["m - n = -1"] == round(np.cos(1.0), 4)
    ex = D.converse(k=(0.0, 1.0)).counterexample
    assert ex["m - n = 1"] == round(np.sin(1.0), 4) and ex["m - n = -1"] == round(-np.sin(1.0), 4)


def test_common_difference_counterexample():
    out = D.common_difference()
    assert out.counterexample["phi(0..5)"] == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
    assert out.counterexample["phi(3) - phi(2)"] == 0.5 and out.correction_holds is True


def test_radial_choice_measures_the_other_solution():
    assert "residual within the tolerance 1e-12" in D.radial_choice().evidence
    out = D.radial_choice(key_exponent=1)  # f_k = 2^n k e^(i n theta): the product is no longer relative
    assert out.verdict == "fails" and "residual within the tolerance" not in out.evidence


def test_recurrence_next_and_solution_2d_each_wrong_index():
    assert D.recurrence_next(step=1).verdict == "holds"
    for step in (-1, 0, 2):
        assert D.recurrence_next(step=step).verdict == "fails"
    assert D.solution_2d(sign=-1).verdict == "fails"


def test_attention_controls_through_the_same_measurement():
    assert A.softmax_weights(power=0.5).verdict == "holds" and A.softmax_weights(power=1.0).verdict == "fails"
    assert A.permutation_blind(with_positions=True).verdict == "fails"
    assert A.linear_attention(normalised=False).verdict == "fails"
    assert A.xl_breaks_linear(relative=False).verdict == "fails"
    assert A.rope_linear_time(scale=-1.0).verdict == "fails"
    assert A.rotated_scores(sign=-1).verdict == "fails"
    assert A.values_not_rotated(rotate_v=True).verdict == "fails"
    assert A.rotate_inside_attention(identity_weights=True).verdict == "fails"


def test_attention_checks_follow_their_measurements(monkeypatch):
    monkeypatch.setattr(A, "_before_after", lambda identity_weights=False: (0.5, 0.0))
    assert A.rotate_inside_attention().verdict == "holds"
    monkeypatch.setattr(A, "_before_after", lambda identity_weights=False: (1e-4, 0.0))
    assert A.rotate_inside_attention().verdict == "fails"
    monkeypatch.setattr(A, "_before_after", lambda identity_weights=False: (0.5, 1e-9))
    assert A.rotate_inside_attention().verdict == "fails"


def test_linear_attention_needs_positive_feature_maps(monkeypatch):
    real = A.elu_plus_one
    monkeypatch.setattr(A, "elu_plus_one", lambda x: np.where(np.asarray(x) < -20, -1.0, real(x)))
    assert A.linear_attention().verdict == "fails"  # a feature map negative far out: not a valid kernel


def test_softmax_weights_need_positive_weights(monkeypatch):
    real = A.rope_attention_weights
    monkeypatch.setattr(A, "rope_attention_weights", lambda *a, **k: real(*a, **k) - 1.0)
    assert A.softmax_weights().verdict == "fails"


def test_norm_is_not_the_reason_counterexample_and_correction():
    out = A.norm_is_not_the_reason()
    assert out.counterexample["rotated numerator"] == round(2 * np.cos(3.0), 4)
    assert out.counterexample["|R_3 phi(q)| = |phi(q)|"] == round(np.sqrt(2), 4)
    assert out.correction_holds is True
    assert A.norm_is_not_the_reason(distance=0).counterexample["rotated numerator"] == 2.0


def test_xl_breaks_linear_reports_a_gap(monkeypatch):
    monkeypatch.setattr(A, "GAP", 1e6)
    assert A.xl_breaks_linear().verdict == "fails"


# --- frequencies ----------------------------------------------------------------------------------


def test_theta_checks_each_wrong_variant():
    assert F.theta_one_based(shift=2).verdict == "fails"
    assert F.theta_zero_based(factor=3).verdict == "fails"
    assert F.theta_decreasing(base=1.0).verdict == "fails"  # base 1: all equal, not decreasing
    assert F.theta_decreasing(base=2.0).verdict == "holds"
    assert F.pair_index(offset=2).verdict == "fails"
    assert F.same_frequencies_as_sinusoidal(component=1).verdict == "fails"


def test_theta_range_counterexample_and_condition():
    out = F.theta_range()
    assert out.counterexample["ratio"] == 10.0 and out.counterexample["d"] == 8
    assert out.counterexample["theta_(d/2)"] == 0.001
    assert F.theta_range(d=4096).verdict == "holds"
    assert F.theta_range(d=4).verdict == "holds-if"


def test_shared_frequencies_and_theta_is_not_the_base_counterexamples():
    out = F.shared_frequencies()
    assert out.counterexample["R[0,0]"] == out.counterexample["R[1,1]"] == round(np.cos(1.0), 4)
    assert out.correction_holds is True
    out = F.theta_is_not_the_base()
    assert out.counterexample["theta from RoFormer eq. (15)"] == 1.0 and out.correction_holds is True


def test_clock_hands_and_near_far_measure(monkeypatch):
    assert F.clock_hands(b=0.0).verdict == "fails"  # same position: nothing moves
    assert F.clock_hands(b=44.0).verdict == "fails"
    assert F.fast_near_slow_far(base=1000.0).verdict == "fails"


def _abel_with(**changes):
    real = F._abel()

    def fake(sign=1, scale=1.0):
        return {**real, **changes}

    return fake


@pytest.mark.parametrize(
    "changes, fn",
    [
        ({"rope_error": 2e-9}, F.complex_score_form),
        ({"abel_error": 1e-11}, F.abel_summation),
        ({"violations": 1.0}, F.abel_inequality),
        ({"max_ratio": 1.01}, F.abel_inequality),
        ({"violations": 1.0}, F.score_decays),
    ],
)
def test_abel_checks_follow_the_measurement(monkeypatch, changes, fn):
    before = fn()
    monkeypatch.setattr(F, "_abel", _abel_with(**changes))
    after = fn()
    if fn is F.score_decays:  # the correction's bound must hold for every score
        assert before.correction_holds is True and after.correction_holds is False
    else:
        assert before.verdict == "holds" and after.verdict == "fails"


def test_abel_inequality_at_the_bound_holds(monkeypatch):
    monkeypatch.setattr(F, "_abel", _abel_with(max_ratio=1.0))
    assert F.abel_inequality().verdict == "holds"


def test_abel_summation_reruns_the_proof(monkeypatch):
    real = proofs.get_proof("abel_summation_d8")
    monkeypatch.setattr(proofs, "get_proof", lambda name: _Proxy(real, rhs=real.rhs + 1))
    out = F.abel_summation()
    assert out.verdict == "fails" and "FAILS" in out.evidence


def test_abel_measurement_scales():
    base, scaled = F._abel(), F._abel(1, 0.5)
    assert base["violations"] == 0 and 0.1 < base["max_ratio"] < 0.5
    assert scaled["max_ratio"] == pytest.approx(2 * base["max_ratio"])
    assert F._abel(-1)["rope_error"] > 0.1


def test_decay_checks_counterexamples():
    out = F.score_decays()
    assert out.correction_holds is True
    assert "score(r=11)" in out.counterexample and "score(r=12)" in out.counterexample
    out = F.bound_decreases()
    assert out.verdict == "holds-if"
    out = F.larger_base_slower()
    assert out.counterexample["r"] >= 0
    out = F.decay_with_dimension()
    assert out.counterexample["r = 100"]["L(r)"] == pytest.approx(0.4368, abs=2e-4)
    assert out.correction_holds is True


def test_decay_counterexamples_recomputed_from_the_theory_modules():
    from ropemath.core.rotation import frequencies
    from ropemath.theory.abel import complex_score
    from ropemath.theory.decay import decay_bound

    s = complex_score(np.ones(128), np.ones(128), np.arange(0.0, 257.0), layout="interleaved")
    r1 = int(np.nonzero(np.diff(s) > 1e-6)[0][0])
    ex = F.score_decays().counterexample
    assert ex[f"score(r={r1})"] == round(s[r1], 4) and ex[f"score(r={r1 + 1})"] == round(s[r1 + 1], 4)
    assert ex["d"] == 128 and ex["base"] == 10000

    b = decay_bound(np.arange(0.0, 4097.0), 128)
    r1 = int(np.nonzero(np.diff(b[:257]) > 0)[0][0])
    ex = F.bound_decreases().counterexample
    assert ex[f"B({r1})"] == round(b[r1], 4) and ex[f"B({r1 + 1})"] == round(b[r1 + 1], 4)
    assert ex["B(1024)"] == round(b[1024], 4) and ex["B(4096)"] == round(b[4096], 4)

    r = np.arange(0.0, 1025.0)
    low, high = decay_bound(r, 128, 10000.0), decay_bound(r, 128, 100000.0)
    at = int(np.nonzero(high < low - 1e-6)[0][0])
    ex = F.larger_base_slower().counterexample
    assert ex["r"] == at and ex["B at base 10000"] == round(low[at], 4) and ex["B at base 100000"] == round(high[at], 4)

    dims = [2**e for e in (6, 10, 14, 18, 22)]
    means = [round(float(np.mean(np.cos(100.0 * 10000.0 ** (-2 * np.arange(d // 2) / d)))), 4) for d in dims]
    ex = F.decay_with_dimension().counterexample
    assert ex["r = 100"]["sums"] == means and ex["d"] == dims
    assert means[0] == round(float(np.mean(np.cos(100.0 * frequencies(64)))), 4)

    ex = F.theta_range().counterexample
    assert ex["ratio"] == round(10000.0 ** (2 / 8), 4) and ex["theta_(d/2)"] == round(10000.0 ** (-6 / 8), 6)


def test_a_restored_term_with_the_wrong_sign_is_not_proved(monkeypatch):
    from ropemath.symbolic import common as sym

    # (q0 k1 + q1 k0) sin: equal to the right term at the counterexample (q1 = 0), wrong elsewhere
    wrong = (sym.q0 * sym.k1 + sym.q1 * sym.k0) * sp.sin((sym.m - sym.n) * sym.theta)
    assert D._refuted("missing_cross_term", wrong).verdict == "fails"


def test_small_counterexamples_state_their_inputs():
    ex = D.matrix_step_slip().counterexample
    assert (ex["theta"], ex["x"], ex["y"], ex["z"]) == (0, 1, 2, "1 + 2*I")
    ex = D.not_a_function_of_similarity().counterexample
    assert (ex["q"], ex["k"], ex["k'"], ex["q.k = q.k'"], ex["m"], ex["n"]) == (
        [1.0, 0.0],
        [0.0, 1.0],
        [0.0, -1.0],
        0.0,
        1,
        0,
    )
    ex = D.converse().counterexample
    assert ex["q = k"] == [1.0, 0.0] and ex["theta"] == 1.0
    ex = D.converse(k=(0.0, 1.0)).counterexample
    assert ex["q"] == [1.0, 0.0] and ex["k"] == [0.0, 1.0]
    ex = D.cos_theta_case().counterexample
    assert (ex["q"], ex["k"]) == ([1.0, 0.0], [1.0, 0.0])
    ex = A.norm_is_not_the_reason().counterexample
    assert (ex["d"], ex["phi(q_m) = phi(k_n)"], ex["m"], ex["n"]) == (2, [1.0, 1.0], 3, 0)
    ex = F.shared_frequencies().counterexample
    assert (ex["d"], ex["m"], ex["theta of coordinates 0 and 1"]) == (4, 1, 1.0)
    ex = F.theta_is_not_the_base().counterexample
    assert (ex["d"], ex["stated theta"]) == (2, 10000.0)


def test_linear_checks_compare_the_causal_form_too(monkeypatch):
    real = A.rope_linear_attention_prefix

    def broken_when_causal(q, k, v, pos, *, causal=False, layout, base=None, theta=None):
        out = real(q, k, v, pos, causal=causal, layout=layout, base=base, theta=theta)
        return out + 1.0 if causal else out

    monkeypatch.setattr(A, "rope_linear_attention_prefix", broken_when_causal)
    assert A.rope_linear_time().verdict == "fails"
    assert A.linear_attention().verdict == "fails"


def test_theta_range_needs_both_large_dimensions_inside(monkeypatch):
    real = F.frequencies

    def far_at_128(d, base=10000.0):
        out = real(d, base)
        return out * 1.5 if d == 128 else out  # theta_(d/2) * 10000 = 1.5 at d = 128: not close

    monkeypatch.setattr(F, "frequencies", far_at_128)
    assert F.theta_range().verdict == "fails"


def test_decay_evidence_recomputed():
    from ropemath.theory.abel import complex_score
    from ropemath.theory.decay import decay_bound

    qr, kr = np.random.default_rng(0).standard_normal((2, 128))
    sr = complex_score(qr, kr, np.arange(0.0, 1001.0), layout="interleaved")
    far = int(np.argmax(np.abs(sr)))
    ex = F.score_decays().counterexample["random q, k (seed 0)"]
    assert ex == {"score(r=0)": round(sr[0], 4), f"score(r={far})": round(sr[far], 4)}
    r = np.arange(0.0, 1025.0)
    reach = []
    for base in (100.0, 1000.0, 10000.0, 100000.0, 500000.0):
        curve = decay_bound(r, 128, base)
        reach.append(int(np.nonzero(curve < 0.25 * curve[0])[0][0]))
    assert f"is {reach} for bases" in F.larger_base_slower().evidence


def test_near_far_evidence_recomputed():
    from ropemath.core.spectrum import turns

    t0 = turns(np.array([44.0, 10000.0]), 128)
    text = F.fast_near_slow_far().evidence
    assert f"position 44 is {t0[0, 0] % 1:.4f} turns past" in text
    assert f"10000 positions are {t0[1, -1]:.3f} of a turn apart" in text
