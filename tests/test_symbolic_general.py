"""The general solution of the real requirement (ropemath.symbolic.general): which families pass which
requirement, decided by sympy, each with a family that must fail."""

import sympy as sp

from ropemath.symbolic.common import rotation, theta
from ropemath.symbolic.general import (
    alternating_reflection,
    complex_rotation,
    is_real_normal_form,
    one_parameter_group,
    real_normal_form,
    satisfies_complex_requirement,
    satisfies_real_requirement,
    two_map_family,
)


def reflection_as_complex_map(x, p):
    """F^m on the plane read as C: x at even m, conj(x) at odd m."""
    return ((1 + (-1) ** p) * x + (1 - (-1) ** p) * sp.conjugate(x)) / 2


def test_rotations_and_the_alternating_reflection_satisfy_the_real_requirement():
    assert satisfies_real_requirement(lambda p: rotation(p * theta))
    assert satisfies_real_requirement(alternating_reflection)
    assert alternating_reflection(1).det() == -1  # so it is no rotation R(theta) for any theta


def test_families_outside_the_requirement_fail_it():
    assert not satisfies_real_requirement(lambda p: rotation(p**2 * theta))  # angle not linear in m
    assert not satisfies_real_requirement(lambda p: 2**p * sp.eye(2))  # not an isometry
    assert not satisfies_real_requirement(lambda p: rotation(p * theta + 1))  # f(x, 0) != x


def test_the_complex_requirement_keeps_rotations_and_rejects_the_reflection():
    assert satisfies_complex_requirement(complex_rotation)
    assert not satisfies_complex_requirement(reflection_as_complex_map)
    f = reflection_as_complex_map  # the exact counterexample: q = i, k = 1, m = n = 1
    assert f(sp.I, 1) * sp.conjugate(f(1, 1)) == -sp.I and f(sp.I, 0) * sp.conjugate(1) == sp.I


def test_two_maps_satisfy_the_complex_requirement_one_map_with_the_same_growth_does_not():
    fq, fk = two_map_family(2)
    assert satisfies_complex_requirement(fq, fk)
    assert not satisfies_complex_requirement(fq)
    assert sp.Abs(fq(1, 3)).subs(theta, sp.Rational(1, 3)) == 8  # the norm changes with the position


def test_continuous_group_is_the_rotation_with_determinant_one():
    t = sp.Symbol("t", real=True)
    g = one_parameter_group(sp.Matrix([[0, -theta], [theta, 0]]), t)
    assert sp.simplify(g - rotation(t * theta)) == sp.zeros(2)
    assert sp.simplify(g.det()) == 1


def test_normal_form_of_a_4x4_orthogonal_matrix_and_of_a_non_orthogonal_one():
    K = sp.Matrix([[0, 1, 2, 0], [-1, 0, 1, 1], [-2, -1, 0, 3], [0, -1, -3, 0]])
    Q = (sp.eye(4) - K) * (sp.eye(4) + K).inv()  # Cayley transform: a rational orthogonal matrix
    blocks = sp.diag(rotation(sp.acos(sp.Rational(3, 5))), rotation(sp.acos(sp.Rational(5, 13))))
    S = Q * blocks * Q.T
    P, D = real_normal_form(S)
    assert is_real_normal_form(S, P, D)
    assert sorted([D[0, 0], D[2, 2]]) == [sp.Rational(5, 13), sp.Rational(3, 5)]
    T = sp.Matrix([[0, -2], [sp.Rational(1, 2), 0]])  # eigenvalues +-i, not orthogonal
    assert not is_real_normal_form(T, *real_normal_form(T))
    assert not is_real_normal_form(S, P, D + sp.diag(0, 0, 0, 1))  # a wrong D is rejected
