r"""Relative position in scores: the additive expansion evaluated, when :math:`p_i^\top M p_j` is relative.

Vectors are columns: a score is :math:`q^\top R\,k`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.2-2.3, eq. (16), (18)-(19); Vaswani et al.
(2017) §3.5; Katharopoulos et al., *Transformers are RNNs* (2020) §3.2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_x, finite_result
from ropemath.core.blocks import block_diagonal
from ropemath.theory.encodings import sinusoidal_pair_decomposition

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = ["expansion_term_values", "scaled_rotation_conditions", "scaled_rotation_blocks", "linear_attention_two_ways"]


def _matrix(a: object, name: str) -> np.ndarray:
    arr = as_array(a, name)
    if arr.dtype.kind not in "iuf" or arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a non-empty matrix of finite real numbers, got {_describe(a)}")
    return arr.astype(np.float64)


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


def linear_attention_two_ways(
    phi_q: npt.ArrayLike, phi_k: npt.ArrayLike, v: npt.ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return linear attention's outputs as the quadratic sum and as the factored form, column vectors.

    .. math:: o_m = \frac{\sum_n \phi(q_m)^\top \phi(k_n)\, v_n}{\sum_n \phi(q_m)^\top \phi(k_n)}
              = \frac{\big(\sum_n v_n\, \phi(k_n)^\top\big)\, \phi(q_m)}{\big(\sum_n \phi(k_n)\big)^\top \phi(q_m)}

    Rows are vectors: ``phi_q`` (M, D), ``phi_k`` (N, D), ``v`` (N, d_v); results (M, d_v).
    Source: RoFormer §3.3 eq. (18); Katharopoulos et al. (2020), §3.2.

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
