r"""Every solution of RoPE's requirement: criteria decided by sympy, counterexamples, the real normal form.

With integer positions and one map f, :math:`\langle f(q, m), f(k, n)\rangle = g(q, k, m - n)`,
:math:`f(x, 0) = x` forces :math:`f(\cdot, m) = S^m` with :math:`S` orthogonal (argument: notebook 02).
Everything is exact; a criterion sympy cannot decide counts as not satisfied.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.1; Horn and Johnson, *Matrix Analysis*,
2nd ed. (2013), Cor. 2.5.11.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from ropemath.symbolic.common import is_zero, rotation, theta  # noqa: F401 (rotation: the doctests)

__all__ = [
    "alternating_reflection",
    "complex_rotation",
    "is_real_normal_form",
    "m_int",
    "n_int",
    "one_parameter_group",
    "real_normal_form",
    "satisfies_complex_requirement",
    "satisfies_real_requirement",
    "two_map_family",
]

m_int, n_int = sp.symbols("m n", integer=True)
_x, _y = sp.symbols("x y")  # complex vectors of the plane
_a = sp.Symbol("a", positive=True)
_t = sp.Symbol("t", real=True)


def alternating_reflection(m: sp.Expr) -> sp.Matrix:
    r"""Return :math:`F^m` for the reflection :math:`F = \mathrm{diag}(1, -1)`: the identity at even m, F at odd m.

    .. math:: F^m = \begin{pmatrix} 1 & 0 \\ 0 & (-1)^m \end{pmatrix}

    Source: the real requirement's solutions :math:`A_m = S^m` with :math:`S \in O(2)`, :math:`\det S = -1`.

    >>> alternating_reflection(3)
    Matrix([
    [1,  0],
    [0, -1]])
    """
    return sp.Matrix([[1, 0], [0, (-1) ** m]])


def satisfies_real_requirement(family: Callable[[sp.Expr], sp.Matrix]) -> bool:
    r"""Return True if :math:`A_0 = I` and :math:`A_m^\top A_n = A_{n-m}` for all integers m, n (decided by sympy).

    .. math:: A_0 = I, \qquad A_m^\top A_n = A_{n-m}

    With :math:`A_0 = I` this is the real requirement for a linear :math:`f(x, m) = A_m x`: setting
    :math:`m = 0` in :math:`A_m^\top A_n = B(n - m)` gives :math:`B = A`.  Source: RoFormer eq. (11).

    >>> satisfies_real_requirement(lambda p: rotation(p * theta))
    True
    >>> satisfies_real_requirement(alternating_reflection)
    True
    >>> satisfies_real_requirement(lambda p: rotation(p**2 * theta))
    False
    """
    start = family(sp.Integer(0))
    if not is_zero(start - sp.eye(start.shape[0])):
        return False
    diff = family(m_int).T * family(n_int) - family(n_int - m_int)
    return all(sp.simplify(sp.powsimp(sp.expand(entry), force=True)) == 0 for entry in diff)


def complex_rotation(x: sp.Expr, m: sp.Expr) -> sp.Expr:
    r"""Return RoPE's 2D map :math:`x\,e^{\mathrm{i}m\theta}` (the vector read as a complex number).

    .. math:: f(x, m) = x\,e^{\mathrm{i}m\theta}

    Source: RoFormer eq. (12)-(13).

    >>> complex_rotation(sp.Symbol("x"), 0)
    x
    """
    return x * sp.exp(sp.I * m * theta)


Map = Callable[[sp.Expr, sp.Expr], sp.Expr]


def two_map_family(a: sp.Expr = _a) -> tuple[Map, Map]:
    r"""Return :math:`f_q(q, m) = a^m q e^{\mathrm{i}m\theta}` and :math:`f_k(k, n) = a^{-n} k e^{\mathrm{i}n\theta}`.

    .. math:: f_q(q, m)\,\overline{f_k(k, n)} = a^{m-n}\,q\,\overline{k}\,e^{\mathrm{i}(m-n)\theta}

    Two different maps that satisfy the complex requirement and :math:`f(x, 0) = x` for every
    :math:`a > 0`; the norms change with the position unless :math:`a = 1`, so "one f for both" is an
    assumption, not notation.  Source: RoFormer §3.4.1 (which writes :math:`f_q`, :math:`f_k`).

    >>> fq, fk = two_map_family(2)
    >>> fq(1, 1).subs(theta, 0), fk(1, 1).subs(theta, 0)
    (2, 1/2)
    """
    a = sp.sympify(a)
    return (lambda x, p: a**p * x * sp.exp(sp.I * p * theta)), (lambda x, p: a ** (-p) * x * sp.exp(sp.I * p * theta))


def satisfies_complex_requirement(fq: Map, fk: Map | None = None) -> bool:
    r"""Return True if :math:`f_q(x, 0) = f_k(x, 0) = x` and the complex product depends on m - n only.

    .. math:: f_q(q, m)\,\overline{f_k(k, n)} = f_q(q, m - n)\,\overline{k}
              \quad \text{for all } q, k \in \mathbb{C},\ m, n \in \mathbb{Z}

    (Setting :math:`n = 0` shows the right side is :math:`g(q, k, m - n)`.)  ``fk`` defaults to ``fq``
    (one map).  Source: RoFormer §3.4.1 eq. (20)-(22); Su, kexue.fm/archives/8265.

    >>> satisfies_complex_requirement(complex_rotation)
    True
    >>> satisfies_complex_requirement(*two_map_family())
    True
    >>> satisfies_complex_requirement(two_map_family()[0])  # the same a^m for queries and keys
    False
    """
    fk = fq if fk is None else fk
    if not (is_zero(fq(_x, sp.Integer(0)) - _x) and is_zero(fk(_y, sp.Integer(0)) - _y)):
        return False
    diff = fq(_x, m_int) * sp.conjugate(fk(_y, n_int)) - fq(_x, m_int - n_int) * sp.conjugate(_y)
    return sp.simplify(sp.powsimp(sp.expand(diff), force=True)) == 0


def one_parameter_group(omega: sp.Matrix, position: sp.Expr = _t) -> sp.Matrix:
    r"""Return :math:`e^{t\Omega}` (sympy's matrix exponential, simplified), a continuous group in real t.

    .. math:: e^{t\Omega} = \sum_{j \ge 0} \frac{(t\Omega)^j}{j!}, \qquad
              \Omega = \begin{pmatrix} 0 & -\theta \\ \theta & 0 \end{pmatrix} \Rightarrow e^{t\Omega} = R(t\theta)

    A continuous :math:`A(t)` with :math:`A(s + t) = A(s)A(t)`, :math:`A(0) = I` is :math:`e^{t\Omega}`
    (Hall, *Lie Groups, Lie Algebras, and Representations*, 2nd ed. (2015), Thm. 2.14); it is
    orthogonal for all t only if :math:`\Omega` is skew, and then
    :math:`\det e^{t\Omega} = e^{t\,\mathrm{tr}\,\Omega} = 1`.

    >>> one_parameter_group(sp.Matrix([[0, -theta], [theta, 0]])) == rotation(_t * theta)
    True
    """
    return (position * sp.Matrix(omega)).exp().applyfunc(lambda e: sp.simplify(e.rewrite(sp.cos)))


def real_normal_form(S: sp.Matrix) -> tuple[sp.Matrix, sp.Matrix]:
    r"""Return exact :math:`(P, D)` with :math:`S = P D P^\top`, from sympy's eigenvectors of S.

    .. math:: D = \mathrm{diag}\big(R(\theta_1), \dots, R(\theta_k), \pm1, \dots, \pm1\big), \qquad
              P = \big(\sqrt2\,\mathrm{Re}\,v_1, -\sqrt2\,\mathrm{Im}\,v_1, \dots\big)

    :math:`v` a unit eigenvector of :math:`e^{\mathrm{i}\theta}`, :math:`0 < \theta < \pi` (multiplicity one);
    real eigenvalues give their orthonormalised eigenvectors.  :func:`is_real_normal_form` decides whether
    the result is one.  Source: Horn and Johnson (2013), Cor. 2.5.11.

    >>> P, D = real_normal_form(sp.Matrix([[0, -1], [1, 0]]))
    >>> D
    Matrix([
    [0, -1],
    [1,  0]])
    """
    S = sp.Matrix(S)
    columns, blocks, reals = [], [], []
    for value, mult, vectors in sorted(S.eigenvects(), key=lambda e: sp.default_sort_key(e[0])):
        re, im = sp.re(value), sp.im(value)
        if im == 0:
            for vec in sp.GramSchmidt([sp.Matrix(v) for v in vectors], orthonormal=True):
                reals.append((vec, value))
            continue
        if not im.is_positive:
            continue  # the conjugate's plane is the same plane
        if mult != 1:
            raise ValueError("S must have complex eigenvalues of multiplicity one")
        v = sp.Matrix(vectors[0])
        v = v / sp.sqrt(sp.simplify((v.H * v)[0]))
        columns += [sp.simplify(sp.sqrt(2) * v.applyfunc(sp.re)), sp.simplify(-sp.sqrt(2) * v.applyfunc(sp.im))]
        blocks.append(sp.Matrix([[re, -im], [im, re]]))
    columns += [vec for vec, _ in reals]
    blocks += [sp.Matrix([[value]]) for _, value in reals]
    return sp.Matrix.hstack(*columns), sp.diag(*blocks)


def is_real_normal_form(S: sp.Matrix, P: sp.Matrix, D: sp.Matrix) -> bool:
    r"""Return True if P is orthogonal, :math:`P^\top S P = D`, and D is block-diagonal with rotations and ±1.

    .. math:: P^\top P = I, \qquad P^\top S P = D = \mathrm{diag}(R(\theta_i), \pm 1)

    Decided exactly by sympy.  Source: Horn and Johnson (2013), Cor. 2.5.11.

    >>> S = sp.Matrix([[0, -1], [1, 0]])
    >>> is_real_normal_form(S, *real_normal_form(S))
    True
    >>> T = sp.Matrix([[0, -2], [sp.Rational(1, 2), 0]])  # eigenvalues +-i, but not orthogonal
    >>> is_real_normal_form(T, *real_normal_form(T))
    False
    """
    S, P, D = sp.Matrix(S), sp.Matrix(P), sp.Matrix(D)
    size = S.shape[0]
    if P.shape != (size, size) or D.shape != (size, size):
        return False
    if not (is_zero(P.T * P - sp.eye(size)) and is_zero(P.T * S * P - D)):
        return False
    j = 0
    while j < size:  # walk the diagonal blocks: a rotation block, or a +-1
        if j + 1 < size and D[j + 1, j] != 0:
            c, s = D[j, j], D[j + 1, j]
            block_ok = is_zero(D[j : j + 2, j : j + 2] - sp.Matrix([[c, -s], [s, c]])) and is_zero(c**2 + s**2 - 1)
            outside = [D[r, col] for r in range(size) for col in (j, j + 1) if r not in (j, j + 1)]
            if not block_ok or any(e != 0 for e in outside):
                return False
            j += 2
        else:
            if D[j, j] not in (1, -1) or any(D[r, j] != 0 for r in range(size) if r != j):
                return False
            j += 1
    return True
