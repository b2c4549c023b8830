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
