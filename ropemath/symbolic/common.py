r"""Shared sympy symbols, the symbolic rotation matrices, the zero test and the proof record.

Scope: everything the derivation (:mod:`.derivation`), the proofs (:mod:`.proofs`) and the
refutations (:mod:`.refutations`) have in common, so that all three speak about the same
symbols and decide "this identity holds" in the same way.

Symbols (fixed names, so printed output is deterministic):

* ``q``, ``k`` — complex symbols: a 2D query/key vector :math:`(q_0, q_1)` read as the
  complex number :math:`q = q_0 + i q_1` (RoFormer §3.2.1).
* ``q0, q1, k0, k1`` — real components :math:`q_0, q_1, k_0, k_1`.
* ``m, n`` — real positions (query at ``m``, key at ``n``; relative distance :math:`m - n`).
* ``theta`` — real angle per unit position :math:`\theta`; ``a, b`` — real angles.

The zero test :func:`is_zero` only ever transforms an expression into an equal one
(``expand``, ``expand_trig``, ``expand_complex``, ``simplify``), so ``True`` is a proof that
the expression vanishes identically.  ``False`` only means sympy did not reduce it to 0; it is
not by itself a disproof — the disproofs of this package are concrete counterexamples
(:mod:`.refutations`).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2 eq. (13)-(16);
Su Jianlin, kexue.fm/archives/8265.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from ropemath.core._validate import check_d, check_layout

__all__ = [
    "Proof",
    "a",
    "b",
    "block_rotation",
    "check_identity",
    "is_zero",
    "k",
    "k0",
    "k1",
    "m",
    "n",
    "q",
    "q0",
    "q1",
    "rotation",
    "theta",
    "thetas",
]

q, k = sp.symbols("q k")
q0, q1, k0, k1 = sp.symbols("q_0 q_1 k_0 k_1", real=True)
m, n = sp.symbols("m n", real=True)
theta = sp.Symbol("theta", real=True)
a, b = sp.symbols("a b", real=True)


def thetas(count: int) -> tuple[sp.Symbol, ...]:
    r"""Return ``count`` distinct real symbols :math:`\theta_0, \dots, \theta_{count-1}` (0-based).

    .. math:: \Theta = (\theta_0, \dots, \theta_{d/2-1})

    Source: RoFormer eq. (15), whose index counts from 1 (our :math:`\theta_i` is the paper's
    :math:`\theta_{i+1}`).  They are kept symbolic: no identity here needs their values.

    >>> thetas(3)
    (theta_0, theta_1, theta_2)
    """
    return tuple(sp.Symbol(f"theta_{i}", real=True) for i in range(count))


def rotation(angle: sp.Expr) -> sp.ImmutableMatrix:
    r"""Return the counter-clockwise 2×2 rotation :math:`R(a)` as a sympy matrix.

    .. math:: R(a) = \begin{pmatrix} \cos a & -\sin a \\ \sin a & \cos a \end{pmatrix}

    Source: RoFormer eq. (13).

    >>> rotation(a)
    Matrix([
    [cos(a), -sin(a)],
    [sin(a),  cos(a)]])
    """
    c, s = sp.cos(angle), sp.sin(angle)
    return sp.ImmutableMatrix([[c, -s], [s, c]])


def block_rotation(
    position: sp.Expr, angles: Sequence[sp.Expr], *, layout: str = "interleaved"
) -> sp.ImmutableMatrix:
    r"""Return :math:`R^d_{\Theta,m}` (d = 2·len(angles)) built entry by entry in a Python loop.

    .. math::
        R^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0), \dots, R(m\theta_{d/2-1})\big)

    Pair ``i`` occupies rows/columns ``(2i, 2i+1)`` (``layout="interleaved"``, RoFormer
    eq. 15) or ``(i, i + d/2)`` (``layout="half"``, GPT-NeoX / Hugging Face).

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


def _candidates(expr: sp.Expr):
    """Yield equal rewrites of ``expr``, cheapest first (each is a sound transformation)."""
    expr = sp.expand(expr)
    yield expr
    expr = sp.expand(sp.expand_trig(expr))
    yield expr
    yield sp.expand(sp.expand_trig(sp.expand_complex(expr)))
    yield sp.simplify(expr)


def is_zero(expr: sp.Basic | sp.MatrixBase) -> bool:
    r"""Return True if sympy reduces ``expr`` (or every entry of a matrix) to exactly 0.

    .. math:: \mathrm{holds}(L = R) \iff \operatorname{simplify}(L - R) = 0

    Tries ``expand``, then ``expand_trig``, ``expand_complex`` and finally ``simplify``
    (unevaluated ``re``/``Abs`` are evaluated with ``doit`` first).

    >>> is_zero(sp.cos(a + b) - (sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b)))
    True
    >>> is_zero(sp.cos(a + b) - (sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b)))
    False
    """
    if isinstance(expr, sp.MatrixBase):
        return all(is_zero(entry) for entry in expr)
    expr = sp.sympify(expr).doit()
    return any(candidate == 0 for candidate in _candidates(expr))


@dataclass(frozen=True)
class Proof:
    """A symbolic identity ``lhs = rhs`` and whether sympy proved it (``holds``, computed).

    ``latex`` states the identity as a reader writes it; ``lhs``/``rhs`` are the sympy
    objects actually compared; ``conditions`` says what the symbols range over; ``source``
    says where the identity comes from.
    """

    name: str
    latex: str
    lhs: sp.Basic
    rhs: sp.Basic
    holds: bool
    source: str
    conditions: str = ""

    @property
    def equation(self) -> sp.Eq:
        """The identity as an unevaluated ``sp.Eq(lhs, rhs)`` (for display)."""
        return sp.Eq(self.lhs, self.rhs, evaluate=False)

    def recheck(self) -> bool:
        """Run the zero test again on ``lhs - rhs`` (for records someone has altered)."""
        return is_zero(self.lhs - self.rhs)


def check_identity(
    name: str, latex: str, lhs: sp.Basic, rhs: sp.Basic, *, source: str, conditions: str = ""
) -> Proof:
    r"""Return a :class:`Proof` whose ``holds`` is computed by :func:`is_zero` on ``lhs - rhs``.

    .. math:: \mathrm{holds} = [\operatorname{simplify}(\mathrm{lhs} - \mathrm{rhs}) = 0]

    >>> check_identity("sine is odd", r"\sin(-a) = -\sin a", sp.sin(-a), -sp.sin(a), source="-").holds
    True
    >>> check_identity("wrong", r"R(a)^\top = R(a)", rotation(a).T, rotation(a), source="-").holds
    False
    """
    if isinstance(lhs, sp.MatrixBase):
        lhs = sp.ImmutableMatrix(lhs)
    if isinstance(rhs, sp.MatrixBase):
        rhs = sp.ImmutableMatrix(rhs)
    return Proof(name, latex, lhs, rhs, is_zero(lhs - rhs), source, conditions)
