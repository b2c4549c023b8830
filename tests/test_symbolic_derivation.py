"""Tests of ropemath.symbolic.derivation: every step verifies, the checker catches corrupted steps,
and the derived solution agrees with independent constructions (Python complex numbers, numpy's
rotation_2d)."""

import cmath
import dataclasses

import numpy as np
import pytest
import sympy as sp

from ropemath.core.apply import apply_rope
from ropemath.core.rotation import rotation_2d
from ropemath.symbolic.common import k, m, n, q, q0, q1, rotation, theta
from ropemath.symbolic.derivation import (
    R_f,
    R_g,
    Theta,
    Theta_f,
    Theta_g,
    derivation_steps,
    gamma,
    rope_2d_solution,
    varphi,
    verify_step,
)

KEYS = [
    "inner_product",
    "polar_product",
    "radial_equation",
    "radial_solution",
    "angular_equation",
    "angle_split",
    "angular_recurrence",
    "phase_solution",
    "initial_phase",
    "solution",
    "rotation_form",
    "relative_score",
]


def step(key):
    return next(s for s in derivation_steps() if s.key == key)


def test_steps_are_in_order_and_numbered():
    steps = derivation_steps()
    assert [s.key for s in steps] == KEYS
    assert [s.number for s in steps] == list(range(1, len(KEYS) + 1))


@pytest.mark.parametrize("key", KEYS)
def test_each_step_verifies(key):
    s = step(key)
    assert s.verified is True  # computed when the step was built (see test_flag_is_not_trusted_by_verify_step)
    assert s.latex and s.text and s.reason and s.method


def test_solution_is_q_exp_i_m_theta():
    # typed here independently of the derivation
    assert rope_2d_solution() == q * sp.exp(sp.I * m * theta)


def test_solution_matches_python_complex_numbers():
    # independent construction: Python's complex arithmetic
    z, pos, angle = complex(0.3, -0.7), 5.0, 0.1
    value = complex(rope_2d_solution().subs({q: sp.Float(z.real) + sp.I * sp.Float(z.imag), m: pos, theta: angle}))
    assert abs(value - z * cmath.exp(1j * pos * angle)) < 1e-14


def test_solution_matches_apply_rope_in_two_dimensions():
    # with d = 2 apply_rope has the single frequency theta_0 = base**0 = 1 (notebook 02, section 5)
    f = sp.lambdify((q, m, theta), rope_2d_solution(), "numpy")
    x = np.array([0.6, -1.3])
    for pos in range(0, 200, 7):
        z = f(complex(x[0], x[1]), pos, 1.0)
        assert np.max(np.abs(np.array([z.real, z.imag]) - apply_rope(x, pos, layout="interleaved", base=1e4))) < 1e-13


def test_intermediate_results():
    assert step("radial_solution").rhs == sp.Abs(q)
    assert step("angle_split").rhs == Theta(q) + varphi(m)
    assert not step("angular_recurrence").rhs.has(m)
    assert step("phase_solution").rhs == gamma + m * theta
    assert step("initial_phase").rhs == 0


def test_radial_and_angular_equations_are_the_ones_of_the_paper():
    # RoFormer §3.4.1 / Su: R_f(q,m) R_f(k,n) = R_g(q,k,m-n) and Θ_f(q,m) − Θ_f(k,n) = Θ_g(q,k,m-n), typed here
    radial, angular = step("radial_equation"), step("angular_equation")
    assert sp.expand(radial.lhs - R_f(q, m) * R_f(k, n)) == 0 and radial.rhs == R_g(q, k, m - n)
    assert sp.expand(angular.lhs - (Theta_f(q, m) - Theta_f(k, n))) == 0 and angular.rhs == Theta_g(q, k, m - n)
    # both start from the complex requirement f(q,m) conj f(k,n) = R_g e^{iΘ_g} (step 3) and its unit part (step 5)
    assert radial.given.rhs == R_g(q, k, m - n) * sp.exp(sp.I * Theta_g(q, k, m - n))
    assert angular.given.rhs == sp.exp(sp.I * Theta_g(q, k, m - n))


WRONG_SIDES = [
    ("polar_product", "rhs", R_f(q, m) * R_f(k, n) * sp.exp(sp.I * (Theta_f(q, m) + Theta_f(k, n)))),  # conj lost
    ("radial_equation", "lhs", R_f(q, m) * R_f(k, n) ** 2),  # wrong modulus
    ("radial_equation", "lhs", -R_f(q, m) * R_f(k, n)),  # right square, but negative: not a modulus
    ("angular_equation", "lhs", Theta_f(q, m) + Theta_f(k, n)),  # arguments added instead of subtracted
]


@pytest.mark.parametrize("key, field, value", WRONG_SIDES)
def test_modulus_and_argument_checks_reject_wrong_sides(key, field, value):
    assert verify_step(dataclasses.replace(step(key), **{field: value})) is False


def test_rotation_form_matrix_matches_numpy_rotation_2d():
    # the matrix of step 11, evaluated, against ropemath.core.rotation.rotation_2d (numpy)
    matrix = step("rotation_form").rhs.args[0]
    for angle in (0.0, 0.4, 2.5, -1.3):
        value = np.array(matrix.subs({m: 1, theta: angle}).evalf(), dtype=float)
        assert np.max(np.abs(value - rotation_2d(angle))) < 1e-15


def test_relative_score_matches_numpy_on_random_values():
    rng = np.random.default_rng(3)
    lhs = step("relative_score").lhs
    for _ in range(3):
        qv, kv = rng.normal(size=2), rng.normal(size=2)
        mv, nv, t = rng.integers(-20, 20, size=2).tolist() + [float(rng.uniform(0, 1))]
        expected = (rotation_2d(mv * t) @ qv) @ (rotation_2d(nv * t) @ kv)
        subs = {q0: qv[0], q1: qv[1], sp.Symbol("k_0", real=True): kv[0], sp.Symbol("k_1", real=True): kv[1],
                m: mv, n: nv, theta: t}
        assert abs(float(lhs.subs(subs)) - expected) < 1e-12


# ---- the checker can fail: corrupted steps are flagged --------------------------------------

CORRUPTIONS = {
    "inner_product": lambda s: s.rhs + q0 * q1,
    "polar_product": lambda s: s.rhs.subs(R_f(q, m), 1),
    "radial_equation": lambda s: s.rhs * 2,
    "radial_solution": lambda s: sp.Abs(q) ** 2,
    "angular_equation": lambda s: -s.rhs,
    "angle_split": lambda s: 2 * Theta(q) + varphi(m),
    "angular_recurrence": lambda s: s.rhs + m,
    "phase_solution": lambda s: gamma - m * theta,
    "initial_phase": lambda s: sp.Integer(1),
    "solution": lambda s: q * sp.exp(-sp.I * m * theta),
    "rotation_form": lambda s: sp.MatMul(rotation(m * theta).T, s.rhs.args[1], evaluate=False),
    "relative_score": lambda s: sp.re(q * sp.conjugate(k) * sp.exp(sp.I * (n - m) * theta), evaluate=False),
}


@pytest.mark.parametrize("key", KEYS)
def test_corrupted_step_is_flagged(key):
    s = step(key)
    bad = dataclasses.replace(s, rhs=CORRUPTIONS[key](s))
    assert bad.rhs != s.rhs
    assert verify_step(bad) is False


def test_flag_is_not_trusted_by_verify_step():
    s = step("solution")
    assert verify_step(s) is True  # re-running the check reproduces the stored flag
    lie = dataclasses.replace(s, rhs=q * sp.exp(-sp.I * m * theta), verified=True)
    assert verify_step(lie) is False


def test_wrong_lhs_is_flagged_too():
    s = step("radial_solution")
    assert verify_step(dataclasses.replace(s, lhs=R_f(k, m))) is False


def test_a_rebuilt_derivation_equals_the_cached_one():
    """A derivation is a value: building it again gives equal steps (equations, reasons, verdicts). Each
    build has its own check closures (some steps), which therefore take no part in equality (compare=False)."""
    from ropemath.symbolic import derivation

    again = derivation._build()
    cached = derivation.derivation_steps()
    assert again == cached
    assert any(a.check is not b.check for a, b in zip(again, cached, strict=True))  # closures of each build


def test_recurrence_step_fails_if_its_left_side_depends_on_q_or_its_right_side_on_m():
    """Step 7 establishes that the increment is one number for all q, k: a left side containing q, or a right
    side containing m, is rejected (a corruption of the left side, not only of the right)."""
    s = step("angular_recurrence")
    assert verify_step(s) is True
    assert verify_step(dataclasses.replace(s, lhs=s.lhs + q)) is False
    assert verify_step(dataclasses.replace(s, rhs=s.rhs + m)) is False


def test_substitutions_n_equals_m_and_zero_give_the_forms_written_out_here():
    """The n = m and m = n = 0 substitutions, compared with forms typed independently here."""
    from ropemath.symbolic.derivation import R_f, Theta, Theta_f

    split = step("angle_split").given
    assert sp.simplify(split.lhs - (Theta_f(q, m) - Theta_f(k, m))) == 0
    assert sp.simplify(split.rhs - (Theta(q) - Theta(k))) == 0
    radial = step("radial_solution").given
    assert sp.simplify(radial.lhs - R_f(q, m) ** 2) == 0 and sp.simplify(radial.rhs - sp.Abs(q) ** 2) == 0


def test_methods_say_what_the_flags_establish():
    assert "candidate satisfies" in step("angle_split").method
    assert "free of q and k" in step("angular_recurrence").method
    assert step("phase_solution").given.lhs == step("angular_recurrence").lhs  # the recurrence is the step's own
