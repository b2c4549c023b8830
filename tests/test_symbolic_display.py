"""Tests that what ``ropemath.symbolic`` displays is what it proved.

Every formula shown for a proof, a refutation or a derivation step (``latex``, ``text``, step titles and
explanations, ``ropemath derive``, the claims ledger's evidence) is rendered from the sympy objects that
were compared, never typed beside them.  Each test pairs the display with the verdict: alter the
expression (a sign flipped through ``dataclasses.replace``) and both the display and the verdict change.
The expected LaTeX fragments are typed here, independently of the code that renders them.
"""

import dataclasses
import re

import pytest
import sympy as sp
from test_symbolic_derivation import CORRUPTIONS, KEYS

from ropemath.cli.dispatch import main
from ropemath.symbolic import derivation, proofs, refutations
from ropemath.symbolic.common import Rot, a, check_identity, explicit, k0, k1, m, n, plain, q0, q1, render, theta
from ropemath.symbolic.derivation import derivation_steps, verify_step

NAMES = proofs.proof_names()

# typed here: a fragment the rendered statement must contain (what the notebook and the CLI show)
EXPECTED = {
    "transpose": r"\left(R(a)\right)^{T} = R(- a)",
    "composition": "R(a) R(b) = R(a + b)",
    "orthogonality": r"\left(R(a)\right)^{T} R(a) = \mathbb{I}",
    "determinant": r"\left|{R(a)}\right| = 1",
    "relative_position_2d": r"\left(R_{m} q\right)^{T} \left(R_{n} k\right) = q^{T} R_{n - m} k",
    "relative_position_complex_2d": r"q^{T} R_{n - m} k = \operatorname{re}",
    "score_cross_term_2d": r"= q^{T} k \cos",
    "score_polar_2d": r"\cos{\left(\alpha_{q} - \alpha_{k} + \theta \left(m - n\right) \right)}",
    "weights_transpose_2d": r"= x_{m}^{T} W_{q}^{T} R_{n - m} W_{k} x_{n}",
    "block_diagonal_d4": r"\left(R^{4}_{\Theta,m}\right)^{T} R^{4}_{\Theta,n} = R^{4}_{\Theta,n - m}",
    "block_diagonal_d6": r"\left(R^{6}_{\Theta,m}\right)^{T} R^{6}_{\Theta,n} = R^{6}_{\Theta,n - m}",
    "elementwise_interleaved_d6": r"R^{6}_{\Theta,m} x = x \circ c_{m}",
    "elementwise_half_d6": r"R^{6,\mathrm{half}}_{\Theta,m} x = x \circ c_{m}",
    "abel_summation_d8": r"\sum_{i=0}^{3} {h}_{i} \left({S}_{1 + i} - {S}_{i}\right) = - \sum_{i=0}^{3}",
    "abel_partial_sums_d8": r"= \sum_{i=0}^{3} {h}_{i} e^{i r {\theta}_{i}}",
}


def test_every_registered_proof_has_an_expected_display():
    assert set(EXPECTED) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_proof_display_is_rendered_from_the_proved_sides(name):
    p = proofs.get_proof(name)
    assert p.latex == f"{render(p.shown_lhs)} = {render(p.shown_rhs)}"
    assert p.text == f"{plain(p.shown_lhs)} = {plain(p.shown_rhs)}"
    assert EXPECTED[name] in p.latex
    # the sides compared are the shown sides multiplied out: nothing else is proved
    assert explicit(p.shown_lhs, p.definitions) == p.lhs and explicit(p.shown_rhs, p.definitions) == p.rhs
    assert p.holds is True


@pytest.mark.parametrize("name", NAMES)
def test_flipping_the_sign_of_a_shown_side_changes_display_and_verdict(name):
    p = proofs.get_proof(name)
    wrong = dataclasses.replace(p, shown_rhs=-p.shown_rhs)
    assert wrong.latex != p.latex and wrong.text != p.text
    assert wrong.latex == f"{render(p.shown_lhs)} = {render(-p.shown_rhs)}"
    assert (p.holds, wrong.holds, wrong.recheck()) == (True, False, False)


def test_relative_sign_flip_shows_m_minus_n_and_fails():
    p = proofs.prove_relative_position_2d()
    wrong = dataclasses.replace(p, shown_rhs=proofs.relative_shown(-1))
    assert "R_{n - m}" in p.latex and "R_{m - n}" in wrong.latex and "R_{n - m}" not in wrong.latex
    assert p.holds is True and wrong.holds is False


def test_rotation_subscript_is_printed_from_the_angle_it_multiplies_out():
    shown = Rot(n - m, (theta,))
    assert render(shown) == "R_{n - m}"
    assert explicit(shown)[0, 1] == -sp.sin((n - m) * theta)
    assert render(Rot(m - n, (theta,))) == "R_{m - n}" and explicit(Rot(m - n, (theta,)))[0, 1] == -sp.sin(
        (m - n) * theta)


def test_check_identity_display_follows_its_arguments():
    right = check_identity("pythagoras", sp.sin(a) ** 2 + sp.cos(a) ** 2, sp.Integer(1), source="test")
    wrong = check_identity("pythagoras", sp.sin(a) ** 2 + sp.cos(a) ** 2, sp.Integer(2), source="test")
    assert right.latex.endswith(" = 1") and right.holds is True
    assert wrong.latex.endswith(" = 2") and wrong.holds is False


# ---- refutations -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", refutations.refutation_names())
def test_refutation_displays_are_rendered_from_the_refuted_claim(name):
    r = refutations.get_refutation(name)
    assert r.claim_latex == f"{render(r.correct.shown_lhs)} = {render(r.shown)}"
    assert explicit(r.shown, r.correct.definitions) == r.claim
    assert r.gap.latex.startswith(render(r.correct.shown_lhs))
    assert r.claim_latex != r.correct.latex


def test_relative_sign_refutation_shows_the_wrong_sign():
    r = refutations.get_refutation("relative_sign")
    assert r.claim_latex.endswith("= q^{T} R_{m - n} k") and r.correct.latex.endswith("= q^{T} R_{n - m} k")
    assert r.gap.latex == (r"\left(R_{m} q\right)^{T} \left(R_{n} k\right) - q^{T} R_{m - n} k = "
                           r"2 \left(q_{0} k_{1} - q_{1} k_{0}\right) \sin{\left(\theta \left(m - n\right) \right)}")


def test_a_corrected_claim_changes_display_and_is_not_refuted():
    # the same code, with the claim's sign flipped to the correct one: the display follows, the verdict flips
    r = refutations.get_refutation("relative_sign")
    fixed = refutations.refute("fixed", proofs.relative_shown(1), source="test", correct=r.correct,
                               values=dict(r.values), gap=sp.Integer(0), holds_when="always")
    assert r.refuted is True and fixed.refuted is False
    assert "R_{n - m}" in fixed.claim_latex and fixed.claim_latex != r.claim_latex


def test_typed_latex_is_never_displayed():
    # the older call (typed LaTeX + claim expression) displays the claim itself, not the text
    r0 = refutations.get_refutation("relative_sign")
    r = refutations.refute("relative_sign", r"\text{typed and wrong}", source="test", correct=r0.correct,
                           claim=r0.claim, values=dict(r0.values), gap=("typed", r0.gap.rhs), holds_when="-")
    assert "typed" not in r.claim_latex and "typed" not in r.gap.latex
    assert r.claim_latex.endswith(render(r0.claim)) and r.refuted is True


@pytest.mark.parametrize("name", refutations.refutation_names())
def test_stated_conditions_are_checked_substitutions(name):
    r = refutations.get_refutation(name)
    assert r.cases and r.cases_hold is True
    for case in r.cases:  # each condition is printed from the substitution that was checked
        assert ", ".join(f"{plain(k)} = {plain(v)}" for k, v in case) in r.holds_when
    assert "{" not in r.holds_when


def test_a_wrong_condition_is_not_confirmed():
    r0 = refutations.get_refutation("relative_sign")
    c = sp.Symbol("c", real=True)
    swapped = {k0: c * q1, k1: c * q0}  # "parallel" with the components swapped: not parallel
    r = refutations.refute("relative_sign", proofs.relative_shown(-1), source="test", correct=r0.correct,
                           values=dict(r0.values), gap=r0.gap.shown_rhs, holds_when="only if {0}", cases=(swapped,))
    assert r.refuted is True and r.cases_hold is False


def test_a_display_that_differs_from_the_claim_is_refused():
    r0 = refutations.get_refutation("relative_sign")
    with pytest.raises(ValueError, match="claim must be what shown stands for"):
        refutations.refute("x", proofs.relative_shown(1), source="test", correct=r0.correct, claim=r0.claim,
                           values=dict(r0.values), gap=r0.gap.rhs, holds_when="-")


# ---- derivation steps ------------------------------------------------------------------------

# typed here: the '=' a step's prose may contain are these substitutions and assumptions (not claims)
ALLOWED_EQUALITIES = {"n = m", "m = n = 0", "k = q", "n = m - 1", "f(x, 0) = x", "f(q, 0) = q", "q = q_0 + i q_1",
                      "psi(q) = arg q", "q != 0"}


def _prose(template: str) -> str:
    return re.sub(r"\{[a-z_]+\}", "<formula>", template)


@pytest.mark.parametrize("key", KEYS)
def test_step_prose_types_no_formula_that_claims_something(key):
    s = next(s for s in derivation_steps() if s.key == key)
    for template in (s.title_template, s.reason_template):
        prose = _prose(template)
        for allowed in ALLOWED_EQUALITIES:
            prose = prose.replace(allowed, "")
        assert "=" not in prose, f"typed equation in step {key}: {prose!r}"


@pytest.mark.parametrize("key", KEYS)
def test_step_display_follows_its_expressions(key):
    s = next(s for s in derivation_steps() if s.key == key)
    text = sp.latex(s.equation)
    assert s.latex == (text if s.given is None else sp.latex(s.given) + r" \;\Longrightarrow\; " + text)
    for name, expr in s.terms:
        assert f"${render(expr)}$" in s.explain(latex=True) + s.heading(latex=True), name
        assert plain(expr) in s.reason + s.title, name
    bad = dataclasses.replace(s, rhs=CORRUPTIONS[key](s))
    assert bad.latex != s.latex and verify_step(s) is True and verify_step(bad) is False
    if any("{rhs}" in t or "{equation}" in t for t in (s.title_template, s.reason_template)):
        assert (bad.heading(), bad.explain()) != (s.heading(), s.explain())
        assert plain(bad.rhs) in bad.title + bad.reason


# ---- what `ropemath derive` prints and the ledger's evidence -----------------------------------


def test_derive_latex_prints_the_generated_latex(capsys):
    assert main(["derive", "--latex"]) == 0
    out = capsys.readouterr().out
    for p in proofs.all_proofs():
        assert f"{p.name}: {p.latex}" in out
    for r in refutations.all_refutations():
        assert r.claim_latex in out and r.gap.latex in out
    for s in derivation.derivation_steps():
        assert s.latex in out and s.heading(latex=True) in out and s.explain(latex=True) in out


def test_derive_plain_prints_the_generated_text(capsys, monkeypatch):
    assert main(["derive", "--only", "proofs"]) == 0
    out = capsys.readouterr().out
    assert "[proved] relative_position_2d: (R_m*q).T*(R_n*k) = q.T*R_(n - m)*k" in out  # typed here
    # a proof altered to the wrong sign is printed with the wrong sign, and fails
    bad = dataclasses.replace(proofs.prove_relative_position_2d(), shown_rhs=proofs.relative_shown(-1))
    monkeypatch.setitem(proofs.PROOFS, "relative_position_2d", lambda: bad)
    assert main(["derive", "--only", "proofs"]) == 1
    out = capsys.readouterr().out
    assert "[DOES NOT HOLD] relative_position_2d: (R_m*q).T*(R_n*k) = q.T*R_(m - n)*k" in out


def test_ledger_evidence_quotes_the_generated_correct_form():
    from ropemath.claims._verdict import refutation_outcome
    from ropemath.symbolic.refutations import get_refutation

    outcome = refutation_outcome(get_refutation("relative_sign"))
    assert f"${proofs.prove_relative_position_2d().latex}$" in outcome.evidence
