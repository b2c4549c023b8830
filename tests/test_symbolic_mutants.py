"""Tests that tell mutants of ropemath.symbolic from the original (``make mutants``).

Each test asserts a mathematical property or a documented behaviour that an earlier mutation run
showed no test checked: a wrong identity must not hold, a counterexample value is worked out by hand,
a rendered formula is typed here from the paper's notation, a record cannot be altered in place.
Mutants no test can tell apart (equivalent ones) are marked ``# pragma: no mutate`` at their line.
"""

import dataclasses
import importlib

import pytest
import sympy as sp

from ropemath.cli.dispatch import main
from ropemath.symbolic import common, derivation, proofs, refutations
from ropemath.symbolic.common import (
    Proof,
    Rot,
    a,
    b,
    check_identity,
    explicit,
    is_zero,
    k,
    k0,
    k1,
    m,
    n,
    q,
    q0,
    q1,
    theta,
    thetas,
)
from ropemath.symbolic.notation import block_rotation, plain, render

# ---------------------------------------------------------------------------------------------
# the package: lazy exports (ropemath/symbolic/__init__.py)


def test_lazy_exports_resolve_to_the_defining_module_and_unknown_names_raise_attribute_error():
    package = importlib.import_module("ropemath.symbolic")
    assert package.get_proof is proofs.get_proof  # an export, found through __getattr__
    assert package.all_refutations is refutations.all_refutations
    assert package.__getattr__("proofs") is proofs  # a submodule, by name
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        package.__getattr__("not_a_name")


# ---------------------------------------------------------------------------------------------
# common: symbols, the zero test, the proof record


def test_symbols_range_over_what_the_module_says():
    # "q0, q1, k0, k1 real; m, n real; theta real; a, b real; q, k complex" (module docstring)
    for s in (q0, q1, k0, k1, m, n, theta, a, b):
        assert s.is_real is True, s
    assert q.is_real is None and k.is_real is None  # complex: nothing assumed
    assert [s.is_real for s in thetas(3)] == [True, True, True]
    assert [str(s) for s in thetas(3)] == ["theta_0", "theta_1", "theta_2"]


def test_is_zero_on_a_matrix_needs_every_entry_zero():
    assert is_zero(sp.ImmutableMatrix([[0, 0], [0, 0]])) is True
    assert is_zero(sp.ImmutableMatrix([[0, 0], [0, 1]])) is False
    assert is_zero(sp.ImmutableMatrix([0, sp.sin(a) ** 2 + sp.cos(a) ** 2 - 1])) is True


def test_is_zero_proves_identities_and_refuses_wrong_ones():
    assert is_zero(sp.sin(2 * a) - 2 * sp.sin(a) * sp.cos(a)) is True
    assert is_zero(sp.sin(2 * a) - sp.sin(a) * sp.cos(a)) is False
    assert is_zero(sp.exp(sp.I * a) + sp.exp(-sp.I * a) - 2 * sp.cos(a)) is True  # needs expand_complex
    assert is_zero(sp.exp(sp.I * a) - sp.exp(-sp.I * a) - 2 * sp.cos(a)) is False


def test_a_proof_record_cannot_be_altered_in_place():
    # holds is computed once from the shown sides: an in-place change would leave a stale verdict
    p = proofs.prove_transpose()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.shown_rhs = Rot(a, (1,))
    r = refutations.refute_relative_sign()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.refuted = False


def test_proof_equation_is_the_unevaluated_multiplied_out_identity():
    # R(a)^T = R(-a): both sides multiply out to the same matrix, yet the equation is kept as an equation
    p = proofs.prove_transpose()
    eq = p.equation
    assert isinstance(eq, sp.Eq)
    assert eq.lhs == sp.ImmutableMatrix([[sp.cos(a), sp.sin(a)], [-sp.sin(a), sp.cos(a)]])
    assert eq.rhs == eq.lhs


def test_recheck_agrees_with_holds_for_true_and_false_identities():
    for p in proofs.all_proofs():
        assert p.recheck() is True, p.name
    wrong = dataclasses.replace(proofs.prove_composition(), shown_rhs=Rot(a - b, (1,)))  # R(a)R(b) = R(a - b)
    assert wrong.recheck() is False and wrong.holds is False


def test_check_identity_rejects_a_name_that_is_not_a_string():
    with pytest.raises(TypeError, match="name must be a str"):
        check_identity(1, a, a, source="-")
    assert check_identity("ok", a, a, source="-").holds is True


# ---------------------------------------------------------------------------------------------
# cli: every failure is reported


def test_derive_exits_1_when_a_condition_of_a_refutation_is_not_confirmed(capsys, monkeypatch):
    good = refutations.refute_relative_sign()
    # a wrong stated case: q_0 = 1 does not make the gap 2 (q_0 k_1 - q_1 k_0) sin((m - n) theta) vanish
    bad = refutations.refute("relative_sign", good.shown, source="test", correct=good.correct,
                             values=dict(good.values), gap=good.gap.shown_rhs, holds_when="only if {0}",
                             cases=({q0: 1},))
    assert bad.refuted is True and bad.cases_hold is False
    monkeypatch.setattr(refutations, "all_refutations", lambda: (bad,))
    assert main(["derive", "--only", "refutations"]) == 1
    captured = capsys.readouterr()
    assert "NOT CONFIRMED" in captured.out
    assert "FAILED: refutation relative_sign" in captured.err


def test_derive_exits_1_when_a_proof_does_not_hold(capsys, monkeypatch):
    wrong = dataclasses.replace(proofs.prove_transpose(), shown_rhs=Rot(a, (1,)))  # R(a)^T = R(a): false
    assert wrong.holds is False
    monkeypatch.setattr(proofs, "all_proofs", lambda: (wrong,))
    assert main(["derive", "--only", "proofs"]) == 1
    captured = capsys.readouterr()
    assert "[DOES NOT HOLD] transpose" in captured.out and "FAILED: proof transpose" in captured.err


# ---------------------------------------------------------------------------------------------
# notation: rendering, typed here from the notation of RoFormer eq. (13), (15)


def test_rotation_notation_prints_as_the_paper_writes_it():
    assert render(Rot(a, (1,))) == "R(a)"
    assert render(Rot(m, (theta,))) == "R_{m}"
    assert render(Rot(m, thetas(2))) == r"R^{4}_{\Theta,m}"
    assert render(Rot(m, thetas(3), "half")) == r"R^{6,\mathrm{half}}_{\Theta,m}"
    assert plain(Rot(a, (1,))) == "R(a)"
    assert plain(Rot(m, (theta,))) == "R_m"
    assert plain(Rot(n - m, (theta,))) == "R_(n - m)"
    assert plain(Rot(m, thetas(2))) == "R^4_(Theta,m)"
    assert plain(Rot(m, thetas(2), "half")) == "R^4_half_(Theta,m)"


def test_rotation_notation_shape_and_entries():
    r = Rot(m, thetas(3))
    assert tuple(r.shape) == (6, 6)
    assert r[0, 0] == sp.cos(m * thetas(3)[0]) and r[0, 1] == -sp.sin(m * thetas(3)[0])
    assert r[1, 0] == sp.sin(m * thetas(3)[0]) and r[5, 5] == sp.cos(m * thetas(3)[2])


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_block_rotation_pairs_by_hand(layout):
    t0, t1 = thetas(2)
    c0, s0, c1, s1 = sp.cos(m * t0), sp.sin(m * t0), sp.cos(m * t1), sp.sin(m * t1)
    if layout == "interleaved":  # RoFormer eq. (15): pairs (0, 1), (2, 3)
        expected = [[c0, -s0, 0, 0], [s0, c0, 0, 0], [0, 0, c1, -s1], [0, 0, s1, c1]]
    else:  # rotate_half: pairs (0, 2), (1, 3)
        expected = [[c0, 0, -s0, 0], [0, c1, 0, -s1], [s0, 0, c0, 0], [0, s1, 0, c1]]
    assert block_rotation(m, (t0, t1), layout=layout) == sp.ImmutableMatrix(expected)


def test_render_and_plain_print_column_vectors_on_one_line_and_other_matrices_whole():
    assert render(sp.ImmutableMatrix([a, b])) == r"\left(a, b\right)^{T}"
    assert plain(sp.ImmutableMatrix([a, b])) == "(a, b)^T"
    assert plain(sp.ImmutableMatrix([[a, b]])) == "Matrix([[a, b]])"  # a row is not a column vector
    assert plain(sp.ImmutableMatrix([[a]])) == "Matrix([[a]])"
    assert render(sp.ImmutableMatrix([[a, b]])) == sp.latex(sp.ImmutableMatrix([[a, b]]))
    assert render(sp.ImmutableMatrix([[a]])) == sp.latex(sp.ImmutableMatrix([[a]]))
    assert plain(sp.Eq(a, b)) == "a = b" and plain(a - b) == "a - b"
    A, v = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("v", 2, 1)
    assert plain(-sp.MatMul(A, v)) == "-A*v"  # a product of symbols prints as sympy writes it
    assert plain(sp.MatMul(sp.ImmutableMatrix([[1, 2], [3, 4]]), v, evaluate=False)) == "Matrix([[1, 2], [3, 4]])*v"


def test_explicit_substitutes_definitions_and_multiplies_out():
    assert proofs.prove_determinant().lhs == sp.cos(a) ** 2 + sp.sin(a) ** 2  # det R(a), multiplied out
    assert not proofs.prove_abel_summation(2).lhs.has(sp.Sum)  # the sums written out term by term
    v = sp.MatrixSymbol("v", 2, 1)
    assert explicit(v, ((v, sp.ImmutableMatrix([a, b])),)) == sp.ImmutableMatrix([a, b])
    rotated = explicit(sp.MatMul(Rot(theta, (1,)), v), ((v, sp.ImmutableMatrix([1, 0])),))
    assert rotated == sp.ImmutableMatrix([sp.cos(theta), sp.sin(theta)])  # R(theta) e_0 = (cos, sin)
    assert explicit(sp.MatMul(sp.Transpose(v), v), ((v, sp.ImmutableMatrix([a, b])),)) == a**2 + b**2


# ---------------------------------------------------------------------------------------------
# refutations: the false claims and their counterexamples, by hand


def test_relative_sign_gap_is_twice_the_cross_term_times_the_sine():
    r = refutations.refute_relative_sign()
    cross_sine = (q0 * k1 - q1 * k0) * sp.sin((m - n) * theta)
    assert is_zero(r.gap.rhs - 2 * cross_sine)
    assert is_zero(r.lhs - r.claim - 2 * cross_sine)
    assert r.gap.holds is True


def test_stated_cases_make_the_gap_vanish_by_hand():
    j = sp.Symbol("j", integer=True)
    c = sp.Symbol("c", real=True)
    cross_sine = (q0 * k1 - q1 * k0) * sp.sin((m - n) * theta)
    assert is_zero(cross_sine.subs({k0: c * q0, k1: c * q1}))  # parallel q, k
    assert is_zero(cross_sine.subs({m: n + sp.pi * j / theta}))  # (m - n) theta a multiple of pi
    r = refutations.refute_relative_sign()
    assert dict(r.cases[0]) == {k0: c * q0, k1: c * q1}
    assert dict(r.cases[1]) == {m: n + sp.pi * j / theta}
    assert r.holds_when == ("only if q and k are parallel (k_0 = c*q_0, k_1 = c*q_1) or (m - n) theta is a "
                            "multiple of pi (m = n + pi*j/theta)")


def test_norms_times_cos_cases_by_hand():
    r = refutations.refute_norms_times_cos()
    j = sp.Symbol("j", integer=True)
    aq, ak, rq, rk = proofs.alpha_q, proofs.alpha_k, proofs.r_q, proofs.r_k
    phi = (m - n) * theta
    assert [dict(c) for c in r.cases] == [{aq: ak + 2 * sp.pi * j}, {aq: ak - 2 * phi + 2 * sp.pi * j},
                                          {rq: 0}, {rk: 0}]
    assert r.cases_hold is True
    # the true side rq rk cos(aq - ak + phi) equals the claim rq rk cos(phi) in each case
    for case in r.cases:
        assert is_zero((r.lhs - r.claim).subs(dict(case)))


def test_a_claim_equal_to_the_true_side_at_the_values_is_not_refuted():
    # sin(a + b) = sin a + sin b holds at a = 0 (b arbitrary): those values refute nothing
    expansion = sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)
    ok = check_identity("sine_sum", sp.sin(a + b), expansion, source="trigonometry")
    r = refutations.refute("sine_additive", sp.sin(a) + sp.sin(b), source="-", correct=ok,
                           values={a: 0, b: sp.pi / 3}, gap=expansion - sp.sin(a) - sp.sin(b), holds_when="-")
    assert (r.lhs_value, r.claim_value) == (sp.sqrt(3) / 2, sp.sqrt(3) / 2)
    assert r.refuted is False
    r = refutations.refute("sine_additive", sp.sin(a) + sp.sin(b), source="-", correct=ok,
                           values={a: sp.pi / 3, b: sp.pi / 3}, gap=expansion - sp.sin(a) - sp.sin(b), holds_when="-")
    assert (r.lhs_value, r.claim_value, r.correct_value) == (sp.sqrt(3) / 2, sp.sqrt(3), sp.sqrt(3) / 2)
    assert r.refuted is True


def test_counterexample_values_are_simplified_to_exact_numbers():
    # (sin^2 + cos^2)(a) = 1 at a = 1: the value must come out as 1, not sin(1)**2 + cos(1)**2
    one = check_identity("pythagoras", sp.sin(a) ** 2 + sp.cos(a) ** 2, sp.Integer(1), source="-")
    r = refutations.refute("two", sp.Integer(2), source="-", correct=one, values={a: 1}, gap=sp.Integer(-1),
                           holds_when="never")
    assert (r.lhs_value, r.claim_value, r.correct_value) == (1, 2, 1)
    assert r.refuted is True


def test_refute_with_claim_only_displays_the_claim_and_requires_some_claim():
    ok = check_identity("double", sp.sin(2 * a), 2 * sp.sin(a) * sp.cos(a), source="-")
    r = refutations.refute("no_two", "typed", source="-", correct=ok, values={a: sp.pi / 4},
                           gap=sp.sin(2 * a) - sp.sin(a) * sp.cos(a), holds_when="-",
                           claim=sp.sin(a) * sp.cos(a))
    assert r.shown == sp.sin(a) * sp.cos(a) and r.claim_value == sp.Rational(1, 2) and r.refuted is True
    with pytest.raises(TypeError, match="needs the claim"):
        refutations.refute("none", None, source="-", correct=ok, values={a: 0}, gap=sp.Integer(0), holds_when="-")
    with pytest.raises(ValueError, match="claim must be what shown stands for"):
        refutations.refute("mismatch", sp.sin(a), source="-", correct=ok, values={a: 0}, gap=sp.Integer(0),
                           holds_when="-", claim=sp.cos(a))


def test_refutation_text_forms_by_hand():
    r = refutations.refute_missing_cross_term()
    assert r.values_text() == "q_0 = 1, q_1 = 0, k_0 = 1, k_1 = 1, m = 1, n = 0, theta = pi/2"
    assert r.summary() == ("at q_0 = 1, q_1 = 0, k_0 = 1, k_1 = 1, m = 1, n = 0, theta = pi/2: true side = 1, "
                           "claim = 0, correct form = 1")


def test_common_reexports_the_notation():
    assert common.Rot is Rot and common.render is render and isinstance(proofs.prove_transpose(), Proof)


# ---------------------------------------------------------------------------------------------
# derivation: the intermediate equations of RoFormer §3.4.1 / Su (kexue.fm/archives/8265), typed here


def _step(key):
    return next(s for s in derivation.derivation_steps() if s.key == key)


def test_each_step_starts_from_the_equation_of_the_derivation():
    Tf, T, phi = derivation.Theta_f, derivation.Theta, derivation.varphi
    # k = q and n = m in the radial equation, with f(x, 0) = x at m = n = 0: R_f(q, m)^2 = |q|^2
    assert _step("radial_solution").given == sp.Eq(derivation.R_f(q, m) ** 2, sp.Abs(q) ** 2)
    # n = m in the angular equation, with Theta_f(x, 0) = Theta(x): Theta_f(q, m) - Theta_f(k, m) = Theta(q) - Theta(k)
    assert _step("angle_split").given == sp.Eq(Tf(q, m) - Tf(k, m), T(q) - T(k))
    # n = m - 1 after the split: Theta(q) + varphi(m) - Theta(k) - varphi(m - 1) = Theta_g(q, k, 1)
    rec = _step("angular_recurrence")
    assert rec.given == sp.Eq(T(q) + phi(m) - T(k) - phi(m - 1), derivation.Theta_g(q, k, 1))
    assert rec.lhs == phi(m) - phi(m - 1) and is_zero(rec.rhs - (derivation.Theta_g(q, k, 1) + T(k) - T(q)))
    assert _step("phase_solution").given == sp.Eq(phi(m) - phi(m - 1), theta)
    assert _step("phase_solution").lhs == phi(m)
    # Theta_f(q, 0) = Theta(q) + varphi(0) = Theta(q) + gamma must be Theta(q)
    init = _step("initial_phase")
    assert init.given == sp.Eq(derivation.gamma + T(q), T(q)) and init.lhs == derivation.gamma
    # the solution assembled: |q| e^{i(Theta(q) + m theta)} = q e^{i m theta}
    sol = _step("solution")
    assert is_zero(sol.lhs - sp.Abs(q) * sp.exp(sp.I * (T(q) + m * theta)))
    assert sol.rhs == q * sp.exp(sp.I * m * theta)


def test_rotation_form_and_relative_score_by_hand():
    c, s = sp.cos(m * theta), sp.sin(m * theta)
    rot = _step("rotation_form")
    assert rot.lhs == sp.ImmutableMatrix([q0 * c - q1 * s, q0 * s + q1 * c])  # Re, Im of (q0 + i q1) e^{i m theta}
    assert rot.rhs.args[0] == sp.ImmutableMatrix([[c, -s], [s, c]]) and rot.rhs.args[1] == sp.ImmutableMatrix([q0, q1])
    score = _step("relative_score")
    phi = (m - n) * theta
    assert is_zero(score.lhs - ((q0 * k0 + q1 * k1) * sp.cos(phi) + (q0 * k1 - q1 * k0) * sp.sin(phi)))
    assert score.rhs == sp.re(q * sp.conjugate(k) * sp.exp(sp.I * phi), evaluate=False)


def test_step_titles_and_text_are_plain_by_default():
    s = _step("radial_solution")
    assert s.title == "The modulus does not depend on the position: rho_f(q, m) = Abs(q)"
    assert s.heading() == s.title and "$" not in s.reason and s.explain() == s.reason
    assert s.heading(latex=True) == (r"The modulus does not depend on the position: "
                                     r"$\rho_{f}{\left(q,m \right)} = \left|{q}\right|$")
    assert s.text == "from Eq(rho_f(q, m)**2, Abs(q)**2):  rho_f(q, m) = Abs(q)"
    assert _step("solution").text == "exp(I*(m*theta + psi(q)))*Abs(q) = q*exp(I*m*theta)"
    assert "0x" not in repr(s)  # the check function is not part of the printed record (deterministic output)


def test_a_step_record_cannot_be_altered_in_place():
    s = _step("solution")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.verified = False


def test_cartesian_check_writes_exponentials_as_cos_plus_i_sin():
    check = _step("polar_product").check
    x = sp.Symbol("x", real=True)
    e = sp.exp
    # e^{ia} conj(e^{ib}) = (cos a + i sin a)(cos b - i sin b) = cos(a - b) + i sin(a - b)
    written = sp.Mul(e(sp.I * a), sp.conjugate(e(sp.I * b), evaluate=False), evaluate=False)
    assert check(written, sp.cos(a - b) + sp.I * sp.sin(a - b)) is True
    assert check(written, sp.cos(a + b) + sp.I * sp.sin(a + b)) is False
    assert check(sp.Abs(e(sp.I * a), evaluate=False), sp.Integer(1)) is True  # |e^{ia}| = 1, written unevaluated
    assert check((1 + x) * e(sp.I * b), (1 + x) * (sp.cos(b) + sp.I * sp.sin(b))) is True
    assert check((1 + x) * e(sp.I * b), (1 + x) * (sp.cos(b) - sp.I * sp.sin(b))) is False


# ---------------------------------------------------------------------------------------------
# proofs: what the symbols range over, the smallest cases, the sources


def test_proof_symbols_range_over_what_the_conditions_say():
    assert proofs.r_q.is_nonnegative is True and proofs.r_k.is_nonnegative is True  # r = |q|, |k| >= 0
    assert proofs.alpha_q.is_real is True and proofs.alpha_k.is_real is True
    assert proofs.theta_i[0].is_real is True  # the frequencies theta_i of RoFormer eq. (15) are real
    p = proofs.prove_elementwise(4)
    x = dict(p.definitions)[sp.MatrixSymbol("x", 4, 1)]
    assert [s.is_real for s in x] == [True] * 4  # conditions: "x_0..x_3, m, theta_i real"
    r = next(s for s in proofs.prove_abel_partial_sums(2).rhs.free_symbols if s.name == "r")
    assert r.is_real is True  # conditions: "r = m - n real"
    i = proofs.prove_abel_summation(2).shown_lhs.limits[0][0]
    assert i.is_integer is True  # a summation index


def test_abel_summation_for_one_pair_and_by_default_four():
    # d = 2: h_0 (S_1 - S_0) = -S_1 (h_1 - h_0) with h_1 = 0, S_0 = 0: both sides are h_0 S_1
    one = proofs.prove_abel_summation(1)
    h, S = proofs.h, proofs.S
    assert one.name == "abel_summation_d2" and one.holds is True
    assert is_zero(one.lhs - h[0] * S[1]) and is_zero(one.rhs - h[0] * S[1])
    partial = proofs.prove_abel_partial_sums(1)  # S_1 = e^{i r theta_0}: h_0 e^{i r theta_0} on both sides
    assert partial.name == "abel_partial_sums_d2" and partial.holds is True
    assert proofs.prove_abel_summation().name == "abel_summation_d8"  # the default is RoFormer's d/2 = 4 shown
    assert proofs.prove_abel_partial_sums().name == "abel_partial_sums_d8"


def test_elementwise_sources_name_the_layout():
    assert proofs.prove_elementwise(4).source == "RoFormer eq. (34)"
    assert proofs.prove_elementwise(4, "half").source == "RoFormer eq. (34), half layout"


def test_step_explanations_name_the_equations_they_use():
    ip = _step("inner_product")
    assert ip.rhs.func is sp.re and ip.rhs.args[0] == (q0 + sp.I * q1) * (k0 - sp.I * k1)  # Re[q conj(k)], unevaluated
    assert "as the complex number q_0 + I*q_1." in ip.reason
    assert "f(x, 0) = x gives rho_g(q, k, 0) = Abs(k)*Abs(q);" in _step("radial_solution").reason  # g(q,k,0) = |q||k|
    assert _step("phase_solution").reason.endswith("with the free constant varphi(0) = gamma.")
    assert "f(q, 0) = q means psi_f(q, 0) = psi(q)," in _step("initial_phase").reason
    assert _step("rotation_form").reason.endswith(
        "Matrix([[cos(m*theta), -sin(m*theta)], [sin(m*theta), cos(m*theta)]]).")  # R(m theta), RoFormer eq. (13)
    assert _step("polar_product").text.startswith(
        "(rho_f(q, m)*exp(I*psi_f(q, m)))*conjugate(rho_f(k, n)*exp(I*psi_f(k, n))) = ")  # as written


def test_relative_score_is_shown_in_the_relative_angle_only():
    phi = (m - n) * theta
    lhs = _step("relative_score").lhs  # shown after trigsimp: only cos((m - n) theta), sin((m - n) theta) remain
    assert lhs.atoms(sp.cos, sp.sin) == {sp.cos(phi), sp.sin(phi)}


def test_derivation_functions_are_real_valued_as_the_polar_form_needs():
    assert derivation.Theta(q).is_real is True and derivation.varphi(m).is_real is True
    assert derivation.gamma.is_real is True


def test_counterexample_values_are_exact_numbers_in_simplest_form():
    # (sin^2 a + cos^2 a) sin a at a = 1 is sin(1); the claim 2 sin a gives 2 sin(1)
    unit = check_identity("unit", (sp.sin(a) ** 2 + sp.cos(a) ** 2) * sp.sin(a), sp.sin(a), source="-")
    r = refutations.refute("double", 2 * sp.sin(a), source="-", correct=unit, values={a: 1}, gap=-sp.sin(a),
                           holds_when="-")
    assert (r.lhs_value, r.claim_value, r.correct_value) == (sp.sin(1), 2 * sp.sin(1), sp.sin(1))
    # cos(pi/7) - cos(2 pi/7) + cos(3 pi/7) = 1/2 (the heptagon identity): the value is the number 1/2
    hept = sp.cos(a) - sp.cos(2 * a) + sp.cos(3 * a)
    same = check_identity("heptagon", hept, hept, source="-")
    r = refutations.refute("zero", sp.Integer(0), source="-", correct=same, values={a: sp.pi / 7}, gap=hept,
                           holds_when="-")
    assert (r.lhs_value, r.claim_value) == (sp.Rational(1, 2), 0) and r.refuted is True


def test_refute_accepts_a_matching_claim_and_a_text_gap():
    ok = check_identity("double", sp.sin(2 * a), 2 * sp.sin(a) * sp.cos(a), source="-")
    r = refutations.refute("no_two", sp.sin(a) * sp.cos(a), source="-", correct=ok, values={a: sp.pi / 4},
                           gap=("sin 2a - sin a cos a", sp.sin(a) * sp.cos(a)), holds_when="-",
                           claim=sp.cos(a) * sp.sin(a))
    assert r.claim == sp.sin(a) * sp.cos(a) and r.gap.holds is True and "sin 2a" not in r.gap.text
    assert (r.lhs_value, r.claim_value) == (1, sp.Rational(1, 2)) and r.refuted is True


def test_missing_cross_term_and_weight_transpose_are_shown_as_the_notes_write_them():
    r = refutations.refute_missing_cross_term()
    assert r.claim_text == "(R_m*q).T*(R_n*k) = q.T*k*cos(theta*(m - n))"  # (q.k) cos((m - n) theta), note 001
    assert r.gap.text == "(R_m*q).T*(R_n*k) - q.T*k*cos(theta*(m - n)) = (q_0*k_1 - q_1*k_0)*sin(theta*(m - n))"
    w = refutations.refute_missing_weight_transpose()
    assert w.holds_when == "for all inputs only if W_q is symmetric (W_q[1, 0] = W_q[0, 1])"
    assert w.cases_hold is True


def test_a_refutation_without_stated_cases_has_nothing_to_confirm():
    r = refutations.refute_norms_times_cos()
    fields = [getattr(r, f.name) for f in dataclasses.fields(r)][:-2]  # all but cases, cases_hold
    bare = refutations.Refutation(*fields)
    assert bare.cases == () and bare.cases_hold is all(())  # True, as refute computes it for no cases


# typed from the paper: RoFormer eq. (12) (complex form), its expansion (cross term), eq. (34) with d = 6 in both
# layouts (c_m, s_m repeat each frequency per pair; rot(x) rotates each pair by 90 degrees), eq. (35)-(36) with d/2 = 4
STATEMENTS = {
    "relative_position_complex_2d": ("q.T*R_(n - m)*k = re(q*conjugate(k)*exp(I*theta*(m - n)))",
                                     "q = (q_0, q_1)^T, k = (k_0, k_1)^T, q = q_0 + I*q_1, k = k_0 + I*k_1"),
    "score_cross_term_2d": ("(R_m*q).T*(R_n*k) = q.T*k*cos(theta*(m - n)) + (q_0*k_1 - q_1*k_0)*sin(theta*(m - n))",
                            "q = (q_0, q_1)^T, k = (k_0, k_1)^T"),
    "elementwise_interleaved_d6": (
        "R^6_(Theta,m)*x = HadamardProduct(x, c_m) + HadamardProduct(rot(x), s_m)",
        "x = (x_0, x_1, x_2, x_3, x_4, x_5)^T, "
        "c_m = (cos(m*theta_0), cos(m*theta_0), cos(m*theta_1), cos(m*theta_1), cos(m*theta_2), cos(m*theta_2))^T, "
        "s_m = (sin(m*theta_0), sin(m*theta_0), sin(m*theta_1), sin(m*theta_1), sin(m*theta_2), sin(m*theta_2))^T, "
        "rot(x) = (-x_1, x_0, -x_3, x_2, -x_5, x_4)^T"),
    "elementwise_half_d6": (
        "R^6_half_(Theta,m)*x = HadamardProduct(x, c_m) + HadamardProduct(rot(x), s_m)",
        "x = (x_0, x_1, x_2, x_3, x_4, x_5)^T, "
        "c_m = (cos(m*theta_0), cos(m*theta_1), cos(m*theta_2), cos(m*theta_0), cos(m*theta_1), cos(m*theta_2))^T, "
        "s_m = (sin(m*theta_0), sin(m*theta_1), sin(m*theta_2), sin(m*theta_0), sin(m*theta_1), sin(m*theta_2))^T, "
        "rot(x) = (-x_3, -x_4, -x_5, x_0, x_1, x_2)^T"),
    "abel_summation_d8": ("Sum(h[i]*(S[1 + i] - S[i]), (i, 0, 3)) = -Sum(S[1 + i]*(h[1 + i] - h[i]), (i, 0, 3))",
                          "h[4] = 0, S[0] = 0"),
    "abel_partial_sums_d8": (
        "Sum(h[i]*(S[1 + i] - S[i]), (i, 0, 3)) = Sum(h[i]*exp(I*r*theta[i]), (i, 0, 3))",
        "S[0] = 0, S[1] = Sum(exp(I*r*theta[l]), (l, 0, 0)), S[2] = Sum(exp(I*r*theta[l]), (l, 0, 1)), "
        "S[3] = Sum(exp(I*r*theta[l]), (l, 0, 2)), S[4] = Sum(exp(I*r*theta[l]), (l, 0, 3))"),
}


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_proof_statements_are_the_paper_formulas(name):
    p = proofs.get_proof(name)
    assert (p.text, p.where_text) == STATEMENTS[name]
    assert p.holds is True


def test_a_step_equation_stays_an_equation_even_when_both_sides_are_equal():
    s = _step("radial_solution")
    same = dataclasses.replace(s, rhs=s.lhs)  # R_f(q, m) = R_f(q, m): shown as such, not as "True"
    assert isinstance(same.equation, sp.Eq) and same.equation.args == (s.lhs, s.lhs)
    assert same.latex.endswith(r"\rho_{f}{\left(q,m \right)} = \rho_{f}{\left(q,m \right)}")
