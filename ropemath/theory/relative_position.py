r"""Relative position in scores: maps over (m, n), the additive expansion evaluated, shifts of p_iᵀMp_j.

Scope: which encodings make a score depend on m - n only, and why additive encodings do not.

* :func:`same_token_score_maps` — one token at every position, scored against itself over all
  (m, n): with RoPE the map depends on :math:`m - n` only (a Toeplitz matrix), with a sinusoidal
  encoding added to the input it does not; :func:`toeplitz_deviation` measures how far a matrix is
  from constant diagonals.
* :func:`expansion_term_values` — the sympy terms of
  :func:`~ropemath.theory.encodings.additive_score_expansion` evaluated at numeric vectors and matrices.
* :func:`scaled_rotation_conditions` — when the absolute part of :math:`p_i^\top M p_j` vanishes (sympy).
* :func:`scaled_rotation_blocks`, :func:`position_term_shift_change` — a block-diagonal
  :math:`M` of scaled rotations, and how much :math:`p_i^\top M p_j` moves when both positions shift.
* :func:`linear_attention_two_ways` — linear attention's output, with column vectors, as the
  quadratic sum and as the factored form that makes it :math:`O(N)`.

Vectors are columns (README, "Notation"): a score is :math:`q^\top R\,k`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.2 (absolute encodings), §2.3 (the
four-term expansion Transformer-XL starts from), §3.2.2 eq. (16) (RoPE scores), §3.3 eq. (18)–(19)
(linear attention); Vaswani et al., *Attention Is All You Need* (2017), §3.5; Katharopoulos et al.,
*Transformers are RNNs* (2020), §3.2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_base, check_d, check_positions, check_x, finite_result
from ropemath.core.apply import apply_rope
from ropemath.core.blocks import block_diagonal
from ropemath.theory.encodings import sinusoidal_encoding, sinusoidal_pair_decomposition, sinusoidal_scores

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = [
    "same_token_score_maps",
    "toeplitz_deviation",
    "expansion_term_values",
    "scaled_rotation_conditions",
    "scaled_rotation_blocks",
    "position_term_shift_change",
    "linear_attention_two_ways",
]


def _square(w: object, d: int, name: str) -> np.ndarray:
    arr = check_x(w, name).astype(np.float64)
    if arr.shape != (d, d):
        raise ValueError(f"{name} must have shape ({d}, {d}), got shape {arr.shape}")
    return arr


def _matrix(a: object, name: str) -> np.ndarray:
    arr = as_array(a, name)
    if arr.dtype.kind not in "iuf" or arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a non-empty matrix of finite real numbers, got {_describe(a)}")
    return arr.astype(np.float64)


def same_token_score_maps(
    x: npt.ArrayLike, positions: npt.ArrayLike, w_q: npt.ArrayLike, w_k: npt.ArrayLike, *, base: float = 10000.0
) -> dict[str, np.ndarray]:
    r"""Score one token x against itself at every pair of positions: RoPE and additive sinusoidal maps.

    .. math::
        S^{\mathrm{RoPE}}_{mn} = (R^d_{\Theta,m} W_q x)^\top (R^d_{\Theta,n} W_k x)
        = x^\top W_q^\top R^d_{\Theta,n-m} W_k x,
        \qquad S^{\mathrm{abs}}_{mn} = (x + p_m)^\top W_q^\top W_k (x + p_n)

    ``x`` has shape (d,), ``w_q`` and ``w_k`` shape (d, d), ``positions`` shape (N,); both maps
    have shape (N, N), rows the query position m, columns the key position n (interleaved pairs).
    Source: RoFormer eq. (16) and §2.2.

    >>> maps = same_token_score_maps([1.0, 0.0], [0, 1], np.eye(2), np.eye(2))
    >>> np.round(maps["rope"], 3).tolist()
    [[1.0, 0.54], [0.54, 1.0]]
    """
    x = check_x(x, "x").astype(np.float64)
    if x.ndim != 1:
        raise ValueError(f"x must have shape (d,), got shape {x.shape}")
    d = check_d(x.shape[0], "len(x)")
    pos = check_positions(positions, "positions")
    if pos.ndim != 1 or pos.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {pos.shape}")
    w_q, w_k, base = _square(w_q, d, "w_q"), _square(w_k, d, "w_k"), check_base(base)
    q = apply_rope(np.broadcast_to(w_q @ x, (pos.size, d)), pos, layout="interleaved", base=base)
    k = apply_rope(np.broadcast_to(w_k @ x, (pos.size, d)), pos, layout="interleaved", base=base)
    absolute = sinusoidal_scores(np.broadcast_to(x, (pos.size, d)), pos, w_q, w_k, base=base)
    return finite_result(
        {"rope": q @ k.T, "absolute": absolute},
        "same_token_score_maps", x=x, positions=positions, w_q=w_q, w_k=w_k, base=base,
    )


def toeplitz_deviation(s: npt.ArrayLike) -> float:
    r"""Return :math:`\max_{m,n} |S_{m+1,n+1} - S_{mn}|`: 0 exactly when S is constant along every diagonal.

    .. math:: \delta(S) = \max_{m,n} |S_{m+1,\,n+1} - S_{m,n}|

    Source: the definition of a Toeplitz matrix (entries depend on m − n only).

    >>> toeplitz_deviation([[1.0, 2.0], [3.0, 1.0]]), toeplitz_deviation([[1.0, 2.0], [3.0, 4.0]])
    (0.0, 3.0)
    """
    arr = _matrix(s, "s")
    if min(arr.shape) < 2:
        raise ValueError(f"s must be a matrix with at least 2 rows and 2 columns, got shape {arr.shape}")
    return finite_result(float(np.max(np.abs(arr[1:, 1:] - arr[:-1, :-1]))), "toeplitz_deviation", s=s)


def expansion_term_values(terms: dict[str, sympy.Expr], values: dict[str, npt.ArrayLike]) -> dict[str, float]:
    r"""Evaluate each sympy term of the additive expansion at numeric vectors (columns) and matrices.

    .. math:: t(x_i, x_j, p_i, p_j, W_q, W_k) \in \mathbb{R}, \quad \text{e.g. } x_i^\top W_q^\top W_k p_j

    ``values`` maps each symbol name (``"x_i"``, ``"W_q"``, …) to an array; 1-D arrays become column
    vectors.  Source: RoFormer §2.3 (the four-term expansion).

    >>> from ropemath.theory.encodings import additive_score_expansion
    >>> _, terms = additive_score_expansion(2, 1)
    >>> vals = {"x_i": [1.0, 0.0], "x_j": [0.0, 1.0], "p_i": [0.0, 0.0], "p_j": [0.0, 0.0],
    ...         "W_q": [[1.0, 2.0]], "W_k": [[3.0, 4.0]]}
    >>> expansion_term_values(terms, vals)["content-content"]
    4.0
    """
    import sympy as sp

    out = {}
    for name, term in terms.items():
        subs = {sym: sp.Matrix(np.asarray(values[sym.name], dtype=np.float64)) for sym in term.free_symbols}
        out[name] = float(term.subs(subs).doit()[0, 0])
    return out


def scaled_rotation_conditions() -> dict[str, object]:
    r"""When does the absolute part of :math:`p_i^\top M p_j` vanish? Three sympy answers.

    .. math:: \tfrac{e-a}{2}\cos((i+j)\omega) + \tfrac{b+c}{2}\sin((i+j)\omega) \equiv 0 \iff e = a,\ c = -b

    Returns ``{"scaled rotation": <absolute part when e = a, c = -b>, "diag(1, 0)": <absolute part
    for M = diag(1, 0)>, "forced": <solutions of the part vanishing at (i+j)ω = 0 and π/2>}``.
    Source: product-to-sum formulas (see :func:`~ropemath.theory.encodings.sinusoidal_pair_decomposition`).

    >>> out = scaled_rotation_conditions()
    >>> out["scaled rotation"], out["forced"]
    (0, [{c: -b, e: a}])
    """
    import sympy as sp

    absolute = sinusoidal_pair_decomposition()["absolute"]
    sym = {s.name: s for s in absolute.free_symbols}
    a, b, c, e, i, j, w = (sym[n] for n in ("a", "b", "c", "e", "i", "j", "omega"))
    two_points = [absolute.subs({i: 0, j: 0}), absolute.subs({i: sp.pi / (2 * w), j: 0})]
    return {
        "scaled rotation": sp.simplify(absolute.subs({e: a, c: -b})),
        "diag(1, 0)": absolute.subs({a: 1, b: 0, c: 0, e: 0}),
        "forced": sp.solve(two_points, [e, c], dict=True),
    }


def scaled_rotation_blocks(coefficients: npt.ArrayLike) -> np.ndarray:
    r"""Return the block-diagonal matrix with blocks :math:`a_t I + b_t J`, one per row :math:`(a_t, b_t)`.

    .. math:: M = \operatorname{diag}\Big(\begin{pmatrix} a_0 & b_0 \\ -b_0 & a_0 \end{pmatrix}, \dots\Big),
              \qquad J = \begin{pmatrix} 0 & 1 \\ -1 & 0 \end{pmatrix} = R(-\pi/2)

    Source: :func:`~ropemath.theory.encodings.sinusoidal_pair_decomposition` (the blocks that keep
    the position term relative).

    >>> scaled_rotation_blocks([[1.0, 2.0]]).tolist()
    [[1.0, 2.0], [-2.0, 1.0]]
    """
    ab = check_x(coefficients, "coefficients").astype(np.float64)
    if ab.ndim != 2 or ab.shape[1] != 2 or ab.shape[0] == 0:
        raise ValueError(f"coefficients must have shape (count, 2), got shape {ab.shape}")
    return finite_result(
        block_diagonal([[[a, b], [-b, a]] for a, b in ab.tolist()]),
        "scaled_rotation_blocks", coefficients=coefficients,
    )


def position_term_shift_change(
    m: npt.ArrayLike, positions: npt.ArrayLike, shift: float, *, base: float = 10000.0
) -> float:
    r"""Return how much :math:`p_i^\top M p_j` moves, at most, when both positions shift by s.

    .. math:: \max_{i,j} \big| p_{i+s}^\top M p_{j+s} - p_i^\top M p_j \big|

    ``m`` has shape (d, d) (e.g. :math:`W_q^\top W_k`), ``positions`` shape (N,).
    Source: RoFormer §2.2 (the pure-position term of an additive encoding).

    >>> position_term_shift_change(np.eye(4), [0, 1, 2], 37.0) < 1e-12
    True
    """
    pos = check_positions(positions, "positions")
    if pos.ndim != 1 or pos.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {pos.shape}")
    arr = check_x(m, "m").astype(np.float64)
    if arr.ndim != 2:
        raise ValueError(f"m must be a square matrix of shape (d, d), got shape {arr.shape}")
    d = check_d(arr.shape[1], "m.shape[1]")
    _square(arr, d, "m")

    def term(p: np.ndarray) -> np.ndarray:
        enc = sinusoidal_encoding(p, d, base=base)
        return enc @ arr @ enc.T

    return finite_result(
        float(np.max(np.abs(term(pos + float(shift)) - term(pos)))),
        "position_term_shift_change", m=m, positions=positions, shift=shift, base=base,
    )


def linear_attention_two_ways(
    phi_q: npt.ArrayLike, phi_k: npt.ArrayLike, v: npt.ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return linear attention's outputs as the quadratic sum and as the factored form, column vectors.

    .. math:: o_m = \frac{\sum_n \phi(q_m)^\top \phi(k_n)\, v_n}{\sum_n \phi(q_m)^\top \phi(k_n)}
              = \frac{\big(\sum_n v_n\, \phi(k_n)^\top\big)\, \phi(q_m)}{\big(\sum_n \phi(k_n)\big)^\top \phi(q_m)}

    ``phi_q`` (M, D), ``phi_k`` (N, D), ``v`` (N, d_v) hold the vectors as rows; both results have
    shape (M, d_v).  The state :math:`\sum_n v_n\phi(k_n)^\top` is a :math:`d_v \times D` matrix, built
    once.  Source: RoFormer §3.3 eq. (18); Katharopoulos et al. (2020), §3.2.

    >>> quad, fact = linear_attention_two_ways([[1.0, 0.0]], [[1.0, 0.0], [1.0, 1.0]], [[2.0], [4.0]])
    >>> quad.tolist(), fact.tolist()
    ([[3.0]], [[3.0]])
    """
    fq, fk, vv = (_matrix(a, n) for a, n in ((phi_q, "phi_q"), (phi_k, "phi_k"), (v, "v")))
    if fq.ndim != 2 or fk.ndim != 2 or vv.ndim != 2 or fq.shape[1] != fk.shape[1] or fk.shape[0] != vv.shape[0]:
        raise ValueError(f"need phi_q (M, D), phi_k (N, D), v (N, d_v); got {fq.shape}, {fk.shape}, {vv.shape}")
    sim = fq @ fk.T
    quadratic = (sim @ vv) / sim.sum(axis=1, keepdims=True)
    state, norm = vv.T @ fk, fk.sum(axis=0)
    factored = np.stack([(state @ f) / (norm @ f) for f in fq])
    return finite_result((quadratic, factored), "linear_attention_two_ways", phi_q=phi_q, phi_k=phi_k, v=v)
