r"""Shared sympy symbols, rotation matrices, the zero test and the :class:`Proof` record.

Symbols: complex ``q, k`` (a 2D vector read as :math:`q_0 + \mathrm{i} q_1`), real ``q0, q1, k0, k1``,
positions ``m, n``, angles ``theta, a, b``.  :func:`is_zero` only rewrites an expression into an equal
one, so ``True`` proves it vanishes; ``False`` is no disproof (those are counterexamples, :mod:`.refutations`).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2 eq. (13)-(16).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from ropemath.symbolic.notation import Definitions, Notation, Rot, Scalar, block_rotation, explicit, mul, plain, render

__all__ = [
    "Definitions",
    "Notation",
    "Proof",
    "Rot",
    "Scalar",
    "a",
    "b",
    "block_rotation",
    "check_identity",
    "explicit",
    "is_zero",
    "k",
    "k0",
    "k1",
    "m",
    "mul",
    "n",
    "plain",
    "q",
    "q0",
    "q1",
    "render",
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
    r"""A symbolic identity: the statement shown, and whether sympy proves it (``holds``, computed on demand).

    ``shown_lhs = shown_rhs`` is the identity as displayed (notation: :class:`Rot`, matrix symbols,
    sums); ``definitions`` say what its symbols stand for (e.g. :math:`q = (q_0, q_1)^T`).  ``lhs`` and
    ``rhs`` are :func:`explicit` of the shown sides and ``holds`` is :func:`is_zero` of their
    difference, so the formula displayed (``latex``, ``text``) is the formula proved: change a shown
    side (``dataclasses.replace``) and both the display and the verdict follow.  ``conditions`` says
    what the symbols range over; ``source`` where the identity comes from.
    """

    name: str
    shown_lhs: sp.Basic
    shown_rhs: sp.Basic
    source: str
    conditions: str = ""
    definitions: Definitions = ()

    @functools.cached_property
    def lhs(self) -> sp.Basic:
        """The left side multiplied out (what sympy compares)."""
        return explicit(self.shown_lhs, self.definitions)

    @functools.cached_property
    def rhs(self) -> sp.Basic:
        """The right side multiplied out (what sympy compares)."""
        return explicit(self.shown_rhs, self.definitions)

    @functools.cached_property
    def holds(self) -> bool:
        """Whether sympy reduces ``lhs - rhs`` to 0 (:func:`is_zero`)."""
        return is_zero(self.lhs - self.rhs)

    @property
    def scope(self) -> str:
        """What ``holds`` establishes: ``"proved"`` (every value of the symbols) or ``"checked at d = ..."``.

        An identity stated at one size (``conditions`` starting ``d = `` or ``d/2 = ``) is a check of
        that size only; the statement for every d needs the argument the notebooks give (block by block,
        an index shift).
        """
        head = self.conditions.split(";")[0]
        if head.startswith("d/2 = "):
            return f"checked at d = {2 * int(head[6:])}"
        return f"checked at {head}" if head.startswith("d = ") else "proved"

    @property
    def latex(self) -> str:
        """LaTeX of the identity proved, rendered from ``shown_lhs`` and ``shown_rhs`` (never typed)."""
        return f"{render(self.shown_lhs)} = {render(self.shown_rhs)}"

    @property
    def text(self) -> str:
        """Plain-text form of the identity proved (sympy ``sstr`` of the shown sides)."""
        return f"{plain(self.shown_lhs)} = {plain(self.shown_rhs)}"

    @property
    def where_latex(self) -> str:
        """LaTeX of the definitions, ``s = value`` joined by commas ('' if none)."""
        return r",\quad ".join(f"{render(s)} = {render(v)}" for s, v in self.definitions)

    @property
    def where_text(self) -> str:
        """Plain-text form of the definitions ('' if none)."""
        return ", ".join(f"{plain(s)} = {plain(v)}" for s, v in self.definitions)

    @property
    def equation(self) -> sp.Eq:
        """The identity multiplied out, as an unevaluated ``sp.Eq(lhs, rhs)`` (what sympy compares)."""
        return sp.Eq(self.lhs, self.rhs, evaluate=False)

    def recheck(self) -> bool:
        """Run the zero test again, from the shown sides (for records someone has altered)."""
        return is_zero(explicit(self.shown_lhs, self.definitions) - explicit(self.shown_rhs, self.definitions))


def check_identity(name: str, lhs: sp.Basic, rhs: sp.Basic, *, source: str, conditions: str = "",
        definitions: Definitions = ()) -> Proof:
    r"""Return the :class:`Proof` of ``lhs = rhs`` (shown sides; ``holds`` is :func:`is_zero` of the difference).

    .. math:: \mathrm{holds} = [\operatorname{simplify}(\mathrm{lhs} - \mathrm{rhs}) = 0]

    >>> check_identity("sine is odd", sp.sin(-a), -sp.sin(a), source="-").holds
    True
    >>> p = check_identity("wrong", sp.Transpose(Rot(a, (1,))), Rot(a, (1,)), source="-")
    >>> p.latex, p.holds
    ('\\left(R(a)\\right)^{T} = R(a)', False)
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    return Proof(name, sp.sympify(lhs), sp.sympify(rhs), source, conditions, tuple(definitions))


def _lookup(registry: dict, name: str, kind: str):
    """Return ``registry[name]()``; a one-line TypeError/ValueError naming ``name`` otherwise.

    >>> _lookup({"one": lambda: 1}, "one", "proof")
    1
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be one of the registered {kind} names (a str), got {type(name).__name__}")
    if name not in registry:
        raise ValueError(f"name must be one of {tuple(registry)}, got {name!r}")
    return registry[name]()
