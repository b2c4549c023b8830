"""Negative controls of the checks in ropemath.claims.checks_rotation, checks_properties and checks_encodings.

Every check must say yes to its claim and no to a deliberately wrong variant run through the same code
(rule 7 of the verdict rubric), and must not be vacuous: it honours the sympy proofs it cites (a failing
or altered proof record makes it fail), its residuals are measured (an inflated one makes it fail), and
every flag it takes changes what is measured.  Expected verdicts below are written from the mathematics,
not from running the checks; the hand computations say where each number comes from.
"""

import math
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp

from ropemath.claims import LEDGER
from ropemath.claims import _verdict as V
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.controls import CONTROLS
from ropemath.claims.ledger import Outcome
from ropemath.symbolic import proofs, refutations

MODULES = (R, P, E)
MINE = {f: c for f, c in CONTROLS.items() if f.__module__ in {m.__name__ for m in MODULES}}

# check -> (verdict of the claim, verdict of its negative control), from the mathematics
EXPECTED = {
    R.transpose_rule: ("holds", "fails"),
    R.composition_rule: ("holds", "fails"),
    R.inverse_rule: ("holds", "fails"),
    R.orthogonal_rule: ("holds", "fails"),
    R.norm_rule: ("holds", "fails"),
    R.same_rotation_invariance: ("holds", "fails"),
    R.relative_identity: ("holds", "fails"),
    R.transpose_product: ("holds", "fails"),
    R.relative_sign_slip: ("fails", "holds"),
    R.weights_identity: ("holds", "fails"),
    R.weights_missing_transpose: ("fails", "holds"),
    R.elementwise_form: ("holds", "fails"),
    R.even_dimension: ("holds-if", "fails"),
    R.lengths_and_angle: ("holds", "fails"),
    R.pairwise_rotation: ("holds", "fails"),
    R.counterclockwise: ("holds", "fails"),
    P.absolute_and_relative: ("holds", "fails"),
    P.any_length: ("holds", "fails"),
    P.invertible: ("holds", "fails"),
    P.multiplicative: ("holds", "fails"),
    P.stability: ("holds-if", "fails"),
    P.orthogonal_is_stable: ("holds", "fails"),
    P.q_is_the_query: ("fails", "holds"),
    P.score_shape: ("fails", "holds"),
    P.dot_and_angle: ("holds-if", "fails"),
    P.rotations_2d_vs_3d: ("holds", "fails"),
    E.additive_leaks: ("holds", "fails"),
    E.sinusoidal_leaks: ("holds", "fails"),
    E.four_terms: ("holds", "fails"),
    E.sinusoidal_formula: ("holds", "fails"),
    E.sinusoidal_parity: ("holds", "fails"),
    E.relative_schemes: ("holds", "fails"),
    E.tupe_position_term: ("fails", "holds"),
    E.absolute_carries_relative: ("fails", "holds"),
}

# check -> the wrong variant its control runs (what the control's text describes)
CONTROL_KWARGS = {
    R.transpose_rule: {"sign": -1},
    R.composition_rule: {"sign": -1},
    R.inverse_rule: {"sign": -1},
    R.orthogonal_rule: {"unit": -1},
    R.norm_rule: {"factor": 2.0},
    R.same_rotation_invariance: {"shift": 1.0},
    R.relative_identity: {"sign": -1},
    R.transpose_product: {"sign": -1},
    R.relative_sign_slip: {"sign": -1},
    R.weights_identity: {"transpose": False},
    R.weights_missing_transpose: {"transpose": True},
    R.elementwise_form: {"sign": -1},
    R.even_dimension: {"inside": (3,)},
    R.lengths_and_angle: {"sign": 1},
    R.pairwise_rotation: {"shift": 1},
    R.counterclockwise: {"sign": -1},
    P.absolute_and_relative: {"spacing": 0.0},
    P.any_length: {"sign": -1},
    P.invertible: {"sign": 1},
    P.multiplicative: {"additive": 1.0},
    P.stability: {"inside": "bfloat16"},
    P.orthogonal_is_stable: {"stretch": 1e3},
    P.q_is_the_query: {"position_only": True},
    P.score_shape: {"what": "f_q^T f_k"},
    P.dot_and_angle: {"inside_scale": 2.0},
    P.rotations_2d_vs_3d: {"proper": False},
    E.additive_leaks: {"constant_p": True},
    E.sinusoidal_leaks: {"generic": False},
    E.four_terms: {"count": 3},
    E.sinusoidal_formula: {"parity": 1},
    E.sinusoidal_parity: {"start": 0},
    E.relative_schemes: {"sign": 1},
    E.tupe_position_term: {"m_matrix": ((1.0, 0.5), (-0.5, 1.0))},
    E.absolute_carries_relative: {"phase": 0.0},
}

# checks whose claim is backed by sympy proofs: the wrong variant must make the symbolic part say no too
SYMBOLIC = [
    R.transpose_rule,
    R.composition_rule,
    R.inverse_rule,
    R.orthogonal_rule,
    R.relative_identity,
    R.transpose_product,
    R.weights_identity,
    R.elementwise_form,
    R.pairwise_rotation,
]


def _name(f):
    return f"{f.__module__.rsplit('.', 1)[1]}.{f.__name__}"


def test_every_public_check_of_these_modules_has_a_control():
    public = {
        f
        for m in MODULES
        for name, f in vars(m).items()
        if callable(f) and getattr(f, "__module__", None) == m.__name__ and not name.startswith("_")
    }
    assert public - set(MINE) == set()
    assert set(MINE) == set(EXPECTED)
    used = {e.check for e in LEDGER} & public
    assert used <= set(MINE)


@pytest.mark.parametrize("check", list(EXPECTED), ids=_name)
def test_claim_and_its_wrong_variant_get_different_verdicts(check):
    claim, wrong = EXPECTED[check]
    assert check().verdict == claim
    ctl = MINE[check]
    assert ctl.wrong.strip() and ctl.kwargs == CONTROL_KWARGS[check]
    out = ctl.run()
    assert out.verdict == wrong, out.evidence
    assert out.evidence


@pytest.mark.parametrize("check", SYMBOLIC, ids=_name)
def test_wrong_variant_fails_the_sympy_zero_test_too(check):
    assert "FAILS" not in check().evidence
    assert "FAILS" in MINE[check].run().evidence


# --- a check honours the proofs it cites ---------------------------------------------------

PROOF_CHECKS = [*SYMBOLIC, P.absolute_and_relative]


@pytest.mark.parametrize("check", PROOF_CHECKS, ids=_name)
def test_a_proof_record_that_does_not_hold_makes_the_check_fail(check, monkeypatch):
    real = proofs.get_proof

    def failing(name):  # a stand-in record: same sides, but sympy did not prove it
        p = real(name)
        return SimpleNamespace(name=p.name, lhs=p.lhs, rhs=p.rhs, holds=False)

    monkeypatch.setattr(proofs, "get_proof", failing)
    out = check()
    assert out.verdict == "fails" and "FAILS" in out.evidence


@pytest.mark.parametrize("check", PROOF_CHECKS, ids=_name)
def test_an_altered_proof_record_is_rechecked(check, monkeypatch):
    # a record that claims 'holds' but whose right side is off by one: the zero test must catch it
    real = proofs.get_proof

    def altered(name):
        p = real(name)
        rhs = p.rhs + sp.ones(*p.rhs.shape) if isinstance(p.rhs, sp.MatrixBase) else p.rhs + 1
        return SimpleNamespace(name=p.name, lhs=p.lhs, rhs=rhs, holds=True)

    monkeypatch.setattr(proofs, "get_proof", altered)
    assert check().verdict == "fails"


def test_the_proofs_checks_cite_are_rechecked_not_trusted():
    ok, text = R._proved("transpose", "composition")
    assert ok and text == "sympy proof 'transpose' holds, sympy proof 'composition' holds"
    ok, text = R._proved("transpose", "composition", wrong=lambda e: e.subs(R.a, 2 * R.a))
    assert not ok and text.count("FAILS") == 2
    ok, _ = R._proved("determinant", wrong=lambda e: e * -1)
    assert not ok


# --- the numeric part is measured ------------------------------------------------------------


def test_an_inflated_rotation_makes_the_matrix_checks_fail(monkeypatch):
    real = R.rotation_matrix
    checks = [
        R.transpose_rule,
        R.composition_rule,
        R.inverse_rule,
        R.orthogonal_rule,
        R.relative_identity,
        R.transpose_product,
        R.weights_identity,
        R.elementwise_form,
        R.pairwise_rotation,
    ]
    assert all(c().verdict == "holds" for c in checks)
    # angle off by 1e-6 and length off by 1e-6: neither cancels between the two sides of any identity
    monkeypatch.setattr(R, "rotation_matrix", lambda m, d, *a, **k: real(m + 1e-6, d, *a, **k) * (1 + 1e-6))
    for c in checks:
        out = c()
        assert out.verdict == "fails", _name(c)
        assert "FAILS" not in out.evidence  # the symbolic part still holds: the numeric part said no


def test_relative_residual_is_zero_for_n_minus_m_and_not_for_m_minus_n():
    # theta = 1 in d = 2: q = (1, 0), k = (0, 1), m = 1, n = 0: (R_1 q).k = sin 1, q^T R_{-1} k = sin 1
    q, k = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert R._relative_residual(q, k, 1.0, 0.0) < 1e-15
    assert R._relative_residual(q, k, 1.0, 0.0, sign=-1) == pytest.approx(2 * math.sin(1.0))
    assert R._relative_residual(q, 2 * k, 3.0, 1.0, sign=-1) == pytest.approx(2 * math.sin(2.0))


@pytest.mark.parametrize(
    ("kwargs", "verdict"),
    [({"sign": 1}, "holds"), ({"sign": 0}, "fails")],
)
def test_transpose_rule_measures_the_stated_angle(kwargs, verdict):
    assert R.transpose_rule(**kwargs).verdict == verdict
    assert R.inverse_rule(**kwargs).verdict == verdict
    assert R.composition_rule(**kwargs).verdict == verdict
    assert R.relative_identity(**kwargs).verdict == verdict
    assert R.transpose_product(**kwargs).verdict == verdict
    assert R.elementwise_form(**kwargs).verdict == verdict
    assert R.counterclockwise(**kwargs).verdict == verdict


def test_scaling_claims():
    assert R.orthogonal_rule(unit=2).verdict == "fails"
    assert R.norm_rule(factor=1 + 1e-6).verdict == "fails"
    assert R.norm_rule(factor=1 - 1e-6).verdict == "fails"
    assert R.same_rotation_invariance(shift=-1e-3).verdict == "fails"
    assert R.lengths_and_angle(sign=0).verdict == "fails"
    assert R.pairwise_rotation(shift=2).verdict == "fails"


def test_refutations_rebuilt_for_the_notes_claims_match_the_registered_ones():
    for name, out in [
        ("relative_sign", R.relative_sign_slip()),
        ("missing_weight_transpose", R.weights_missing_transpose()),
    ]:
        r = refutations.get_refutation(name)
        assert out.verdict == "fails" and r.refuted
        assert out.counterexample == {
            "values": r.values_text(),
            "true side": str(r.lhs_value),
            "stated formula": str(r.claim_value),
        }
        assert out.correction_holds is True and r.summary() in out.evidence
    # theta = pi/2, q = (1, 0), k = (0, 1), m = 1, n = 0: (R_1 q).k = 1 and q^T R_1 k = -1 (note 001), q^T R_{-1} k = 1
    assert R.relative_sign_slip().counterexample["stated formula"] == "-1"
    assert R.relative_sign_slip(sign=-1).counterexample["stated formula"] == "1"
    with pytest.raises(ValueError, match="sign must be 1 or -1"):
        R.relative_sign_slip(sign=0)
    # W_q = [[0, 1], [0, 0]], x_m = x_n = (0, 1), W_k = I, R_{-1} = R(-pi/2): x_m^T W_q R_{-1} x_n = 0, with W_q^T: 1
    assert R.weights_missing_transpose().counterexample["stated formula"] == "0"
    assert R.weights_missing_transpose(transpose=True).counterexample["stated formula"] == "1"


def _refutation(refuted, correct_holds):
    return SimpleNamespace(
        name="demo",
        values_text=lambda: "x = 1",
        lhs_value=1,
        claim_value=2,
        summary=lambda: "at x = 1: true side = 1, claim = 2, correct form = 1",
        correct=SimpleNamespace(latex="L = C", holds=correct_holds),
        holds_when="never",
        refuted=refuted,
    )


@pytest.mark.parametrize(
    ("refuted", "correct_holds", "verdict"), [(True, True, "fails"), (False, True, "holds"), (True, False, "fails")]
)
def test_refutation_outcome_follows_what_sympy_computed(refuted, correct_holds, verdict, monkeypatch):
    out = V.refutation_outcome(_refutation(refuted, correct_holds))
    assert out.verdict == verdict and out.correction_holds is correct_holds
    assert out.counterexample == {"values": "x = 1", "true side": "1", "stated formula": "2"}
    monkeypatch.setattr(R, "_refute", lambda *args: _refutation(refuted, correct_holds))
    assert R.relative_sign_slip().verdict == R.weights_missing_transpose().verdict == verdict


@pytest.mark.parametrize(("d", "verdict"), [(3, "holds-if"), (5, "holds-if"), (4, "holds"), (2, "holds")])
def test_even_dimension_breaks_exactly_for_odd_d(d, verdict):
    out = R.even_dimension(d=d)
    assert out.verdict == verdict
    assert out.counterexample["coordinates covered by the 2x2 blocks"] == 2 * (d // 2)


def test_even_dimension_needs_the_even_case_to_hold(monkeypatch):
    real = R.rotation_matrix
    monkeypatch.setattr(R, "rotation_matrix", lambda m, d, *a, **k: real(-m, d, *a, **k))
    assert R.even_dimension().verdict == "fails"  # breaks outside and does not hold inside


# --- checks_properties -----------------------------------------------------------------------


def test_absolute_and_relative_needs_both_halves():
    assert P.absolute_and_relative(sign=-1).verdict == "fails"
    assert P.absolute_and_relative(spacing=1e-9).verdict == "fails"  # positions too close to tell apart
    assert P.absolute_and_relative(spacing=2.0).verdict == "holds"


def test_any_length_and_invertible_measure():
    assert P.any_length(sign=-1).verdict == "fails"
    assert P.invertible(sign=1).verdict == "fails" and P.invertible(sign=0).verdict == "fails"


def test_multiplicative_sees_an_added_position_term():
    assert P.multiplicative(additive=1e-6).verdict == "fails"
    assert P.multiplicative(additive=-1.0).verdict == "fails"


@pytest.mark.parametrize(
    ("formats", "verdict"),
    [
        (("bfloat16", "float32"), "holds-if"),
        (("bfloat16", "bfloat16"), "holds-if"),
        (("float64", "float64"), "holds"),
        (("float64", "float32"), "holds"),  # no collision of 256 and 257
        (("bfloat16", "float64"), "holds"),  # no drift
        (("float32", "float32"), "holds"),  # float32 keeps 256 and 257 apart
    ],
)
def test_stability_breaks_only_when_both_short_format_effects_show(formats, verdict):
    out = P.stability(formats=formats)
    assert out.verdict == verdict
    assert out.counterexample["dtype"] == formats[0]


def test_stability_evidence_reports_what_was_measured():
    out = P.stability()
    assert (
        "Condition number of R_m is 1 to within 1e-12" in out.evidence
        and "errors in x are not amplified" in out.evidence
    )
    assert (
        "formed in bfloat16, positions 256 and 257 both get angle 256.0 on pair 0 (indistinguishable)" in out.evidence
    )
    ctl = P.stability(formats=("float64", "float64"))
    assert "256 and 257 get angles 256.0 and 257.0 on pair 0;" in ctl.evidence


def test_stability_counterexample_by_hand():
    # bfloat16 keeps 8 significant bits: 257 rounds to 256 (ties to even), so pair 0 (theta_0 = 1) sees 256 twice
    ex = P.stability().counterexample
    assert (ex["d"], ex["positions"], ex["angle of pair 0"]) == (128, [256, 257], [256.0, 256.0])
    assert P.stability(formats=("float32", "float32")).counterexample["angle of pair 0"] == [256.0, 257.0]


def test_stability_needs_the_inside_case(monkeypatch):
    real = P.rotation_matrix
    monkeypatch.setattr(P, "rotation_matrix", lambda *a, **k: 2 * real(*a, **k) - np.eye(real(*a, **k).shape[0]))
    assert P.stability().verdict == "fails"  # condition number no longer 1


def test_score_shape_decides_what_it_is_given():
    out = P.score_shape()
    assert out.correction_holds is True and out.counterexample["m"] == 3
    assert len(out.counterexample["f_q(x_m, m)"]) == 4
    with pytest.raises(KeyError):
        P.score_shape(what="score")
    # recomputed independently: f_q = R_3 W_q x_m, the score f_q . (R_1 W_k x_n), seed 11
    rng = np.random.default_rng(11)
    wq, wk = rng.standard_normal((2, 4, 4))
    xm, xn = rng.standard_normal((2, 4))

    def rot(m):
        r = np.zeros((4, 4))
        for i in range(2):
            t = m * 10000.0 ** (-2 * i / 4)
            r[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
        return r

    f_q = rot(3.0) @ wq @ xm
    assert out.counterexample["f_q(x_m, m)"] == pytest.approx(f_q, abs=1e-4)
    assert out.counterexample["score f_q^T f_k (n = 1)"] == pytest.approx(f_q @ rot(1.0) @ wk @ xn, abs=1e-4)


@pytest.mark.parametrize(
    ("scale", "verdict"), [(2.0, "holds-if"), (3.0, "holds-if"), (1.0, "holds"), (1 + 1e-9, "holds")]
)
def test_dot_and_angle_breaks_when_the_norms_differ(scale, verdict):
    out = P.dot_and_angle(scale=scale)
    assert out.verdict == verdict
    assert out.counterexample["a.b'"] == pytest.approx(scale)


def test_dot_and_angle_counterexample_by_hand():
    # a = b = (1, 0), b' = (2, 0): the angle is 0 in both, a.b = 1, a.b' = 2
    ex = P.dot_and_angle().counterexample
    assert (ex["a"], ex["b"], ex["b'"], ex["angle"], ex["a.b"], ex["a.b'"]) == (
        [1.0, 0.0],
        [1.0, 0.0],
        [2.0, 0.0],
        0.0,
        1.0,
        2.0,
    )
    assert "different dot products (1 vs 2)" in P.dot_and_angle().evidence


def test_rotations_2d_vs_3d():
    assert P.rotations_2d_vs_3d(proper=False).verdict == "fails"
    # R_x R_z = [[0,-1,0],[0,0,-1],[1,0,0]], R_z R_x = [[0,0,1],[1,0,0],[0,1,0]]: largest entry of the difference 1
    assert "(|R_x R_z - R_z R_x| = 1)" in P.rotations_2d_vs_3d().evidence


# --- checks_encodings ------------------------------------------------------------------------


def test_additive_and_sinusoidal_leaks():
    assert E.additive_leaks(constant_p=True).verdict == "fails"
    assert E.sinusoidal_leaks(generic=False).verdict == "fails"
    assert "Random W_q, W_k" in E.sinusoidal_leaks().evidence


@pytest.mark.parametrize(("count", "verdict"), [(4, "holds"), (3, "fails"), (2, "fails"), (1, "fails")])
def test_four_terms_needs_all_four(count, verdict):
    out = E.four_terms(count=count)
    assert out.verdict == verdict
    assert ("do NOT sum" in out.evidence) == (count != 4)


def test_four_terms_needs_the_sympy_expansion(monkeypatch):
    real = E.additive_score_expansion

    def wrong_last_term(*args, **kwargs):
        lhs, terms = real(*args, **kwargs)
        return lhs, {**terms, "position-position": terms["content-content"]}

    monkeypatch.setattr(E, "additive_score_expansion", wrong_last_term)
    out = E.four_terms()
    assert out.verdict == "fails" and "do NOT sum" in out.evidence


def test_sinusoidal_formula_and_parity():
    assert E.sinusoidal_formula(parity=1).verdict == "fails"
    assert E.sinusoidal_parity(start=0).verdict == "fails"
    assert E.sinusoidal_parity(start=2).verdict == "fails"
    assert E.sinusoidal_parity(start=3).verdict == "holds"  # parity of the numbering is all that matters


def test_relative_schemes_see_absolute_indices():
    assert E.relative_schemes(sign=1).verdict == "fails"


@pytest.mark.parametrize(
    ("matrix", "verdict"),
    [
        (((1.0, 0.0), (0.0, 2.0)), "fails"),
        (((1.0, 0.5), (-0.5, 1.0)), "holds"),
        (((3.0, 0.0), (0.0, 3.0)), "holds"),
        (((1.0, 0.5), (0.5, 1.0)), "fails"),  # b = c: absolute part sin((i+j) w)/2, score(1, 1) = 1 + sin(2)/2
    ],
)
def test_tupe_refuted_exactly_when_m_is_not_a_scaled_rotation(matrix, verdict):
    out = E.tupe_position_term(m_matrix=matrix)
    assert out.verdict == verdict


def test_tupe_counterexample_by_hand():
    # p_0 = (sin 0, cos 0) = (0, 1), p_1 = (sin 1, cos 1); M = diag(1, 2):
    # p_0^T M p_0 = 2, p_1^T M p_1 = sin^2 1 + 2 cos^2 1
    out = E.tupe_position_term()
    assert out.counterexample["score(0, 0)"] == 2.0
    assert out.counterexample["score(1, 1)"] == round(math.sin(1) ** 2 + 2 * math.cos(1) ** 2, 4)
    assert "cos(omega*(i + j))/2" in out.evidence and out.correction_holds is True
    assert "U_q^T U_k = diag(1, 2):" in out.evidence and out.counterexample["U_q^T U_k"] == [[1.0, 0.0], [0.0, 2.0]]
    # M = I + J/2: p^T M p = |p|^2 = 1 for every p = (sin, cos)
    ctl = E.tupe_position_term(m_matrix=((1.0, 0.5), (-0.5, 1.0)))
    assert ctl.counterexample["score(0, 0)"] == ctl.counterexample["score(1, 1)"] == 1.0


def test_absolute_carries_relative():
    out = E.absolute_carries_relative()
    assert out.verdict == "fails" and out.correction_holds is True
    # p_i . p_j = sum_t cos((i - j) w_t) over 8 frequencies w_t = 10000^(-t/8): p_1 . p_0 = p_6 . p_5
    expected = sum(math.cos(10000.0 ** (-t / 8)) for t in range(8))
    assert out.counterexample["p_1 . p_0"] == out.counterexample["p_6 . p_5"] == round(expected, 4)
    assert E.absolute_carries_relative(phase=1.0).verdict == "holds"


def test_absolute_carries_relative_needs_the_leak_for_its_correction(monkeypatch):
    monkeypatch.setattr(E, "sinusoidal_leaks", lambda: Outcome("fails", "no leak measured"))
    assert E.absolute_carries_relative().correction_holds is False


def test_leak_scores_recomputed_independently():
    # (x_i + p_i)^T W_q^T W_k (x_j + p_j) with the same token x at every position, learned p (seed 36)
    rng = np.random.default_rng(36)
    x = rng.standard_normal(8)
    p, wq, wk = rng.standard_normal((12, 8)), *rng.standard_normal((2, 8, 8))

    def score(i, j):
        return float((wq @ (x + p[i])) @ (wk @ (x + p[j])))

    out = E.additive_leaks()
    assert f"score(1, 0) = {round(score(1, 0), 4)} but score(6, 5) = {round(score(6, 5), 4)}" in out.evidence
    # sinusoidal p (Vaswani: sin at 2t, cos at 2t+1, w_t = 10000^(-2t/d)), random weights (seed 37)
    rng = np.random.default_rng(37)
    x, wq, wk = rng.standard_normal(8), *rng.standard_normal((2, 8, 8))

    def sin_p(i):
        w = 10000.0 ** (-2 * np.arange(4) / 8)
        return np.stack([np.sin(i * w), np.cos(i * w)], axis=-1).ravel()

    def sin_score(i, j):
        return float((wq @ (x + sin_p(i))) @ (wk @ (x + sin_p(j))))

    out = E.sinusoidal_leaks()
    assert f"score(1, 0) = {round(sin_score(1, 0), 4)}, score(6, 5) = {round(sin_score(6, 5), 4)}" in out.evidence


def _toeplitz(*args, **kwargs):
    """A score matrix that depends on i - j only (and does vary with it): no leak to find."""
    idx = np.arange(12.0)
    return np.cos(idx[:, None] - idx[None, :]) + 0.1 * (idx[:, None] - idx[None, :])


def test_a_relative_score_matrix_is_not_a_leak(monkeypatch):
    monkeypatch.setattr(E, "additive_scores", _toeplitz)
    assert E.additive_leaks().verdict == "fails"
    monkeypatch.setattr(E, "sinusoidal_scores", _toeplitz)
    assert E.sinusoidal_leaks().verdict == "fails"


def test_sinusoidal_leaks_reports_the_relative_special_case():
    assert "W_q^T W_k = I, p_i^T p_j = sum_t cos((i-j) w_t) is relative: residual < 1e-9;" in (
        E.sinusoidal_leaks().evidence
    )


def test_tupe_needs_both_the_numbers_and_sympys_absolute_part(monkeypatch):
    real = E.sinusoidal_pair_decomposition
    i, j, omega = sp.symbols("i j", real=True) + (sp.Symbol("omega", positive=True),)
    # sympy claims an absolute part where the numbers agree (M = I + J/2): not refuted
    monkeypatch.setattr(E, "sinusoidal_pair_decomposition", lambda: {**real(), "absolute": sp.cos(omega * (i + j))})
    assert E.tupe_position_term(m_matrix=((1.0, 0.5), (-0.5, 1.0))).verdict == "holds"
    # the numbers differ (M = diag(1, 2)) but sympy finds no absolute part: not refuted either
    monkeypatch.setattr(E, "sinusoidal_pair_decomposition", lambda: {**real(), "absolute": sp.Integer(0)})
    assert E.tupe_position_term().verdict == "holds"


def test_multiplicative_does_not_drop_a_nan(monkeypatch):
    monkeypatch.setattr(P, "apply_rope", lambda v, m, **k: np.full_like(v, np.nan) if m == 0 else v)
    assert P.multiplicative().verdict == "fails"


def test_absolute_and_relative_says_when_positions_coincide():
    assert "are NOT pairwise distinct" in P.absolute_and_relative(spacing=0.0).evidence
    assert "are pairwise distinct" in P.absolute_and_relative().evidence
