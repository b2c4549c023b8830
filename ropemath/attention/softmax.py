r"""Softmax attention with RoPE, and the measurement of its shift invariance.

Scope: RoPE scores :math:`(R_m q_m)^\top (R_n k_n)`; softmax attention built on them
(numerically stable, optional causal mask); :func:`shift_invariance_error`, which measures
how much an attention output (softmax, or the linear attention of
:mod:`ropemath.attention.linear`) moves when every position is shifted.  The input checks
both attention modules share live in :mod:`ropemath.core._validate`.

Shapes: ``q``, ``k`` are (N, d) with N >= 1 and d even, ``v`` is (N, d_v), ``positions`` is
(N,); row ``m`` of ``q`` sits at position ``positions[m]``.  The causal mask follows the row
order (key row ``n`` is visible to query row ``m`` iff ``n <= m``), not the position
values.  Computation is in float64; results are float64.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1 eq. (2), §3.2 eq. (16);
note 000 "RoPE: Rotray Position Embedding" (Ethan Lai).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.attention.linear import rope_linear_attention
from ropemath.core._validate import (
    check_bool,
    check_choice,
    check_positions,
    check_qk,
    check_real,
    check_v,
    finite_result,
)
from ropemath.core.apply import apply_rope

__all__ = [
    "rope_scores",
    "rope_attention_weights",
    "rope_softmax_attention",
    "shift_invariance_error",
]


# --- softmax attention --------------------------------------------------------------------


def rope_scores(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
) -> np.ndarray:
    r"""Return the (N, N) matrix of RoPE scores (unscaled), entry (m, n) for query m and key n.

    .. math:: S_{mn} = (R^d_{\Theta,p_m} q_m)^\top (R^d_{\Theta,p_n} k_n) = q_m^\top R^d_{\Theta,p_n-p_m} k_n

    with :math:`p_m` = ``positions[m]``.  Source: RoFormer eq. (16).

    >>> q = np.array([[1.0, 0.0]]); k = np.array([[1.0, 0.0]])
    >>> rope_scores(q, k, [0], layout="interleaved", base=1e4).tolist()
    [[1.0]]
    """
    q, k, positions = check_qk(q, k, positions)
    return finite_result(
        apply_rope(q, positions, layout=layout, base=base, theta=theta)
        @ apply_rope(k, positions, layout=layout, base=base, theta=theta).T,
        "rope_scores", q=q, k=k, positions=positions, base=base, theta=theta,
    )


def rope_attention_weights(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
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
    causal = check_bool(causal, "causal")
    scores = rope_scores(q, k, positions, layout=layout, base=base, theta=theta) / np.sqrt(np.shape(q)[1])
    if causal:
        n = scores.shape[0]
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    return finite_result(
        weights / weights.sum(axis=1, keepdims=True),
        "rope_attention_weights", q=q, k=k, positions=positions, base=base, theta=theta,
    )


def rope_softmax_attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
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
    return finite_result(
        weights @ check_v(v, weights.shape[0]),
        "rope_softmax_attention", q=q, k=k, v=v, positions=positions, base=base, theta=theta,
    )


# --- shift invariance ---------------------------------------------------------------------


def shift_invariance_error(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    positions: npt.ArrayLike,
    shift: float,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
    kind: str = "softmax",
) -> float:
    r"""Largest change of the attention output when every position moves by ``shift``, relative to max |o|.

    .. math:: \max_{m,e} |o_{m,e}(p + s) - o_{m,e}(p)| \,/\, \max_{m,e} |o_{m,e}(p)|

    ``kind`` is ``"softmax"`` (:func:`rope_softmax_attention`) or ``"linear"``
    (:func:`ropemath.attention.linear.rope_linear_attention`).  Zero up to rounding because the scores depend on
    :math:`p_n - p_m` only.  Source: RoFormer eq. (16).

    >>> rng = np.random.default_rng(1)
    >>> q, k, v = rng.standard_normal((3, 6, 8))
    >>> shift_invariance_error(q, k, v, np.arange(6), 1000.0, layout="interleaved", base=1e4) < 1e-12
    True
    """
    shift = check_real(shift, "shift")
    check_choice(kind, "kind", ("softmax", "linear"))
    positions = check_positions(positions, "positions")
    if kind == "softmax":
        attend = rope_softmax_attention
    else:
        attend = rope_linear_attention
    before = attend(q, k, v, positions, layout=layout, base=base, theta=theta, causal=causal)
    after = attend(q, k, v, positions + shift, layout=layout, base=base, theta=theta, causal=causal)
    scale = float(np.max(np.abs(before)))
    return finite_result(
        float(np.max(np.abs(after - before)) / (scale if scale > 0 else 1.0)),
        "shift_invariance_error", q=q, k=k, v=v, positions=positions, shift=shift, base=base, theta=theta,
    )
