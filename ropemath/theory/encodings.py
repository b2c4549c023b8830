r"""Additive (absolute) position encodings and relative biases, and why they are not relative.

Pair ``t`` from 0, :math:`\omega_t = \mathrm{base}^{-2t/d}`; the sinusoidal vector stores
:math:`\sin(i\omega_t)` at ``2t`` and :math:`\cos(i\omega_t)` at ``2t+1``.  sympy is imported lazily.

References: Vaswani et al. (2017) §3.5; Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.2-2.3;
Raffel et al., *T5* (2020) §2.1; Shaw et al. (2018); Dai et al., *Transformer-XL* (2019) §3.3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    MAX_D,
    _describe,
    as_array,
    check_base,
    check_d,
    check_finite,
    check_int,
    check_real_array,
    check_x,
    finite_result,
)
from ropemath.core.rotation import frequencies

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = [
    "sinusoidal_encoding",
    "sinusoidal_dot_closed_form",
    "additive_scores",
    "sinusoidal_scores",
    "relative_bias",
    "additive_score_expansion",
    "sinusoidal_dot_identity",
    "sinusoidal_pair_decomposition",
]


def _check_matrix(w: object, name: str, *, cols: int) -> np.ndarray:
    """Return ``w`` as a float64 matrix of shape (rows, cols) with finite entries, else raise."""
    arr = as_array(w, name)
    if arr.dtype.kind != "f":
        raise TypeError(f"{name} must be a real floating-point matrix, got {_describe(arr)}")
    if arr.ndim != 2 or arr.shape[1] != cols or arr.shape[0] == 0:
        raise ValueError(f"{name} must have shape (d_k, {cols}) with d_k > 0, got shape {arr.shape}")
    return check_x(arr, name).astype(np.float64)


def _check_sequence(positions: object, name: str = "positions") -> np.ndarray:
    """Return positions as a float64 vector of shape (N,) with N >= 1, else raise."""
    arr = check_real_array(positions, name)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"{name} must have shape (N,) with N >= 1, got shape {arr.shape}")
    return arr


def sinusoidal_encoding(positions: npt.ArrayLike, d: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Return the sinusoidal position vectors, shape ``positions.shape + (d,)``, float64.

    .. math::
        p_{i,2t} = \sin(i\,\omega_t), \quad p_{i,2t+1} = \cos(i\,\omega_t), \quad
        \omega_t = \mathrm{base}^{-2t/d}, \ t = 0, \dots, d/2 - 1

    Source: Vaswani et al. (2017) §3.5, :math:`PE_{(pos,2t)} = \sin(pos/10000^{2t/d})`.
    Each pair is a clockwise rotation of :math:`(0, 1)`: :math:`p_i = R^d_{\Theta,-i}\,e`
    with :math:`e = (0, 1, 0, 1, \dots)`.

    >>> sinusoidal_encoding(0, 4).tolist()
    [0.0, 1.0, 0.0, 1.0]
    >>> [round(v, 4) for v in sinusoidal_encoding(1, 4).tolist()]
    [0.8415, 0.5403, 0.01, 1.0]
    """
    positions = check_real_array(positions, "positions")
    d = check_d(d)
    base = check_base(base)
    phase = positions[..., None] * frequencies(d, base)
    out = np.empty(positions.shape + (d,), dtype=np.float64)
    out[..., 0::2] = np.sin(phase)
    out[..., 1::2] = np.cos(phase)
    return finite_result(out, "sinusoidal_encoding", positions=positions, d=d, base=base)


def sinusoidal_dot_closed_form(r: npt.ArrayLike, d: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`\sum_t \cos(r\,\omega_t)`, the closed form of :math:`p_i^\top p_j` at :math:`r = i-j`.

    .. math:: p_i^\top p_j = \sum_{t=0}^{d/2-1} \cos\big((i-j)\,\omega_t\big)

    Source: the angle-difference formula applied pair by pair (proved by
    :func:`sinusoidal_dot_identity`).

    >>> float(sinusoidal_dot_closed_form(0, 8))
    4.0
    """
    r = check_real_array(r, "r")
    return finite_result(
        np.cos(r[..., None] * frequencies(check_d(d), check_base(base))).sum(axis=-1),
        "sinusoidal_dot_closed_form", r=r, d=d, base=base,
    )


def additive_scores(x: npt.ArrayLike, p: npt.ArrayLike, w_q: npt.ArrayLike, w_k: npt.ArrayLike) -> np.ndarray:
    r"""Return the (N, N) matrix of additive-encoding scores (no :math:`1/\sqrt{d}` scaling).

    .. math:: S_{ij} = (x_i + p_i)^\top W_q^\top W_k (x_j + p_j)

    ``x``, ``p``: (N, d) contents and (learned or sinusoidal) positions; ``w_q``, ``w_k``: (d_k, d).
    Source: RoFormer §2.2, :math:`f_t(x_i, i) = W_t(x_i + p_i)`.

    >>> x = np.zeros((2, 2)); p = np.array([[1.0, 0.0], [0.0, 2.0]]); w = np.eye(2)
    >>> additive_scores(x, p, w, w).tolist()
    [[1.0, 0.0], [0.0, 4.0]]
    """
    x = check_x(x, "x").astype(np.float64)
    if x.ndim != 2:
        raise ValueError(f"x must have shape (N, d), got shape {x.shape}")
    p = check_x(p, "p", d=x.shape[1]).astype(np.float64)
    if p.shape != x.shape:
        raise ValueError(f"p must have the shape of x {x.shape}, got shape {p.shape}")
    w_q = _check_matrix(w_q, "w_q", cols=x.shape[1])
    w_k = _check_matrix(w_k, "w_k", cols=x.shape[1])
    if w_k.shape != w_q.shape:
        raise ValueError(f"w_k must have the shape of w_q {w_q.shape}, got shape {w_k.shape}")
    q = (x + p) @ w_q.T
    k = (x + p) @ w_k.T
    return finite_result(q @ k.T, "additive_scores", x=x, p=p, w_q=w_q, w_k=w_k)


def sinusoidal_scores(x: npt.ArrayLike, positions: npt.ArrayLike, w_q: npt.ArrayLike, w_k: npt.ArrayLike, *,
        base: float = 10000.0) -> np.ndarray:
    r"""Return additive scores with sinusoidal :math:`p_i` at the given positions, shape (N, N).

    .. math:: S_{ij} = (x_i + p_{m_i})^\top W_q^\top W_k (x_j + p_{m_j})

    where :math:`m_i` is ``positions[i]``.  Source: Vaswani et al. (2017); RoFormer §2.2.

    >>> x = np.zeros((2, 2)); w = np.eye(2)
    >>> sinusoidal_scores(x, [0, 0], w, w).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    x = check_x(x, "x")
    if x.ndim != 2:
        raise ValueError(f"x must have shape (N, d), got shape {x.shape}")
    if x.shape[0] == 0:
        raise ValueError(f"x must contain at least one vector (shape (N, d), N >= 1), got shape {x.shape}")
    positions = _check_sequence(positions)
    if positions.shape[0] != x.shape[0]:
        raise ValueError(f"positions must have shape ({x.shape[0]},), got shape {positions.shape}")
    p = sinusoidal_encoding(positions, x.shape[1], base=base)
    return finite_result(
        additive_scores(x, p, w_q, w_k),
        "sinusoidal_scores", x=x, positions=positions, w_q=w_q, w_k=w_k, base=base,
    )


def relative_bias(positions: npt.ArrayLike, table: npt.ArrayLike) -> np.ndarray:
    r"""Return the (N, N) matrix of a learned relative bias :math:`b(\mathrm{clip}(m-n, -K, K))`.

    .. math:: B_{mn} = b_{\mathrm{clip}(m - n,\, -K,\, K)}, \qquad \text{table} = (b_{-K}, \dots, b_K)

    ``table`` (length 2K+1): entry ``K + r`` is the bias of distance r; integer positions.  Shaw et al.'s (2018)
    clipping as a scalar logit bias (T5 uses log buckets).  Source: RoFormer §2.3; Raffel et al. (2020) §2.1.

    >>> relative_bias([0, 1, 2, 3], np.array([-1.0, 0.0, 1.0])).tolist()
    [[0.0, -1.0, -1.0, -1.0], [1.0, 0.0, -1.0, -1.0], [1.0, 1.0, 0.0, -1.0], [1.0, 1.0, 1.0, 0.0]]
    """
    positions = _check_sequence(positions)
    if not np.all(positions == np.round(positions)):
        raise ValueError("positions must be integers for a table of relative biases, got fractions")
    if np.max(np.abs(positions)) > 2.0**52:
        raise ValueError(f"positions must be integers of magnitude <= 2**52, got {np.max(np.abs(positions)):.3g}")
    table = as_array(table, "table")
    if table.dtype.kind != "f":
        raise TypeError(f"table must be a real floating-point vector, got {_describe(table)}")
    if table.ndim != 1 or table.shape[0] % 2 == 0:
        raise ValueError(f"table must have shape (2K+1,) (odd length), got shape {table.shape}")
    check_finite(table, "table")
    K = table.shape[0] // 2
    r = (positions[:, None] - positions[None, :]).astype(np.int64)
    return finite_result(
        table.astype(np.float64)[np.clip(r, -K, K) + K],
        "relative_bias", positions=positions, table=table,
    )


# --- symbolic results (sympy imported lazily) --------------------------------------------


def additive_score_expansion(d: int | None = None, d_k: int | None = None) -> tuple[sympy.Expr, dict[str, sympy.Expr]]:
    r"""Expand the additive score with sympy matrix symbols; return ``(lhs, terms)``.

    .. math::
        (x_i + p_i)^\top W_q^\top W_k (x_j + p_j)
        = x_i^\top W_q^\top W_k x_j + x_i^\top W_q^\top W_k p_j
        + p_i^\top W_q^\top W_k x_j + p_i^\top W_q^\top W_k p_j

    sympy expands the non-commutative products; each term is labelled by the symbols it contains.
    Source: RoFormer §2.3 (Transformer-XL's decomposition).

    >>> lhs, terms = additive_score_expansion()
    >>> list(terms)
    ['content-content', 'content-position', 'position-content', 'position-position']
    >>> terms["position-position"]
    p_i.T*W_q.T*W_k*p_j
    """
    import sympy as sp

    d_sym = sp.Symbol("d", integer=True, positive=True) if d is None else check_d(d)
    dk_sym = (
        sp.Symbol("d_k", integer=True, positive=True)
        if d_k is None
        else check_int(d_k, "d_k", minimum=1, maximum=MAX_D)
    )
    x_i, p_i = sp.MatrixSymbol("x_i", d_sym, 1), sp.MatrixSymbol("p_i", d_sym, 1)
    x_j, p_j = sp.MatrixSymbol("x_j", d_sym, 1), sp.MatrixSymbol("p_j", d_sym, 1)
    w_q, w_k = sp.MatrixSymbol("W_q", dk_sym, d_sym), sp.MatrixSymbol("W_k", dk_sym, d_sym)
    lhs = (x_i + p_i).T * w_q.T * w_k * (x_j + p_j)
    expanded = sp.expand(lhs)
    labels = {}
    for term in expanded.args:
        left = "content" if term.has(x_i) else "position"
        right = "content" if term.has(x_j) else "position"
        labels[f"{left}-{right}"] = term
    order = ["content-content", "content-position", "position-content", "position-position"]
    if sorted(labels) != order:  # pragma: no cover - would mean sympy changed behaviour
        raise RuntimeError(f"unexpected expansion {expanded}")
    return finite_result((lhs, {key: labels[key] for key in order}), "additive_score_expansion", d=d, d_k=d_k)


def sinusoidal_dot_identity(d: int) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    r"""Prove :math:`p_i^\top p_j = \sum_t \cos((i-j)\omega_t)` with sympy; return ``(lhs, rhs, residual)``.

    .. math:: \sum_{t=0}^{d/2-1} \big[\sin(i\omega_t)\sin(j\omega_t) + \cos(i\omega_t)\cos(j\omega_t)\big]
              = \sum_{t=0}^{d/2-1} \cos\big((i-j)\,\omega_t\big)

    Frequencies ``omega_t`` arbitrary; ``residual`` = ``expand(rhs - lhs, trig=True)``, 0 when sympy proves it.
    Source: Vaswani et al. (2017) §3.5; the angle-difference formula.

    >>> lhs, rhs, residual = sinusoidal_dot_identity(2)
    >>> rhs
    cos(omega_0*(i - j))
    >>> residual
    0
    """
    import sympy as sp

    d = check_d(d)
    i, j = sp.symbols("i j", real=True)
    omegas = sp.symbols(f"omega_0:{d // 2}", positive=True)

    def vector(pos: sympy.Symbol) -> sympy.Matrix:
        entries = []
        for w in omegas:
            entries += [sp.sin(pos * w), sp.cos(pos * w)]
        return sp.Matrix(entries)

    lhs = (vector(i).T * vector(j))[0, 0]
    rhs = sp.Add(*[sp.cos((i - j) * w) for w in omegas])
    residual = sp.expand(rhs - lhs, trig=True)
    return finite_result((lhs, rhs, residual), "sinusoidal_dot_identity", d=d)


def sinusoidal_pair_decomposition() -> dict[str, sympy.Expr]:
    r"""Split :math:`p_i^\top M p_j` (one sinusoidal pair, any 2×2 M) into relative and absolute parts.

    .. math::
        p_i^\top \begin{pmatrix} a & b \\ c & e \end{pmatrix} p_j
        = \underbrace{\tfrac{a+e}{2}\cos((i-j)\omega) + \tfrac{b-c}{2}\sin((i-j)\omega)}_{\text{relative}}
        + \underbrace{\tfrac{e-a}{2}\cos((i+j)\omega) + \tfrac{b+c}{2}\sin((i+j)\omega)}_{\text{absolute}}

    with :math:`p_i = (\sin i\omega, \cos i\omega)`; the absolute part vanishes iff :math:`M = aI + bJ`
    (a scaled rotation).  Returns ``{"lhs", "relative", "absolute", "residual"}``, ``residual`` = 0
    (sympy's proof).  Source: product-to-sum formulas; RoFormer §2.2.

    >>> parts = sinusoidal_pair_decomposition()
    >>> parts["residual"]
    0
    >>> parts["absolute"]
    (-a/2 + e/2)*cos(omega*(i + j)) + (b/2 + c/2)*sin(omega*(i + j))
    """
    import sympy as sp

    i, j = sp.symbols("i j", real=True)
    omega = sp.Symbol("omega", positive=True)
    a, b, c, e = sp.symbols("a b c e", real=True)
    M = sp.Matrix([[a, b], [c, e]])
    p_i = sp.Matrix([sp.sin(i * omega), sp.cos(i * omega)])
    p_j = sp.Matrix([sp.sin(j * omega), sp.cos(j * omega)])
    lhs = (p_i.T * M * p_j)[0, 0]
    relative = (a + e) / 2 * sp.cos((i - j) * omega) + (b - c) / 2 * sp.sin((i - j) * omega)
    absolute = (e - a) / 2 * sp.cos((i + j) * omega) + (b + c) / 2 * sp.sin((i + j) * omega)
    residual = sp.expand(lhs - relative - absolute, trig=True)
    return finite_result(
        {"lhs": lhs, "relative": relative, "absolute": absolute, "residual": residual},
        "sinusoidal_pair_decomposition",
    )
