r"""Plausible but false variants of the RoPE score, refuted by exact counterexamples.

Each :class:`Refutation` holds the claim, a substitution where it fails, the proved correct form and the
proved gap.  Sources: note 001 (kler.cn, §2.8.1, §2.10) and note 000 (Ethan Lai, "套用 Attention").

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (12)-(16).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import sympy as sp

from ropemath.symbolic.common import (
    Proof,
    Scalar,
    _lookup,
    check_identity,
    explicit,
    is_zero,
    k0,
    k1,
    m,
    mul,
    n,
    plain,
    q0,
    q1,
    render,
    theta,
)
from ropemath.symbolic.proofs import (
    R_at,
    W_k,
    W_q,
    alpha_k,
    alpha_q,
    k_vec,
    prove_relative_position_2d,
    prove_score_cross_term_2d,
    prove_score_polar_2d,
    prove_weights_transpose_2d,
    q_vec,
    r_k,
    r_q,
    relative_shown,
    weights_shown,
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
    """A false claim ``correct.shown_lhs = shown``, a counterexample, and the correct (proved) form.

    ``shown`` is the claim as displayed (notation, see :class:`~.common.Proof`); ``claim`` is what it
    stands for, multiplied out; ``claim_latex``/``claim_text`` are rendered from ``shown``, never typed.
    """

    name: str
    shown: sp.Basic
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
    cases: tuple[tuple[tuple[sp.Basic, sp.Basic], ...], ...] = ()
    cases_hold: bool = True

    @property
    def claim_latex(self) -> str:
        """LaTeX of the false claim, rendered from the true side's notation and ``shown``."""
        return f"{render(self.correct.shown_lhs)} = {render(self.shown)}"

    @property
    def claim_text(self) -> str:
        """Plain-text form of the false claim."""
        return f"{plain(self.correct.shown_lhs)} = {plain(self.shown)}"

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


def refute(name: str, shown: sp.Basic | str | None = None, *, source: str, correct: Proof, values: dict,
           gap: sp.Basic | tuple[str, sp.Basic], holds_when: str, claim: sp.Basic | None = None,
           cases: tuple[dict, ...] = ()) -> Refutation:
    r"""Build a :class:`Refutation` of ``correct.lhs = claim`` and compute whether it is refuted.

    .. math:: \mathrm{refuted} = \mathrm{correct\ holds} \wedge L(v) = C(v) \wedge L(v) \neq \mathrm{claim}(v)

    (:math:`L` true side, :math:`C` correct right side, :math:`v` the values).  ``shown`` is the displayed
    claim (a ``str`` is not displayed: ``claim`` is); ``cases`` are substitutions where the proved ``gap``
    :math:`L - \mathrm{claim}` must vanish, rendered into ``holds_when``'s ``{0}``, ``{1}``, ...  Example:

    >>> from ropemath.symbolic.common import a, b
    >>> expansion = sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)
    >>> ok = check_identity("sine_sum", sp.sin(a + b), expansion, source="trigonometry")
    >>> r = refute("sine_additive", sp.sin(a) + sp.sin(b), source="a classic slip", correct=ok,
    ...            values={a: sp.pi / 2, b: sp.pi / 2}, gap=expansion - sp.sin(a) - sp.sin(b), holds_when="rarely")
    >>> r.refuted, r.lhs_value, r.claim_value, r.correct_value, r.claim_latex
    (True, 0, 2, 0, '\\sin{\\left(a + b \\right)} = \\sin{\\left(a \\right)} + \\sin{\\left(b \\right)}')
    """
    if isinstance(shown, sp.Basic):
        explicit_claim = explicit(shown, correct.definitions)
        if claim is not None and not is_zero(explicit_claim - claim):
            raise ValueError(f"claim must be what shown stands for, got shown = {plain(shown)}, claim = {plain(claim)}")
        claim = explicit_claim
    elif claim is None:
        raise TypeError("refute needs the claim: shown (a sympy expression) or claim")
    else:
        shown = claim  # the typed text is not displayed: the claim itself is
    gap_shown = gap[1] if isinstance(gap, tuple) else gap
    values = tuple(values.items())
    lhs = correct.lhs
    lhs_value, claim_value = _at(lhs, values, "true side"), _at(claim, values, "claim")
    correct_value = _at(correct.rhs, values, "correct form")
    gap_proof = check_identity(f"{name}_gap", sp.Add(correct.shown_lhs, -shown, evaluate=False), gap_shown,
                               source=source, conditions=correct.conditions, definitions=correct.definitions)
    cases = tuple(tuple(case.items()) for case in cases)
    cases_hold = all(is_zero(gap_proof.rhs.subs(dict(case))) for case in cases)
    if cases:
        holds_when = holds_when.format(*(", ".join(f"{plain(k)} = {plain(v)}" for k, v in case) for case in cases))
    differs = not is_zero(lhs_value - claim_value) and abs(complex(sp.N(lhs_value - claim_value))) > 1e-12
    refuted = correct.holds and gap_proof.holds and is_zero(lhs_value - correct_value) and differs
    return Refutation(name, shown, source, lhs, claim, values, lhs_value, claim_value, correct,
                      correct_value, gap_proof, holds_when, bool(refuted), cases, bool(cases_hold))


_BASIS = {q0: 1, q1: 0, k0: 0, k1: 1, m: 1, n: 0, theta: sp.pi / 2}
_CROSS = sp.Add(sp.Mul(q0, k1, evaluate=False), -sp.Mul(q1, k0, evaluate=False), evaluate=False)
_PHI = (m - n) * theta
_c = sp.Symbol("c", real=True)  # a scale factor
_j = sp.Symbol("j", integer=True)  # any integer
_PARALLEL = {k0: _c * q0, k1: _c * q1}
_SINE_ZERO = {m: n + sp.pi * _j / theta}
_WHEN_SINE = "only if q and k are parallel ({0}) or (m - n) theta is a multiple of pi ({1})"


@functools.cache
def refute_relative_sign() -> Refutation:
    r"""Refute :math:`(R_m q)^\top (R_n k) = q^\top R_{m-n} k`; correct: :math:`q^\top R_{n-m} k`.

    >>> r = refute_relative_sign()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, -1)
    >>> r.claim_text
    '(R_m*q).T*(R_n*k) = q.T*R_(m - n)*k'
    """
    return refute("relative_sign", relative_shown(-1), source="note 001 (kler.cn) §2.10",
                  correct=prove_relative_position_2d(), values=_BASIS,
                  gap=sp.Mul(2, _CROSS, sp.sin(_PHI), evaluate=False),
                  holds_when=_WHEN_SINE, cases=(_PARALLEL, _SINE_ZERO))


@functools.cache
def refute_missing_cross_term() -> Refutation:
    r"""Refute :math:`(R_m q)\cdot(R_n k) = (q\cdot k)\cos((m-n)\theta)`; it misses :math:`(q\times k)\sin`.

    >>> r = refute_missing_cross_term()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    return refute("missing_cross_term", sp.Mul(Scalar(mul(sp.Transpose(q_vec), k_vec)), sp.cos(_PHI), evaluate=False),
                  source="note 001 (kler.cn) §2.8.1", correct=prove_score_cross_term_2d(), values={**_BASIS, k0: 1},
                  gap=sp.Mul(_CROSS, sp.sin(_PHI), evaluate=False),
                  holds_when=_WHEN_SINE, cases=(_PARALLEL, _SINE_ZERO))


@functools.cache
def refute_norms_times_cos() -> Refutation:
    r"""Refute :math:`(R_m q)\cdot(R_n k) = |q||k|\cos((m-n)\theta)` (the angle between q and k is lost).

    >>> r = refute_norms_times_cos()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    delta = alpha_q - alpha_k
    return refute("norms_times_cos", r_q * r_k * sp.cos(_PHI), source="note 001 (kler.cn) §2.8.1",
                  correct=prove_score_polar_2d(),
                  values={r_q: 1, alpha_q: 0, r_k: 1, alpha_k: sp.pi / 2, m: 1, n: 0, theta: sp.pi / 2},
                  gap=r_q * r_k * ((sp.cos(delta) - 1) * sp.cos(_PHI) - sp.sin(delta) * sp.sin(_PHI)),
                  holds_when="only if q and k point the same way ({0}), or their angles differ by minus twice the "
                             "rotation ({1}), or q = 0 ({2}) or k = 0 ({3})",
                  cases=({alpha_q: alpha_k + 2 * sp.pi * _j}, {alpha_q: alpha_k - 2 * _PHI + 2 * sp.pi * _j},
                         {r_q: 0}, {r_k: 0}))


@functools.cache
def refute_missing_weight_transpose() -> Refutation:
    r"""Refute :math:`q_m^\top k_n = x_m^\top W_q R_{n-m} W_k x_n`; correct: :math:`x_m^\top W_q^\top R_{n-m} W_k x_n`.

    >>> r = refute_missing_weight_transpose()
    >>> r.refuted, r.lhs_value, r.claim_value
    (True, 1, 0)
    """
    gap = Scalar(mul(sp.Transpose(x_m), sp.MatAdd(sp.Transpose(W_q), -W_q), R_at(n - m), W_k, x_n))
    return refute("missing_weight_transpose", weights_shown(transpose=False),
                  source='note 000 (Ethan Lai), section "套用 Attention"', correct=prove_weights_transpose_2d(),
                  values={W_q: sp.ImmutableMatrix([[0, 1], [0, 0]]), W_k: sp.ImmutableMatrix(sp.eye(2)),
                          x_m: sp.ImmutableMatrix([0, 1]), x_n: sp.ImmutableMatrix([0, 1]),
                          m: 1, n: 0, theta: sp.pi / 2},
                  gap=gap, holds_when="for all inputs only if W_q is symmetric ({0})", cases=({W_q[1, 0]: W_q[0, 1]},))


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
    return _lookup(REFUTATIONS, name, "refutation")


def all_refutations() -> tuple[Refutation, ...]:
    """Return every refutation, in order.

    >>> all(r.refuted for r in all_refutations())
    True
    """
    return tuple(get_refutation(name) for name in REFUTATIONS)
