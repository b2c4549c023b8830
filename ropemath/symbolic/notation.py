r"""Notation for displayed formulas: :class:`Rot`, :class:`Scalar`, :func:`explicit`, :func:`render`, :func:`plain`.

What is compared is what is shown: :func:`explicit` multiplies a displayed statement out.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16); sympy ``matrices.expressions``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from sympy.core.symbol import Str
from sympy.matrices.expressions import MatrixExpr

from ropemath.core._validate import check_d, check_layout

__all__ = ["Definitions", "Notation", "Rot", "Scalar", "block_rotation", "explicit", "mul", "plain", "render"]


class Notation:
    """Mixin for display-only sympy objects: ``explicit()`` returns what the notation stands for."""

    def explicit(self) -> sp.Basic:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


class Rot(Notation, MatrixExpr):
    r"""The rotation matrix as notation: :math:`R(a)`, :math:`R_m` or :math:`R^d_{\Theta,m}`, by its arguments.

    .. math:: \mathrm{explicit}\big(R^d_{\Theta,m}\big) = \operatorname{diag}\big(R(m\theta_0), \dots\big)

    ``Rot(position, angles, layout)`` stands for ``block_rotation(position, angles, layout=layout)``;
    one angle equal to 1 prints :math:`R(a)`, any other single angle :math:`R_m` (:math:`= R(m\theta)`),
    more angles :math:`R^d_{\Theta,m}`.  The subscript is printed from ``position``, so what is shown
    is what is multiplied out.  Source: RoFormer eq. (13), (15).

    >>> from ropemath.symbolic.common import a, m, n, rotation, theta, thetas
    >>> render(Rot(n - m, (theta,))), render(Rot(a, (1,))), render(Rot(m, thetas(2)))
    ('R_{n - m}', 'R(a)', 'R^{4}_{\\Theta,m}')
    >>> Rot(a, (1,)).explicit() == rotation(a)
    True
    """

    def __new__(cls, position: sp.Expr, angles: Sequence[sp.Expr], layout: str | Str = "interleaved"):
        layout = layout if isinstance(layout, Str) else Str(check_layout(layout))
        return super().__new__(cls, sp.sympify(position), sp.Tuple(*angles), layout)

    @property
    def shape(self) -> tuple[sp.Integer, sp.Integer]:
        d = sp.Integer(2 * len(self.args[1]))
        return d, d

    def _entry(self, i, j, **kwargs):
        return self.explicit()[i, j]

    def explicit(self) -> sp.ImmutableMatrix:
        """The explicit matrix, entry by entry (:func:`block_rotation`)."""
        return block_rotation(self.args[0], tuple(self.args[1]), layout=self.args[2].name)

    def _latex(self, printer) -> str:
        position, angles, layout = printer._print(self.args[0]), self.args[1], self.args[2].name
        if len(angles) == 1:
            return f"R({position})" if angles[0] == 1 else f"R_{{{position}}}"
        top = f"{self.shape[0]}" + ("" if layout == "interleaved" else r",\mathrm{half}")  # pragma: no mutate (square)
        return rf"R^{{{top}}}_{{\Theta,{position}}}"

    def _sympystr(self, printer) -> str:
        position, angles, layout = printer._print(self.args[0]), self.args[1], self.args[2].name
        if len(angles) == 1:
            sub = position if self.args[0].is_Symbol else f"({position})"
            return f"R({position})" if angles[0] == 1 else f"R_{sub}"
        return f"R^{self.shape[0]}" + ("" if layout == "interleaved" else "_half") + f"_(Theta,{position})"


class Scalar(Notation, sp.Expr):
    r"""A 1×1 matrix expression used as a number, printed as the product (e.g. :math:`q^\top R_{n-m} k`).

    .. math:: \mathrm{explicit}\big(u^\top v\big) = (u^\top v)_{00}

    >>> from ropemath.symbolic.common import m, n, theta
    >>> qv = sp.MatrixSymbol("q", 2, 1)
    >>> render(Scalar(sp.MatMul(sp.Transpose(qv), Rot(n - m, (theta,)), qv)))
    'q^{T} R_{n - m} q'
    """

    def __new__(cls, product: sp.MatrixExpr):
        if tuple(product.shape) != (1, 1):
            raise ValueError(f"product must be a 1x1 matrix expression, got shape {tuple(product.shape)}")
        return super().__new__(cls, product)

    def explicit(self) -> sp.Expr:
        """The single entry of the multiplied-out product."""
        return sp.ImmutableMatrix(self.args[0].as_explicit())[0, 0]

    def _latex(self, printer) -> str:
        return printer._print(self.args[0])

    def _sympystr(self, printer) -> str:
        return printer._print(self.args[0])


def mul(*factors: sp.Basic) -> sp.MatMul:
    r"""Return the unevaluated matrix product of ``factors`` (the ``*`` operator would multiply transposes out).

    .. math:: \mathrm{mul}(A^\top, B) = A^\top B \ \text{(as written)}

    >>> A, B = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("B", 2, 1)
    >>> render(mul(sp.Transpose(mul(A, B)), B)), render(sp.Transpose(A * B) * B)
    ('\\left(A B\\right)^{T} B', 'B^{T} A^{T} B')
    """
    return sp.MatMul(*factors)


def render(expr: sp.Basic) -> str:
    r"""Return the LaTeX of ``expr``: the one printer every displayed formula of this package goes through.

    .. math:: \mathrm{render}(e) = \texttt{sympy.latex}(e, \mathrm{order} = \text{"none"})

    >>> a, b = sp.symbols("a b")
    >>> render(sp.sin(-a)), render(sp.ImmutableMatrix([a, b]))
    ('- \\sin{\\left(a \\right)}', '\\left(a, b\\right)^{T}')
    """
    if isinstance(expr, sp.MatrixBase) and expr.shape[1] == 1 and expr.shape[0] > 1:
        return r"\left(" + ", ".join(render(e) for e in expr) + r"\right)^{T}"
    return sp.latex(expr, order="none")


def plain(expr: sp.Basic) -> str:
    """Return a one-line plain-text form of ``expr`` (sympy ``sstr``; column vectors as ``(x0, x1)^T``).

    >>> a, b = sp.symbols("a b")
    >>> plain(sp.Eq(a, b)), plain(sp.ImmutableMatrix([a, b]))
    ('a = b', '(a, b)^T')
    """
    if isinstance(expr, sp.Eq):
        return f"{plain(expr.lhs)} = {plain(expr.rhs)}"
    if isinstance(expr, sp.MatrixBase):
        if expr.shape[1] == 1 and expr.shape[0] > 1:
            return "(" + ", ".join(plain(e) for e in expr) + ")^T"
        return f"Matrix({sp.sstr(expr.tolist())})"
    if isinstance(expr, sp.MatMul) and any(isinstance(f, sp.MatrixBase) for f in expr.args):
        return "*".join(plain(f) for f in expr.args)
    return sp.sstr(expr, order="none")


Definitions = tuple[tuple[sp.Basic, sp.Basic], ...]


def explicit(expr: sp.Basic, definitions: Definitions = ()) -> sp.Basic:
    r"""Return what the notation ``expr`` stands for: definitions substituted, notation multiplied out.

    .. math:: \mathrm{explicit}(R(a)^\top) = \begin{pmatrix} \cos a & \sin a \\ -\sin a & \cos a \end{pmatrix}

    Substitutes ``definitions`` (symbol → value pairs), replaces every :class:`Notation` by its
    ``explicit()`` value and calls ``doit``, until nothing changes; a matrix result is an
    ``ImmutableMatrix``, a 1×1 one its entry.

    >>> a = sp.Symbol("a", real=True)
    >>> explicit(sp.Transpose(Rot(a, (1,))))
    Matrix([
    [ cos(a), sin(a)],
    [-sin(a), cos(a)]])
    """
    mapping, expr = dict(definitions), sp.sympify(expr)
    for _ in range(8):
        new = expr.subs(mapping) if mapping else expr
        new = new.replace(lambda e: isinstance(e, Notation), lambda e: e.explicit()).doit()
        if new == expr:
            break
        expr = new
    if isinstance(expr, MatrixExpr):
        expr = expr.as_explicit()
    if isinstance(expr, sp.MatrixBase):
        expr = sp.ImmutableMatrix(expr)
        return expr[0, 0] if expr.shape == (1, 1) else expr
    return expr


def block_rotation(position: sp.Expr, angles: Sequence[sp.Expr], *, layout: str = "interleaved") -> sp.ImmutableMatrix:
    r"""Return :math:`R^d_{\Theta,m}` (d = 2·len(angles)) built entry by entry in a Python loop.

    .. math::
        R^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0), \dots, R(m\theta_{d/2-1})\big)

    Pair ``i`` occupies rows/columns ``(2i, 2i+1)`` (``layout="interleaved"``, RoFormer
    eq. 15) or ``(i, i + d/2)`` (``layout="half"``, GPT-NeoX / Hugging Face).

    >>> from ropemath.symbolic.common import m, thetas
    >>> block_rotation(m, thetas(2), layout="half")
    Matrix([
    [cos(m*theta_0),              0, -sin(m*theta_0),               0],
    [             0, cos(m*theta_1),               0, -sin(m*theta_1)],
    [sin(m*theta_0),              0,  cos(m*theta_0),               0],
    [             0, sin(m*theta_1),               0,  cos(m*theta_1)]])
    """
    layout = check_layout(layout)
    half = len(angles)
    d = check_d(2 * half, name="2*len(angles)")
    R = sp.zeros(d, d)
    for i, t in enumerate(angles):
        u, v = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + half)
        c, s = sp.cos(position * t), sp.sin(position * t)
        R[u, u], R[u, v], R[v, u], R[v, v] = c, -s, s, c
    return sp.ImmutableMatrix(R)
