r"""Plausible but false variants of the RoPE score, refuted by concrete counterexamples.

Scope: formulas that look right, appear in the study notes, and are wrong.  Each
:class:`Refutation` records the false claim, an exact substitution anyone can plug in
(``values``), the values of the true side and of the claim there (they differ), the correct
form as a :class:`~.common.Proof` that sympy proves, and the gap (true side minus claim) as a
proved identity that says exactly when the false claim happens to hold.  ``refuted`` is
computed: the correct form holds, agrees with the true side at the counterexample, and the
claim does not.

The refutations (2D, :math:`R_m = R(m\theta)`, :math:`q \times k = q_0 k_1 - q_1 k_0`):

* ``relative_sign``: :math:`(R_m q)^\top (R_n k) = q^\top R_{m-n} k` — wrong sign of the
  relative angle (note 001 §2.10); correct :math:`q^\top R_{n-m} k`.
* ``missing_cross_term``: :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)` — drops
  :math:`(q\times k)\sin((m-n)\theta)` (note 001 §2.8.1).
* ``norms_times_cos``: :math:`(R_m q)\cdot(R_n k) = |q||k|\cos((m-n)\theta)` — forgets the
  angle between q and k (note 001 §2.8.1).
* ``missing_weight_transpose``: :math:`q_m^\top k_n = x_m^\top W_q R_{n-m} W_k x_n` — needs
  :math:`W_q^\top` (note 000, "套用 Attention").

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (12)-(16); notes
"旋转位置编码(RoPE)公式详细推导过程" (kler.cn/a/538912.html) and "RoPE: Rotray Position
Embedding" (Ethan Lai, blog.cyberangel.work/posts/ml-rope).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import sympy as sp

from ropemath.symbolic.common import Proof, check_identity, is_zero, k0, k1, m, n, q0, q1, rotation, theta
from ropemath.symbolic.proofs import (
    W_k,
    W_q,
    alpha_k,
    alpha_q,
    prove_relative_position_2d,
    prove_score_cross_term_2d,
    prove_score_polar_2d,
    prove_weights_transpose_2d,
    r_k,
    r_q,
    x_m,
    x_n,
)

__all__ = [
    "REFUTATIONS",
    "Refutation",
    "all_refutations",
    "get_refutation",
    "refutation_names",
    "refute",
    "refute_missing_cross_term",
    "refute_missing_weight_transpose",
    "refute_norms_times_cos",
    "refute_relative_sign",
]


@dataclasses.dataclass(frozen=True)
class Refutation:
    """A false claim ``lhs = claim``, a counterexample, and the correct (proved) form."""

    name: str
    claim_latex: str
    source: str
    lhs: sp.Expr
    claim: sp.Expr
    values: tuple[tuple[sp.Basic, sp.Basic], ...]
    lhs_value: sp.Expr
    claim_value: sp.Expr
    correct: Proof
    correct_value: sp.Expr
    gap: Proof
    holds_when: str
    refuted: bool

    def values_text(self) -> str:
        """The counterexample as ``name = value`` pairs, in a fixed order."""
        return ", ".join(f"{sp.sstr(s)} = {sp.sstr(v.tolist() if isinstance(v, sp.MatrixBase) else v)}"
                         for s, v in self.values)

    def summary(self) -> str:
        """One line: the two values at the counterexample and the correct value."""
        return (f"at {self.values_text()}: true side = {sp.sstr(self.lhs_value)}, "
                f"claim = {sp.sstr(self.claim_value)}, correct form = {sp.sstr(self.correct_value)}")


def _at(expr: sp.Expr, values: tuple[tuple[sp.Basic, sp.Basic], ...], label: str) -> sp.Expr:
    """``expr`` evaluated exactly at ``values`` (matrices substituted for matrix symbols)."""
    value = expr.subs(dict(values)).doit()
    if value.free_symbols:
        raise ValueError(f"values must give every symbol a number, got {label} = {sp.sstr(value)}")
    return sp.nsimplify(sp.simplify(value))


def refute(name: str, claim_latex: str, *, source: str, correct: Proof, claim: sp.Expr,
           values: dict, gap: tuple[str, sp.Expr], holds_when: str) -> Refutation:
    r"""Build a :class:`Refutation` of ``correct.lhs = claim`` and compute whether it is refuted.

    .. math:: \mathrm{refuted} = \mathrm{correct\ holds} \wedge L(v) = C(v) \wedge L(v) \neq \mathrm{claim}(v)

    where :math:`L` is the true side, :math:`C` the correct right side and :math:`v` the values.
    ``gap = (latex, expr)`` states :math:`L - \mathrm{claim}`, proved here.  Reusable for any
    claim: e.g. :math:`\sin(a + b) = \sin a + \sin b` fails at :math:`a = b = \pi/2`:

    >>> from ropemath.symbolic.common import a, b
    >>> expansion = sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)
    >>> ok = check_identity("sine_sum", r"\sin(a+b) = \sin a\cos b + \cos a\sin b", sp.sin(a + b), expansion,
    ...                     source="trigonometry")
    >>> r = refute("sine_additive", r"\sin(a+b) = \sin a + \sin b", source="a classic slip", correct=ok,
    ...            claim=sp.sin(a) + sp.sin(b), values={a: sp.pi / 2, b: sp.pi / 2},
    ...            gap=("L - claim", expansion - sp.sin(a) - sp.sin(b)), holds_when="rarely")
    >>> r.refuted, r.lhs_value, r.claim_value, r.correct_value
    (True, 0, 2, 0)
    """
    values = tuple(values.items())
    lhs = correct.lhs
    lhs_value, claim_value = _at(lhs, values, "true side"), _at(claim, values, "claim")
    correct_value = _at(correct.rhs, values, "correct form")
    gap_proof = check_identity(f"{name}_gap", gap[0], lhs - claim, gap[1], source=source, conditions=correct.conditions)
    differs = not is_zero(lhs_value - claim_value) and abs(complex(sp.N(lhs_value - claim_value))) > 1e-12
    refuted = correct.holds and gap_proof.holds and is_zero(lhs_value - correct_value) and differs
    return Refutation(name, claim_latex, source, lhs, claim, values, lhs_value, claim_value, correct,
                      correct_value, gap_proof, holds_when, bool(refuted))


_BASIS = {q0: 1, q1: 0, k0: 0, k1: 1, m: 1, n: 0, theta: sp.pi / 2}
_Q, _K = sp.ImmutableMatrix([q0, q1]), sp.ImmutableMatrix([k0, k1])
_CROSS = q0 * k1 - q1 * k0


@functools.cache
def refute_relative_sign() -> Refutation:
    r"""Refute :math:`(R_m q)^\top (R_n k) = q^\top R_{m-n} k`; correct: :math:`q^\top R_{n-m} k`.

    >>> r = refute_relative_sign()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, -1)
    """
    return refute("relative_sign", r"(R_m q)^\top (R_n k) = q^\top R_{m-n}\, k",
                  source="note 001 (kler.cn) §2.10", correct=prove_relative_position_2d(),
                  claim=(_Q.T * rotation((m - n) * theta) * _K)[0, 0], values=_BASIS,
                  gap=(r"L - \mathrm{claim} = 2 (q_0 k_1 - q_1 k_0) \sin((m-n)\theta)",
                       2 * _CROSS * sp.sin((m - n) * theta)),
                  holds_when="only if q and k are parallel (q0 k1 = q1 k0) or sin((m-n) theta) = 0")


@functools.cache
def refute_missing_cross_term() -> Refutation:
    r"""Refute :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)`; it misses :math:`(q\times k)\sin`.

    >>> r = refute_missing_cross_term()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    return refute("missing_cross_term", r"(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)",
                  source="note 001 (kler.cn) §2.8.1", correct=prove_score_cross_term_2d(),
                  claim=(q0 * k0 + q1 * k1) * sp.cos((m - n) * theta), values={**_BASIS, k0: 1},
                  gap=(r"L - \mathrm{claim} = (q_0 k_1 - q_1 k_0) \sin((m-n)\theta)", _CROSS * sp.sin((m - n) * theta)),
                  holds_when="only if q and k are parallel (q0 k1 = q1 k0) or sin((m-n) theta) = 0")


@functools.cache
def refute_norms_times_cos() -> Refutation:
    r"""Refute :math:`(R_m q)\cdot(R_n k) = |q||k|\cos((m-n)\theta)` (the angle between q and k is lost).

    >>> r = refute_norms_times_cos()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    delta, phi = alpha_q - alpha_k, (m - n) * theta
    return refute("norms_times_cos", r"(R_m q)\cdot(R_n k) = |q|\,|k|\cos((m-n)\theta)",
                  source="note 001 (kler.cn) §2.8.1", correct=prove_score_polar_2d(),
                  claim=r_q * r_k * sp.cos(phi),
                  values={r_q: 1, alpha_q: 0, r_k: 1, alpha_k: sp.pi / 2, m: 1, n: 0, theta: sp.pi / 2},
                  gap=(r"L - \mathrm{claim} = |q||k|\big[(\cos\delta - 1)\cos((m-n)\theta) - \sin\delta\,"
                       r"\sin((m-n)\theta)\big],\ \delta = \alpha_q - \alpha_k",
                       r_q * r_k * ((sp.cos(delta) - 1) * sp.cos(phi) - sp.sin(delta) * sp.sin(phi))),
                  holds_when="only if alpha_q = alpha_k (mod 2 pi), i.e. q and k point the same way, or "
                             "alpha_q - alpha_k = -2 (m-n) theta (mod 2 pi), or q = 0 or k = 0")


@functools.cache
def refute_missing_weight_transpose() -> Refutation:
    r"""Refute :math:`q_m^\top k_n = x_m^\top W_q R_{n-m} W_k x_n`; correct: :math:`x_m^\top W_q^\top R_{n-m} W_k x_n`.

    >>> r = refute_missing_weight_transpose()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    Wq, Wk, xm, xn = W_q.as_explicit(), W_k.as_explicit(), x_m.as_explicit(), x_n.as_explicit()
    tail = rotation((n - m) * theta) * Wk * xn
    return refute("missing_weight_transpose", r"(R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q R_{n-m} W_k x_n",
                  source='note 000 (Ethan Lai), section "套用 Attention"', correct=prove_weights_transpose_2d(),
                  claim=(xm.T * Wq * tail)[0, 0],
                  values={W_q: sp.ImmutableMatrix([[0, 1], [0, 0]]), W_k: sp.ImmutableMatrix(sp.eye(2)),
                          x_m: sp.ImmutableMatrix([0, 1]), x_n: sp.ImmutableMatrix([0, 1]),
                          m: 1, n: 0, theta: sp.pi / 2},
                  gap=(r"L - \mathrm{claim} = x_m^\top (W_q^\top - W_q) R_{n-m} W_k x_n",
                       (xm.T * (Wq.T - Wq) * tail)[0, 0]),
                  holds_when="for all inputs only if W_q is symmetric (W_q^T = W_q)")


REFUTATIONS: dict[str, Callable[[], Refutation]] = {
    "relative_sign": refute_relative_sign,
    "missing_cross_term": refute_missing_cross_term,
    "norms_times_cos": refute_norms_times_cos,
    "missing_weight_transpose": refute_missing_weight_transpose,
}
"""Every refutation, by name, in the order the notebook and the CLI show them."""


def refutation_names() -> tuple[str, ...]:
    """Return the names of all refutations, in order.

    >>> refutation_names()
    ('relative_sign', 'missing_cross_term', 'norms_times_cos', 'missing_weight_transpose')
    """
    return tuple(REFUTATIONS)


def get_refutation(name: str) -> Refutation:
    r"""Return the refutation registered under ``name`` (see :data:`REFUTATIONS`).

    .. math:: \texttt{get\_refutation}(\text{"relative\_sign"}) \mapsto q^\top R_{m-n} k \neq (R_m q)^\top (R_n k)

    >>> get_refutation("relative_sign").values_text()
    'q_0 = 1, q_1 = 0, k_0 = 0, k_1 = 1, m = 1, n = 0, theta = pi/2'
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be one of the refutation names (a str), got {type(name).__name__}")
    if name not in REFUTATIONS:
        raise ValueError(f"name must be one of {refutation_names()}, got {name!r}")
    return REFUTATIONS[name]()


def all_refutations() -> tuple[Refutation, ...]:
    """Return every refutation, in order.

    >>> all(r.refuted for r in all_refutations())
    True
    """
    return tuple(get_refutation(name) for name in REFUTATIONS)
