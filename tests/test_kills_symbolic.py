"""Tests that kill surviving mutmut mutants of ropemath.symbolic (``make mutants``).

Each expected value comes from outside the code under test: the package's files on disk, the
paper's formulas worked by hand, or sympy used directly.
"""

from pathlib import Path

import pytest
import sympy as sp

from ropemath import symbolic

PACKAGE = Path(symbolic.__file__).parent


def test_dir_lists_every_public_name_and_submodule_sorted():
    listed = dir(symbolic)
    submodules = {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    assert listed == sorted(listed) and len(listed) == len(set(listed))
    assert set(symbolic.__all__) <= set(listed)
    assert submodules <= set(listed)
    assert {"__getattr__", "__all__", "__name__"} <= set(listed)  # the module's own globals as well


def test_R_is_the_rotation_by_the_angle_itself():
    from ropemath.symbolic.common import a, render
    from ropemath.symbolic.proofs import R

    assert R(a).explicit() == sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])
    assert render(R(a)) == "R(a)"


def test_complex_rotation_turns_by_m_theta_counter_clockwise():
    from ropemath.symbolic.common import theta
    from ropemath.symbolic.general import complex_rotation

    # e^{i pi/2} = i and e^{2i pi/4} = i: a quarter turn, counter-clockwise (1 -> i, not -i)
    assert complex_rotation(sp.Integer(1), 1).subs(theta, sp.pi / 2) == sp.I
    assert complex_rotation(sp.Integer(1), 2).subs(theta, sp.pi / 4) == sp.I
    assert complex_rotation(sp.Integer(3), 4).subs(theta, sp.pi / 4) == -3  # m = 4, theta = pi/4: a half turn


def _cayley_orthogonal():
    """A rational 4x4 orthogonal matrix: the Cayley transform (I - K)(I + K)^-1 of a skew K."""
    K = sp.Matrix([[0, 1, 2, 0], [-1, 0, 1, 1], [-2, -1, 0, 3], [0, -1, -3, 0]])
    return (sp.eye(4) - K) * (sp.eye(4) + K).inv()


def test_normal_form_with_real_eigenvalues_and_a_repeated_one():
    from ropemath.symbolic.general import is_real_normal_form, real_normal_form

    Q = _cayley_orthogonal()
    c, s = sp.Rational(3, 5), sp.Rational(4, 5)  # cos and sin of the angle of the rotation block, 0 < angle < pi
    S = Q * sp.diag(sp.Matrix([[c, -s], [s, c]]), 1, -1) * Q.T
    P, D = real_normal_form(S)
    assert is_real_normal_form(S, P, D)
    assert D[:2, :2] == sp.Matrix([[c, -s], [s, c]])  # the block first, turning by +angle (sin > 0)
    assert sorted(D[2:, 2:].diagonal()) == [-1, 1]
    reflection = Q * sp.diag(1, 1, -1, -1) * Q.T  # eigenspaces of dimension two: bases to orthonormalise
    P, D = real_normal_form(reflection)
    assert P.T * P == sp.eye(4) and P.T * reflection * P == D
    assert sorted(D.diagonal()) == [-1, -1, 1, 1] and D == sp.diag(*D.diagonal())


def test_normal_form_refuses_a_repeated_complex_eigenvalue_naming_S():
    from ropemath.symbolic.general import real_normal_form

    block = sp.Matrix([[sp.Rational(3, 5), -sp.Rational(4, 5)], [sp.Rational(4, 5), sp.Rational(3, 5)]])
    with pytest.raises(ValueError, match="^S must have complex eigenvalues of multiplicity one$"):
        real_normal_form(sp.diag(block, block))  # 3/5 + 4i/5 twice


# The derivation's printed outline (`ropemath symbolic`, the claims' evidence): each step's title, how it was
# checked, and the opening words of its reason, typed here by hand: a change to what the reader sees changes this list.
OUTLINE = [
    ("inner_product", "The 2D dot product is the real part of a complex product",
     "identity: simplify(lhs - rhs) == 0", "Read a vector (q_0,"),
    ("polar_product", "Polar forms multiply moduli and subtract arguments",
     "conjugate evaluated + powsimp; checked in Cartesian form (cos + i sin)", "Write f in polar"),
    ("radial_equation", "Equal complex numbers have equal moduli: the radial equation",
     "Abs of both sides; checked without Abs: side > 0 and side^2 = z conj(z)", "Require the product to"),
    ("radial_solution", "The modulus does not depend on the position: rho_f(q, m) = Abs(q)",
     "substitutions n = m, m = n = 0 checked; solve (positive unknown), then substituted back", "Set n = m:"),
    ("angular_equation", "Equal unit complex numbers have equal arguments: the angular equation",
     "log of both sides; checked: sides real and e^{i side} rebuilds each side (mod 2 pi)", "Dividing both sides by"),
    ("angle_split", "The argument splits: psi_f(q, m) = psi(q) + varphi(m)",
     "substitutions checked; this candidate satisfies the equation (necessity: the separation argument)", "Set n = m"),
    ("angular_recurrence", "Neighbouring positions differ by a constant angle",
     "solve; checked: left side free of q and k (so the right is one number), right side free of m", "Set n = m"),
    ("phase_solution", "An arithmetic progression: varphi(m) = gamma + m*theta",
     "rsolve, then substituted back", "sympy's recurrence solver rsolve"),
    ("initial_phase", "The initial condition f(x, 0) = x gives gamma = 0", "solve", "f(q, 0) = q"),
    ("solution", "The solution: f(q, m) = q*exp(I*m*theta)", "identity with q = q0 + i q1, psi = arg",
     "Put the modulus rho_f(q,"),
    ("rotation_form", "Real and imaginary parts: a rotation matrix times (q0, q1)",
     "identity; matrix = Jacobian, compared with R(m theta)", "Substitute q = q_0"),
    ("relative_score", "The requirement is met: the score is re(q*conjugate(k)*exp(I*theta*(m - n)))",
     "identity + shift invariance: d/ds g(m + s, n + s) == 0", "The inner product of"),
]


def test_the_derivation_prints_its_outline_in_order_and_each_reason_is_a_sentence():
    from ropemath.symbolic.derivation import derivation_steps

    steps = derivation_steps()
    assert [(s.key, s.title, s.method, " ".join(s.reason.split()[:4])) for s in steps] == OUTLINE
    assert [s.number for s in steps] == list(range(1, len(OUTLINE) + 1))
    assert all(s.reason.endswith(".") for s in steps)
