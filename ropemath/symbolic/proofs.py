r"""Symbolic proofs of the identities RoPE rests on, each a :class:`~.common.Proof`; :data:`PROOFS` names them.

2D identities are proved for every value of the symbols; block-diagonal, eq. (34) and Abel summation are
checked at one size (``Proof.scope``), and the text carries them to every d.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16), (34), (35)-(37).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp

from ropemath.core._validate import check_d, check_int, check_layout
from ropemath.symbolic.common import (
    Proof,
    Rot,
    Scalar,
    _lookup,
    a,
    b,
    check_identity,
    k,
    k0,
    k1,
    m,
    mul,
    n,
    q,
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
    "relative_shown",
    "score_2d_shown",
    "weights_shown",
]

Q = sp.ImmutableMatrix([q0, q1])
K = sp.ImmutableMatrix([k0, k1])
q_vec, k_vec = sp.MatrixSymbol("q", 2, 1), sp.MatrixSymbol("k", 2, 1)
r_q, r_k = sp.symbols("r_q r_k", nonnegative=True)
alpha_q, alpha_k = sp.symbols("alpha_q alpha_k", real=True)
W_q, W_k = sp.MatrixSymbol("W_q", 2, 2), sp.MatrixSymbol("W_k", 2, 2)
x_m, x_n = sp.MatrixSymbol("x_m", 2, 1), sp.MatrixSymbol("x_n", 2, 1)
_2D = "q = (q_0, q_1), k = (k_0, k_1), m, n, theta real"
VECTORS = ((q_vec, Q), (k_vec, K))
"""The definitions of the 2D proofs: the vectors :math:`q, k` have real components :math:`q_0, q_1, k_0, k_1`."""


def R(angle: sp.Expr) -> Rot:
    """:math:`R(a)` as notation (one rotation by the angle ``angle``)."""
    return Rot(angle, (1,))


def R_at(position: sp.Expr) -> Rot:
    r""":math:`R_m = R(m\theta)` as notation (the 2D rotation at position ``position``)."""
    return Rot(position, (theta,))


def score_2d_shown() -> Scalar:
    r"""Return the 2D RoPE score as notation, :math:`(R_m q)^\top (R_n k)`, with :data:`VECTORS` its definitions.

    .. math:: s(q, k, m, n) = (R_m q)^\top (R_n k)

    >>> from ropemath.symbolic.common import render
    >>> render(score_2d_shown())
    '\\left(R_{m} q\\right)^{T} \\left(R_{n} k\\right)'
    """
    return Scalar(mul(sp.Transpose(mul(R_at(m), q_vec)), mul(R_at(n), k_vec)))


def score_2d() -> sp.Expr:
    r"""Return the 2D RoPE score :math:`(R_m q)^\top (R_n k)` as an explicit sympy expression.

    .. math:: s(q, k, m, n) = (R(m\theta) q)^\top (R(n\theta) k)

    >>> score_2d().subs({q0: 1, q1: 0, k0: 0, k1: 1, m: 1, n: 0, theta: sp.pi / 2})
    1
    """
    return ((rotation(m * theta) * Q).T * (rotation(n * theta) * K))[0, 0]


def relative_shown(sign: int = 1) -> Scalar:
    r"""Return :math:`q^\top R_{n-m} k` as notation (``sign=-1``: :math:`q^\top R_{m-n} k`, the wrong sign).

    .. math:: q^\top R_{\pm(n-m)}\, k

    >>> from ropemath.symbolic.common import render
    >>> render(relative_shown(-1))
    'q^{T} R_{m - n} k'
    """
    position = n - m if sign == 1 else m - n
    return Scalar(mul(sp.Transpose(q_vec), R_at(position), k_vec))


@functools.cache
def prove_transpose() -> Proof:
    r"""Prove that the transpose of a rotation is the rotation by the opposite angle.

    .. math:: R(a)^\top = R(-a)

    Source: RoFormer eq. (13); note 001 §1.5.

    >>> p = prove_transpose()
    >>> p.latex, p.holds
    ('\\left(R(a)\\right)^{T} = R(- a)', True)
    """
    return check_identity("transpose", sp.Transpose(R(a)), R(-a), source="RoFormer eq. (13); note 001 §1.5",
                          conditions="a real")


@functools.cache
def prove_composition() -> Proof:
    r"""Prove that rotations compose by adding their angles.

    .. math:: R(a)\,R(b) = R(a + b)

    Source: RoFormer eq. (13); note 001 §2.8.1.

    >>> prove_composition().holds
    True
    """
    return check_identity("composition", mul(R(a), R(b)), R(a + b), source="RoFormer eq. (13); note 001 §2.8.1",
                          conditions="a, b real")


@functools.cache
def prove_orthogonality() -> Proof:
    r"""Prove that a rotation is orthogonal.

    .. math:: R(a)^\top R(a) = I

    Source: RoFormer §3.2.2 ("an orthogonal matrix, which ensures stability").

    >>> prove_orthogonality().holds
    True
    """
    return check_identity("orthogonality", mul(sp.Transpose(R(a)), R(a)), sp.Identity(2), source="RoFormer §3.2.2",
                          conditions="a real")


@functools.cache
def prove_determinant() -> Proof:
    r"""Prove that a rotation has determinant 1 (it is not a reflection).

    .. math:: \det R(a) = 1

    Source: RoFormer eq. (13).

    >>> prove_determinant().lhs
    sin(a)**2 + cos(a)**2
    """
    return check_identity("determinant", sp.Determinant(R(a)), sp.Integer(1), source="RoFormer eq. (13)",
                          conditions="a real")


@functools.cache
def prove_relative_position_2d() -> Proof:
    r"""Prove the 2D relative-position identity in matrix form.

    .. math:: (R_m q)^\top (R_n k) = q^\top R_{n-m}\, k

    Source: RoFormer eq. (16) with d = 2 (note 001 §2.8.1 has it right, §2.10 with the wrong sign).

    >>> p = prove_relative_position_2d()
    >>> p.text, p.holds
    ('(R_m*q).T*(R_n*k) = q.T*R_(n - m)*k', True)
    """
    return check_identity("relative_position_2d", score_2d_shown(), relative_shown(),
                          source="RoFormer eq. (16), d = 2", conditions=_2D, definitions=VECTORS)


@functools.cache
def prove_relative_position_complex_2d() -> Proof:
    r"""Prove that the 2D score is the real part of a complex product.

    .. math:: q^\top R_{n-m}\, k = \mathrm{Re}\big[q\,\overline{k}\,e^{i(m-n)\theta}\big],
              \quad q = q_0 + i q_1,\ k = k_0 + i k_1

    Source: RoFormer eq. (12).

    >>> prove_relative_position_complex_2d().holds
    True
    """
    complex_form = sp.re(q * sp.conjugate(k) * sp.exp(sp.I * (m - n) * theta), evaluate=False)
    return check_identity("relative_position_complex_2d", relative_shown(), complex_form, source="RoFormer eq. (12)",
                          conditions=_2D + "; the complex q, k are the same vectors read as complex numbers",
                          definitions=VECTORS + ((q, q0 + sp.I * q1), (k, k0 + sp.I * k1)))


@functools.cache
def prove_score_cross_term_2d() -> Proof:
    r"""Prove the 2D score in dot/cross form, with :math:`q \times k = q_0 k_1 - q_1 k_0`.

    .. math:: (R_m q)^\top (R_n k) = (q^\top k)\cos((m-n)\theta) + (q_0 k_1 - q_1 k_0)\sin((m-n)\theta)

    Source: real part of RoFormer eq. (12), expanded; corrects note 001 §2.8.1.

    >>> prove_score_cross_term_2d().holds
    True
    """
    r = (m - n) * theta
    cross = sp.Add(sp.Mul(q0, k1, evaluate=False), -sp.Mul(q1, k0, evaluate=False), evaluate=False)
    rhs = sp.Add(sp.Mul(Scalar(mul(sp.Transpose(q_vec), k_vec)), sp.cos(r), evaluate=False),
                 sp.Mul(cross, sp.sin(r), evaluate=False), evaluate=False)
    return check_identity("score_cross_term_2d", score_2d_shown(), rhs,
                          source="expansion of RoFormer eq. (12); corrects note 001 §2.8.1", conditions=_2D,
                          definitions=VECTORS)


POLAR = ((q_vec, sp.ImmutableMatrix([r_q * sp.cos(alpha_q), r_q * sp.sin(alpha_q)])),
         (k_vec, sp.ImmutableMatrix([r_k * sp.cos(alpha_k), r_k * sp.sin(alpha_k)])))
"""The definitions of the polar form: :math:`q = r_q(\\cos\\alpha_q, \\sin\\alpha_q)^T`, same for k."""


@functools.cache
def prove_score_polar_2d() -> Proof:
    r"""Prove the 2D score in polar form, :math:`q = r_q(\cos\alpha_q, \sin\alpha_q)`, same for k.

    .. math:: (R_m q)^\top (R_n k) = |q|\,|k| \cos\big(\alpha_q - \alpha_k + (m-n)\theta\big)

    Source: :math:`R_m q` has angle :math:`\alpha_q + m\theta`; corrects note 001 §2.8.1.

    >>> prove_score_polar_2d().holds
    True
    """
    return check_identity("score_polar_2d", score_2d_shown(), r_q * r_k * sp.cos(alpha_q - alpha_k + (m - n) * theta),
                          source="angle of R_m q is alpha_q + m theta; corrects note 001 §2.8.1",
                          conditions="r_q = |q|, r_k = |k| >= 0; alpha_q, alpha_k, m, n, theta real",
                          definitions=POLAR)


def weights_shown(transpose: bool = True) -> Scalar:
    r"""Return :math:`x_m^\top W_q^\top R_{n-m} W_k x_n` as notation (``transpose=False``: without the first T).

    .. math:: x_m^\top W_q^{(\top)} R_{n-m} W_k x_n

    >>> from ropemath.symbolic.common import render
    >>> render(weights_shown(False))
    'x_{m}^{T} W_{q} R_{n - m} W_{k} x_{n}'
    """
    return Scalar(mul(sp.Transpose(x_m), sp.Transpose(W_q) if transpose else W_q, R_at(n - m), W_k, x_n))


@functools.cache
def prove_weights_transpose_2d() -> Proof:
    r"""Prove the attention score with projection matrices (d = 2, symbolic 2×2 weights).

    .. math:: (R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q^\top R_{n-m} W_k x_n

    Source: RoFormer eq. (16) with d = 2; corrects note 000 (which drops the transpose on W_q).

    >>> prove_weights_transpose_2d().holds
    True
    """
    lhs = Scalar(mul(sp.Transpose(mul(R_at(m), W_q, x_m)), mul(R_at(n), W_k, x_n)))
    return check_identity("weights_transpose_2d", lhs, weights_shown(),
                          source="RoFormer eq. (16) with d = 2; corrects note 000",
                          conditions="W_q, W_k arbitrary 2x2, x_m, x_n arbitrary 2-vectors (symbolic entries)")


@functools.cache
def prove_block_diagonal(d: int) -> Proof:
    r"""Check the block-diagonal relative-position identity at one size d, with distinct symbolic frequencies.

    .. math:: (R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m},
              \quad \theta_0, \dots, \theta_{d/2-1} \text{ independent symbols}

    Source: RoFormer §3.2.2, eq. (16).

    >>> p = prove_block_diagonal(4)
    >>> p.name, p.latex, p.holds
    ('block_diagonal_d4', '\\left(R^{4}_{\\Theta,m}\\right)^{T} R^{4}_{\\Theta,n} = R^{4}_{\\Theta,n - m}', True)
    """
    d = check_d(d)
    t = thetas(d // 2)
    return check_identity(f"block_diagonal_d{d}", mul(sp.Transpose(Rot(m, t)), Rot(n, t)), Rot(n - m, t),
                          source="RoFormer §3.2.2, eq. (16)",
                          conditions=f"d = {d}; m, n, theta_0..theta_{d // 2 - 1} real and independent")


def _rotate_pairs(x: list[sp.Expr], layout: str) -> list[sp.Expr]:
    """(-x1, x0, -x3, x2, ...) for interleaved; (-x_{h..d-1}, x_{0..h-1}) for half (rotate_half)."""
    h = len(x) // 2
    if layout == "interleaved":
        return [-x[i + 1] if i % 2 == 0 else x[i - 1] for i in range(len(x))]
    return [-v for v in x[h:]] + x[:h]


@functools.cache
def prove_elementwise(d: int, layout: str = "interleaved") -> Proof:
    r"""Check at one size d that the elementwise form equals the matrix product, in either pair layout.

    .. math:: R^d_{\Theta,m} x = x \circ c_m + \mathrm{rot}(x) \circ s_m

    :math:`\circ` is the elementwise product; ``where_latex`` defines :math:`c_m, s_m, \mathrm{rot}(x)` per layout.
    Source: RoFormer eq. (34) (interleaved); GPT-NeoX / Hugging Face ``rotate_half`` (half).

    >>> p = prove_elementwise(6, "half")
    >>> p.latex, p.holds
    ('R^{6,\\mathrm{half}}_{\\Theta,m} x = x \\circ c_{m} + rot(x) \\circ s_{m}', True)
    """
    d, layout = check_d(d), check_layout(layout)
    t = thetas(d // 2)
    x = list(sp.symbols(f"x_0:{d}", real=True))
    idx = [i // 2 for i in range(d)] if layout == "interleaved" else [i % (d // 2) for i in range(d)]
    xs, cs, ss, rs = (sp.MatrixSymbol(name, d, 1) for name in ("x", "c_m", "s_m", "rot(x)"))
    definitions = ((xs, sp.ImmutableMatrix(x)), (cs, sp.ImmutableMatrix([sp.cos(m * t[i]) for i in idx])),
                   (ss, sp.ImmutableMatrix([sp.sin(m * t[i]) for i in idx])),
                   (rs, sp.ImmutableMatrix(_rotate_pairs(x, layout))))
    rhs = sp.MatAdd(sp.HadamardProduct(xs, cs), sp.HadamardProduct(rs, ss))
    return check_identity(f"elementwise_{layout}_d{d}", mul(Rot(m, t, layout), xs), rhs,
                          source="RoFormer eq. (34)" + ("" if layout == "interleaved" else ", half layout"),
                          conditions=f"d = {d}; x_0..x_{d - 1}, m, theta_i real", definitions=definitions)


h, S = sp.IndexedBase("h"), sp.IndexedBase("S")
theta_i = sp.IndexedBase("theta", real=True)
_i, _l = sp.symbols("i l", integer=True)


def _abel_sides(half: int) -> tuple[sp.Sum, sp.Sum]:
    """The two sides of eq. (36) as unevaluated sums over i = 0..half-1."""
    lhs = sp.Sum(sp.Mul(h[_i], sp.Add(S[_i + 1], -S[_i], evaluate=False), evaluate=False), (_i, 0, half - 1))
    rhs = -sp.Sum(sp.Mul(S[_i + 1], sp.Add(h[_i + 1], -h[_i], evaluate=False), evaluate=False), (_i, 0, half - 1))
    return lhs, rhs


@functools.cache
def prove_abel_summation(half: int = 4) -> Proof:
    r"""Check the Abel summation of RoFormer §3.4.3 for ``half`` = d/2 terms (every d: an index shift, notebook 02).

    .. math:: \sum_{i=0}^{d/2-1} h_i (S_{i+1} - S_i) = -\sum_{i=0}^{d/2-1} S_{i+1}(h_{i+1} - h_i),
              \quad h_{d/2} = 0,\ S_0 = 0

    Source: RoFormer §3.4.3, eq. (36).  The :math:`h_i, S_j` are indexed symbols (arbitrary complex).

    >>> prove_abel_summation(2).lhs
    (-S[1] + S[2])*h[1] + S[1]*h[0]
    """
    half = check_int(half, "half", minimum=1)
    lhs, rhs = _abel_sides(half)
    return check_identity(f"abel_summation_d{2 * half}", lhs, rhs, source="RoFormer §3.4.3, eq. (36)",
                          conditions=f"d/2 = {half}; h_{half} = 0, S_0 = 0; other h_i, S_j arbitrary complex",
                          definitions=((h[half], sp.Integer(0)), (S[0], sp.Integer(0))))


@functools.cache
def prove_abel_partial_sums(half: int = 4) -> Proof:
    r"""Check for ``half`` = d/2 terms that with RoPE's partial sums the Abel sum is the score itself.

    .. math:: S_j = \sum_{l=0}^{j-1} e^{i r \theta_l} \;\Rightarrow\;
              \sum_{i=0}^{d/2-1} h_i (S_{i+1} - S_i) = \sum_{i=0}^{d/2-1} h_i e^{i r \theta_i}

    Source: RoFormer §3.4.3, eq. (35)-(36).

    >>> prove_abel_partial_sums(4).holds
    True
    """
    half = check_int(half, "half", minimum=1)
    r = sp.Symbol("r", real=True)
    lhs, _ = _abel_sides(half)
    rhs = sp.Sum(h[_i] * sp.exp(sp.I * r * theta_i[_i]), (_i, 0, half - 1))
    partial = tuple((S[j], sp.Sum(sp.exp(sp.I * r * theta_i[_l]), (_l, 0, j - 1))) for j in range(1, half + 1))
    return check_identity(f"abel_partial_sums_d{2 * half}", lhs, rhs, source="RoFormer §3.4.3, eq. (35)-(36)",
                          conditions=f"d/2 = {half}; r = m - n real", definitions=((S[0], sp.Integer(0)),) + partial)


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
    return _lookup(PROOFS, name, "proof")


def all_proofs() -> tuple[Proof, ...]:
    """Return every registered proof, in order.

    >>> all(p.holds for p in all_proofs())
    True
    """
    return tuple(get_proof(name) for name in PROOFS)
