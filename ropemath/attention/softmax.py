r"""Softmax attention with RoPE.

Scope: RoPE scores :math:`(R_m q_m)^\top (R_n k_n)`; softmax attention built on them (numerically stable,
optional causal mask).  Shapes: ``q``, ``k`` (N, d) with N >= 1 and d even, ``v`` (N, d_v), ``positions``
(N,); row ``m`` of ``q`` sits at position ``positions[m]``.  The causal mask follows the row order (key ``n``
is visible to query ``m`` iff ``n <= m``), not the position values.  Computed in float64.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1 eq. (2), §3.2 eq. (16).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.attention.linear import _inputs, _values
from ropemath.core.apply import apply_rope

__all__ = ["rope_scores", "rope_attention_weights", "rope_softmax_attention"]


def rope_scores(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str, base: float | None = None,
    theta: npt.ArrayLike | None = None,
) -> np.ndarray:
    r"""Return the (N, N) matrix of RoPE scores (unscaled), entry (m, n) for query m and key n.

    .. math:: S_{mn} = (R^d_{\Theta,p_m} q_m)^\top (R^d_{\Theta,p_n} k_n) = q_m^\top R^d_{\Theta,p_n-p_m} k_n

    with :math:`p_m` = ``positions[m]``.  Source: RoFormer eq. (16).

    >>> q = np.array([[1.0, 0.0]]); k = np.array([[1.0, 0.0]])
    >>> rope_scores(q, k, [0], layout="interleaved", base=1e4).tolist()
    [[1.0]]
    """
    q, k, positions = _inputs(q, k, positions, False)
    rope = {"layout": layout, "base": base, "theta": theta}
    return apply_rope(q, positions, **rope) @ apply_rope(k, positions, **rope).T


def rope_attention_weights(
    q: npt.ArrayLike, k: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str, base: float | None = None,
    theta: npt.ArrayLike | None = None, causal: bool = False,
) -> np.ndarray:
    r"""Return the (N, N) softmax attention weights on RoPE scores scaled by :math:`1/\sqrt{d}`.

    .. math:: a_{mn} = \frac{\exp(S_{mn}/\sqrt{d})}{\sum_{j} \exp(S_{mj}/\sqrt{d})}

    (sums over visible keys; :math:`j \le m` when ``causal``).  Computed stably: the row
    maximum is subtracted before exponentiating.  Source: RoFormer eq. (2) with eq. (16).

    >>> ones = np.ones((3, 2))
    >>> w = rope_attention_weights(ones, ones, [0, 1, 2], causal=True, layout="interleaved", base=1e4)
    >>> [round(float(s), 12) for s in w.sum(axis=1)], float(w[0, 1])
    ([1.0, 1.0, 1.0], 0.0)
    """
    q, k, positions = _inputs(q, k, positions, causal)
    scores = rope_scores(q, k, positions, layout=layout, base=base, theta=theta) / np.sqrt(q.shape[1])
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


def rope_softmax_attention(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike, positions: npt.ArrayLike, *, layout: str,
    base: float | None = None, theta: npt.ArrayLike | None = None, causal: bool = False,
) -> np.ndarray:
    r"""Return softmax attention outputs with RoPE, shape (N, d_v).

    .. math:: o_m = \sum_n a_{mn} v_n, \quad
              a_{mn} = \operatorname{softmax}_n\big((R_{p_m} q_m)^\top (R_{p_n} k_n)/\sqrt{d}\big)

    The scores depend on positions only through :math:`p_n - p_m`, so shifting every
    position by the same amount leaves the output unchanged (up to rounding).
    Source: RoFormer eq. (2), (16).

    >>> v = np.array([[1.0], [3.0]])
    >>> o = rope_softmax_attention(np.ones((2, 2)), np.ones((2, 2)), v, [5, 5], layout="interleaved", base=1e4)
    >>> o.tolist()
    [[2.0], [2.0]]
    """
    weights = rope_attention_weights(q, k, positions, layout=layout, base=base, theta=theta, causal=causal)
    return weights @ _values(v, weights.shape[0])


