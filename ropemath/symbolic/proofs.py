r"""Symbolic proofs of the identities RoPE rests on, each a :class:`~.common.Proof` record.

Scope: the 2×2 rotation identities (transpose, composition, orthogonality, determinant), the
2D relative-position identity in matrix, complex, cross-term and polar form, the weight-matrix
form of the attention score, the block-diagonal identity for d = 4 and d = 6 with distinct
symbolic frequencies, the elementwise form (RoFormer eq. 34) in both pair layouts, and the
Abel summation of RoFormer §3.4.3.  Every ``prove_*`` function returns a record whose
``holds`` is computed by :func:`~.common.is_zero` on ``lhs - rhs``; :data:`PROOFS` names them
all, in order, for the CLI, the notebooks, the tests and the claims ledger::

    from ropemath.symbolic import proofs
    proofs.prove_transpose().holds          # True
    proofs.get_proof("block_diagonal_d6")   # look one up by name

Notation: :math:`R(a)` is the counter-clockwise 2×2 rotation, :math:`R_m = R(m\theta)` in
2D, :math:`R^d_m = R^d_{\Theta,m}`; :math:`\theta_i` is 0-based (the paper's :math:`\theta_{i+1}`).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16), (34), (35)-(37).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp

from ropemath.core._validate import check_d, check_int, check_layout
from ropemath.symbolic.common import (
    Proof,
    a,
    b,
    block_rotation,
    check_identity,
    k0,
    k1,
    m,
    n,
    q0,
    q1,
    rotation,
    theta,
    thetas,
)

__all__ = [
    "PROOFS",
    "all_proofs",
    "get_proof",
    "proof_names",
    "prove_abel_partial_sums",
    "prove_abel_summation",
    "prove_block_diagonal",
    "prove_composition",
    "prove_determinant",
    "prove_elementwise",
    "prove_orthogonality",
    "prove_relative_position_2d",
    "prove_relative_position_complex_2d",
    "prove_score_cross_term_2d",
    "prove_score_polar_2d",
    "prove_transpose",
    "prove_weights_transpose_2d",
]

Q = sp.ImmutableMatrix([q0, q1])
K = sp.ImmutableMatrix([k0, k1])
r_q, r_k = sp.symbols("r_q r_k", nonnegative=True)
alpha_q, alpha_k = sp.symbols("alpha_q alpha_k", real=True)
W_q, W_k = sp.MatrixSymbol("W_q", 2, 2), sp.MatrixSymbol("W_k", 2, 2)
x_m, x_n = sp.MatrixSymbol("x_m", 2, 1), sp.MatrixSymbol("x_n", 2, 1)
_2D = "q = (q_0, q_1), k = (k_0, k_1), m, n, theta real"


def _scalar(matrix: sp.MatrixBase) -> sp.Expr:
    """The single entry of a 1×1 matrix."""
    return matrix[0, 0]


def score_2d() -> sp.Expr:
    r"""Return the 2D RoPE score :math:`(R_m q)^\top (R_n k)` as an explicit sympy expression.

    .. math:: s(q, k, m, n) = (R(m\theta) q)^\top (R(n\theta) k)

    >>> score_2d().subs({q0: 1, q1: 0, k0: 0, k1: 1, m: 1, n: 0, theta: sp.pi / 2})
    1
    """
    return _scalar((rotation(m * theta) * Q).T * (rotation(n * theta) * K))


@functools.cache
def prove_transpose() -> Proof:
    r"""Prove that the transpose of a rotation is the rotation by the opposite angle.

    .. math:: R(a)^\top = R(-a)

    Source: RoFormer eq. (13); note 001 §1.5.

    >>> prove_transpose().holds
    True
    """
    return check_identity("transpose", r"R(a)^\top = R(-a)", rotation(a).T, rotation(-a),
                          source="RoFormer eq. (13); note 001 §1.5", conditions="a real")


@functools.cache
def prove_composition() -> Proof:
    r"""Prove that rotations compose by adding their angles.

    .. math:: R(a)\,R(b) = R(a + b)

    Source: RoFormer eq. (13); note 001 §2.8.1.

    >>> prove_composition().holds
    True
    """
    return check_identity("composition", r"R(a)\,R(b) = R(a+b)", rotation(a) * rotation(b), rotation(a + b),
                          source="RoFormer eq. (13); note 001 §2.8.1", conditions="a, b real")


@functools.cache
def prove_orthogonality() -> Proof:
    r"""Prove that a rotation is orthogonal.

    .. math:: R(a)^\top R(a) = I

    Source: RoFormer §3.2.2 ("an orthogonal matrix, which ensures stability").

    >>> prove_orthogonality().holds
    True
    """
    return check_identity("orthogonality", r"R(a)^\top R(a) = I", rotation(a).T * rotation(a), sp.eye(2),
                          source="RoFormer §3.2.2", conditions="a real")


@functools.cache
def prove_determinant() -> Proof:
    r"""Prove that a rotation has determinant 1 (it is not a reflection).

    .. math:: \det R(a) = 1

    Source: RoFormer eq. (13).

    >>> prove_determinant().lhs
    sin(a)**2 + cos(a)**2
    """
    return check_identity("determinant", r"\det R(a) = 1", rotation(a).det(), sp.Integer(1),
                          source="RoFormer eq. (13)", conditions="a real")


@functools.cache
def prove_relative_position_2d() -> Proof:
    r"""Prove the 2D relative-position identity in matrix form.

    .. math:: (R_m q)^\top (R_n k) = q^\top R_{n-m}\, k

    Source: RoFormer eq. (16) with d = 2 (note 001 §2.8.1 has it right, §2.10 with the wrong sign).

    >>> prove_relative_position_2d().holds
    True
    """
    return check_identity("relative_position_2d", r"(R_m q)^\top (R_n k) = q^\top R_{n-m}\, k", score_2d(),
                          _scalar(Q.T * rotation((n - m) * theta) * K), source="RoFormer eq. (16), d = 2",
                          conditions=_2D)


@functools.cache
def prove_relative_position_complex_2d() -> Proof:
    r"""Prove that the 2D score is the real part of a complex product.

    .. math:: q^\top R_{n-m}\, k = \mathrm{Re}\big[q\,\overline{k}\,e^{i(m-n)\theta}\big],
              \quad q = q_0 + i q_1,\ k = k_0 + i k_1

    Source: RoFormer eq. (12).

    >>> prove_relative_position_complex_2d().holds
    True
    """
    complex_form = sp.re((q0 + sp.I * q1) * sp.conjugate(k0 + sp.I * k1) * sp.exp(sp.I * (m - n) * theta),
                         evaluate=False)
    return check_identity("relative_position_complex_2d",
                          r"q^\top R_{n-m}\, k = \mathrm{Re}\big[q\,\overline{k}\,e^{i(m-n)\theta}\big]",
                          _scalar(Q.T * rotation((n - m) * theta) * K), complex_form, source="RoFormer eq. (12)",
                          conditions=_2D + "; q = q_0 + i q_1 as a complex number")


@functools.cache
def prove_score_cross_term_2d() -> Proof:
    r"""Prove the 2D score in dot/cross form, with :math:`q \times k = q_0 k_1 - q_1 k_0`.

    .. math:: (R_m q)^\top (R_n k) = (q\cdot k)\cos((m-n)\theta) + (q_0 k_1 - q_1 k_0)\sin((m-n)\theta)

    Source: real part of RoFormer eq. (12), expanded; corrects note 001 §2.8.1.

    >>> prove_score_cross_term_2d().holds
    True
    """
    r = (m - n) * theta
    rhs = (q0 * k0 + q1 * k1) * sp.cos(r) + (q0 * k1 - q1 * k0) * sp.sin(r)
    return check_identity("score_cross_term_2d",
                          r"(R_m q)^\top (R_n k) = (q\cdot k)\cos((m-n)\theta) + (q_0k_1 - q_1k_0)\sin((m-n)\theta)",
                          score_2d(), rhs, source="expansion of RoFormer eq. (12); corrects note 001 §2.8.1",
                          conditions=_2D)


@functools.cache
def prove_score_polar_2d() -> Proof:
    r"""Prove the 2D score in polar form, :math:`q = r_q(\cos\alpha_q, \sin\alpha_q)`, same for k.

    .. math:: (R_m q)^\top (R_n k) = |q|\,|k| \cos\big(\alpha_q - \alpha_k + (m-n)\theta\big)

    Source: :math:`R_m q` has angle :math:`\alpha_q + m\theta`; corrects note 001 §2.8.1.

    >>> prove_score_polar_2d().holds
    True
    """
    polar = {q0: r_q * sp.cos(alpha_q), q1: r_q * sp.sin(alpha_q),
             k0: r_k * sp.cos(alpha_k), k1: r_k * sp.sin(alpha_k)}
    return check_identity("score_polar_2d",
                          r"(R_m q)^\top (R_n k) = |q|\,|k| \cos\big(\alpha_q - \alpha_k + (m-n)\theta\big)",
                          score_2d().subs(polar, simultaneous=True),
                          r_q * r_k * sp.cos(alpha_q - alpha_k + (m - n) * theta),
                          source="angle of R_m q is alpha_q + m theta; corrects note 001 §2.8.1",
                          conditions="q = r_q (cos alpha_q, sin alpha_q), k = r_k (cos alpha_k, sin alpha_k)")


@functools.cache
def prove_weights_transpose_2d() -> Proof:
    r"""Prove the attention score with projection matrices (d = 2, symbolic 2×2 weights).

    .. math:: (R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q^\top R_{n-m} W_k x_n

    Source: RoFormer eq. (16) with d = 2; corrects note 000 (which drops the transpose on W_q).

    >>> prove_weights_transpose_2d().holds
    True
    """
    Wq, Wk, xm, xn = W_q.as_explicit(), W_k.as_explicit(), x_m.as_explicit(), x_n.as_explicit()
    lhs = (rotation(m * theta) * Wq * xm).T * (rotation(n * theta) * Wk * xn)
    rhs = xm.T * Wq.T * rotation((n - m) * theta) * Wk * xn
    return check_identity("weights_transpose_2d",
                          r"(R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q^\top R_{n-m} W_k x_n",
                          _scalar(lhs), _scalar(rhs), source="RoFormer eq. (16) with d = 2; corrects note 000",
                          conditions="W_q, W_k arbitrary 2x2, x_m, x_n arbitrary 2-vectors (symbolic entries)")


@functools.cache
def prove_block_diagonal(d: int) -> Proof:
    r"""Prove the block-diagonal relative-position identity with distinct symbolic frequencies.

    .. math:: (R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m},
              \quad \theta_0, \dots, \theta_{d/2-1} \text{ independent symbols}

    Source: RoFormer §3.2.2, eq. (16).

    >>> prove_block_diagonal(4).name, prove_block_diagonal(4).holds
    ('block_diagonal_d4', True)
    """
    d = check_d(d)
    t = thetas(d // 2)
    return check_identity(f"block_diagonal_d{d}", rf"(R^{{{d}}}_{{\Theta,m}})^\top R^{{{d}}}_{{\Theta,n}} = "
                          rf"R^{{{d}}}_{{\Theta,n-m}}", block_rotation(m, t).T * block_rotation(n, t),
                          block_rotation(n - m, t), source="RoFormer §3.2.2, eq. (16)",
                          conditions=f"d = {d}; m, n, theta_0..theta_{d // 2 - 1} real and independent")


def _rotate_pairs(x: list[sp.Expr], layout: str) -> list[sp.Expr]:
    """(-x1, x0, -x3, x2, ...) for interleaved; (-x_{h..d-1}, x_{0..h-1}) for half (rotate_half)."""
    h = len(x) // 2
    if layout == "interleaved":
        return [-x[i + 1] if i % 2 == 0 else x[i - 1] for i in range(len(x))]
    return [-v for v in x[h:]] + x[:h]


@functools.cache
def prove_elementwise(d: int, layout: str = "interleaved") -> Proof:
    r"""Prove that the elementwise form equals the matrix product, in either pair layout.

    .. math:: R^d_{\Theta,m} x = x \otimes \cos + \mathrm{rot}(x) \otimes \sin

    Source: RoFormer eq. (34) (interleaved); GPT-NeoX / Hugging Face ``rotate_half`` (half).
    Interleaved: cos/sin vectors :math:`(\cos m\theta_0, \cos m\theta_0, \cos m\theta_1, \dots)` and
    :math:`\mathrm{rot}(x) = (-x_1, x_0, -x_3, x_2, \dots)`; half: :math:`(\cos m\theta_0, \dots,
    \cos m\theta_{d/2-1})` repeated twice and :math:`\mathrm{rot}(x) = (-x_{d/2..d-1}, x_{0..d/2-1})`.

    >>> prove_elementwise(6, "half").holds
    True
    """
    d, layout = check_d(d), check_layout(layout)
    t = thetas(d // 2)
    x = list(sp.symbols(f"x_0:{d}", real=True))
    idx = [i // 2 for i in range(d)] if layout == "interleaved" else [i % (d // 2) for i in range(d)]
    cos = [sp.cos(m * t[i]) for i in idx]
    sin = [sp.sin(m * t[i]) for i in idx]
    rot = _rotate_pairs(x, layout)
    rhs = sp.ImmutableMatrix([xi * c + ri * s for xi, ri, c, s in zip(x, rot, cos, sin, strict=True)])
    return check_identity(f"elementwise_{layout}_d{d}",
                          rf"R^{{{d}}}_{{\Theta,m}} x = x \otimes \cos + \mathrm{{rot}}(x) \otimes \sin"
                          rf"\quad(\text{{{layout}}})", block_rotation(m, t, layout=layout) * sp.ImmutableMatrix(x),
                          rhs, source="RoFormer eq. (34)" + ("" if layout == "interleaved" else ", half layout"),
                          conditions=f"d = {d}; x_0..x_{d - 1}, m, theta_i real")


def _abel_symbols(half: int) -> tuple[list[sp.Expr], list[sp.Expr]]:
    """h_0..h_{half-1} with h_half = 0, and S_0 = 0 with S_1..S_half (complex symbols)."""
    h = list(sp.symbols(f"h_0:{half}")) + [sp.Integer(0)]
    S = [sp.Integer(0)] + list(sp.symbols(f"S_1:{half + 1}"))
    return h, S


@functools.cache
def prove_abel_summation(half: int = 4) -> Proof:
    r"""Prove the Abel summation of RoFormer §3.4.3 for ``half`` = d/2 terms.

    .. math:: \sum_{i=0}^{d/2-1} h_i (S_{i+1} - S_i) = -\sum_{i=0}^{d/2-1} S_{i+1}(h_{i+1} - h_i),
              \quad h_{d/2} = 0,\ S_0 = 0

    Source: RoFormer §3.4.3, eq. (36).

    >>> prove_abel_summation(2).lhs
    S_1*h_0 + h_1*(-S_1 + S_2)
    """
    half = check_int(half, "half", minimum=1)
    h, S = _abel_symbols(half)
    lhs = sp.Add(*[h[i] * (S[i + 1] - S[i]) for i in range(half)])
    rhs = -sp.Add(*[S[i + 1] * (h[i + 1] - h[i]) for i in range(half)])
    return check_identity(f"abel_summation_d{2 * half}",
                          r"\sum_{i=0}^{d/2-1} h_i (S_{i+1} - S_i) = -\sum_{i=0}^{d/2-1} S_{i+1}(h_{i+1} - h_i)",
                          lhs, rhs, source="RoFormer §3.4.3, eq. (36)",
                          conditions=f"d/2 = {half}; h_{half} = 0, S_0 = 0; other h_i, S_j arbitrary complex")


@functools.cache
def prove_abel_partial_sums(half: int = 4) -> Proof:
    r"""Prove that with RoPE's partial sums the Abel sum is the score itself.

    .. math:: S_j = \sum_{i=0}^{j-1} e^{i r \theta_i} \;\Rightarrow\;
              \sum_{i=0}^{d/2-1} h_i (S_{i+1} - S_i) = \sum_{i=0}^{d/2-1} h_i e^{i r \theta_i}

    Source: RoFormer §3.4.3, eq. (35)-(36).

    >>> prove_abel_partial_sums(4).holds
    True
    """
    half = check_int(half, "half", minimum=1)
    h, _ = _abel_symbols(half)
    r, t = sp.Symbol("r", real=True), thetas(half)
    S = [sp.Add(*[sp.exp(sp.I * r * t[i]) for i in range(j)]) for j in range(half + 1)]
    lhs = sp.Add(*[h[i] * (S[i + 1] - S[i]) for i in range(half)])
    rhs = sp.Add(*[h[i] * sp.exp(sp.I * r * t[i]) for i in range(half)])
    return check_identity(f"abel_partial_sums_d{2 * half}",
                          r"S_j = \sum_{i=0}^{j-1} e^{i r \theta_i} \Rightarrow "
                          r"\sum_i h_i (S_{i+1} - S_i) = \sum_i h_i e^{i r \theta_i}",
                          lhs, rhs, source="RoFormer §3.4.3, eq. (35)-(36)",
                          conditions=f"d/2 = {half}; r = m - n real")


PROOFS: dict[str, Callable[[], Proof]] = {
    "transpose": prove_transpose,
    "composition": prove_composition,
    "orthogonality": prove_orthogonality,
    "determinant": prove_determinant,
    "relative_position_2d": prove_relative_position_2d,
    "relative_position_complex_2d": prove_relative_position_complex_2d,
    "score_cross_term_2d": prove_score_cross_term_2d,
    "score_polar_2d": prove_score_polar_2d,
    "weights_transpose_2d": prove_weights_transpose_2d,
    "block_diagonal_d4": functools.partial(prove_block_diagonal, 4),
    "block_diagonal_d6": functools.partial(prove_block_diagonal, 6),
    "elementwise_interleaved_d6": functools.partial(prove_elementwise, 6, "interleaved"),
    "elementwise_half_d6": functools.partial(prove_elementwise, 6, "half"),
    "abel_summation_d8": functools.partial(prove_abel_summation, 4),
    "abel_partial_sums_d8": functools.partial(prove_abel_partial_sums, 4),
}
"""Every registered proof, by name, in the order the notebook and the CLI show them."""


def proof_names() -> tuple[str, ...]:
    """Return the names of all registered proofs, in order.

    >>> proof_names()[:4]
    ('transpose', 'composition', 'orthogonality', 'determinant')
    """
    return tuple(PROOFS)


def get_proof(name: str) -> Proof:
    r"""Return the proof registered under ``name`` (see :data:`PROOFS`).

    .. math:: \texttt{get\_proof}(\text{"transpose"}) \mapsto R(a)^\top = R(-a)

    >>> p = get_proof("transpose")
    >>> p.name, p.holds
    ('transpose', True)
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be one of the registered proof names (a str), got {type(name).__name__}")
    if name not in PROOFS:
        raise ValueError(f"name must be one of {proof_names()}, got {name!r}")
    return PROOFS[name]()


def all_proofs() -> tuple[Proof, ...]:
    """Return every registered proof, in order.

    >>> all(p.holds for p in all_proofs())
    True
    """
    return tuple(get_proof(name) for name in PROOFS)
